#!/usr/bin/env python3
"""Watch Arena's command line: Django's manage.py, plus a self-installing start.

Run with any Python 3.11: the first run creates ``.venv`` from the hash-pinned
``requirements.lock`` (through ``.ci/setup``) and re-runs itself inside it, so
a fresh clone needs nothing installed by hand. ``manage.py test [pytest args]``
runs the test suite with pytest. Set ARENA_NO_BOOTSTRAP=1 to use the current
interpreter as it is (the container image does).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"


def ensure_environment(argv: list[str]) -> None:
    """Re-execute under the project's virtualenv, creating or updating it first."""
    if os.environ.get("ARENA_NO_BOOTSTRAP") == "1" or Path(sys.prefix).resolve() == VENV.resolve():
        return
    setup = ["bash", str(ROOT / ".ci" / "setup")]
    if argv[1:2] == ["test"]:
        setup.append("--services")  # the suite talks to PostgreSQL and Redis
    result = subprocess.run(setup, check=False)
    if result.returncode:
        sys.exit(f"manage.py: set-up failed ({' '.join(setup)} exited {result.returncode})")
    python = str(VENV / "bin" / "python")
    os.execv(python, [python, *argv])


def main(argv: list[str]) -> None:
    """Run a Django management command, or pytest for ``test``."""
    ensure_environment(argv)
    if argv[1:2] == ["test"]:
        # pytest with pytest-django, configured in pyproject.toml; arguments pass through.
        os.chdir(ROOT)
        os.execv(sys.executable, [sys.executable, "-m", "pytest", *argv[2:]])
    # platform/ holds the Django project package; it is appended, never
    # prepended, and is not itself a package, so `import platform` stays stdlib.
    sys.path.append(str(ROOT / "platform"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(argv)


if __name__ == "__main__":
    main(sys.argv)
