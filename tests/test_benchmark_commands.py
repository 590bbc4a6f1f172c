"""Every benchmark starts as docs/benchmarks.md says to run it: `.venv/bin/python tests/benchmarks/<name>.py`.

Run from the repository root with no PYTHONPATH, as a reader would, each
benchmark must at least import everything it needs and print its usage: a
benchmark whose documented command fails on an import is no yardstick.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = sorted(path.name for path in (ROOT / "tests" / "benchmarks").glob("*.py"))


@pytest.mark.parametrize("name", BENCHMARKS)
def test_the_documented_command_starts(name: str) -> None:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "DJANGO_SETTINGS_MODULE")}
    result = subprocess.run(
        [sys.executable, f"tests/benchmarks/{name}", "--help"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith("usage: "), result.stdout[:500]


def test_every_benchmark_is_documented() -> None:
    documented = (ROOT / "docs" / "benchmarks.md").read_text() + (ROOT / "docs" / "sandbox.md").read_text()
    documented += (ROOT / "docs" / "operations.md").read_text() + (ROOT / "docs" / "bots.md").read_text()
    missing = [name for name in BENCHMARKS if f"tests/benchmarks/{name}" not in documented]
    assert missing == []
