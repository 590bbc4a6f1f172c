"""``platform/`` is our folder, but ``import platform`` must stay the standard library's."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STDLIB = Path(sysconfig.get_paths()["stdlib"]).resolve()


def test_it_keeps_the_standard_library_platform_module_in_the_test_process() -> None:
    import platform

    assert Path(platform.__file__).resolve().parent == STDLIB
    assert platform.python_version().startswith("3.11")


def test_it_keeps_the_standard_library_platform_module_under_manage_py() -> None:
    # manage.py puts platform/ on sys.path and runs from the repository root,
    # where the folder platform/ sits: the worst case for shadowing.
    code = "import platform, django, arena.settings; print(platform.__file__); print(platform.system())"
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env={**os.environ, "ARENA_NO_BOOTSTRAP": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    path, system = result.stdout.splitlines()[-2:]
    assert Path(path).resolve().parent == STDLIB
    assert system == "Linux"


def test_it_has_no_package_marker_in_the_platform_folder() -> None:
    assert not (ROOT / "platform" / "__init__.py").exists()
    assert (ROOT / "platform" / "arena" / "__init__.py").exists()
