"""The staged runtime: the engines and the SDK come precompiled for the bots' interpreter."""

from __future__ import annotations

import subprocess
from pathlib import Path

from workers.sandbox import BOT_PYTHON, Staging


def test_the_sdk_is_staged_with_bytecode_the_bots_interpreter_uses_as_it_is(tmp_path: Path) -> None:
    staging = Staging(str(tmp_path))
    asked = [BOT_PYTHON, "-c", "import sys; print(sys.implementation.cache_tag)"]
    tag = subprocess.run(asked, capture_output=True, text=True, check=True).stdout.strip()
    compiled = staging.runtime / "bots" / "sdk" / "__pycache__" / f"__init__.{tag}.pyc"
    assert compiled.is_file()
    assert int.from_bytes(compiled.read_bytes()[4:8], "little") == 0b01  # unchecked hash: no stat of the source
    assert (staging.runtime / "engines" / "__pycache__" / f"__init__.{tag}.pyc").is_file()
    # Importing it from the read-only copy, as a sandboxed bot does (-B), compiles nothing.
    probe = "import sys; sys.path[:0] = [sys.argv[1]]; import bots.sdk, engines; print(bots.sdk.__cached__)"
    done = subprocess.run([BOT_PYTHON, "-B", "-s", "-c", probe, str(staging.runtime)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(compiled)
