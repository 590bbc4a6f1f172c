"""The tree is ruff-clean: lint and format, as configured in pyproject.toml."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True)


def test_it_passes_ruff_check() -> None:
    result = run_ruff("check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_it_passes_ruff_format_check() -> None:
    result = run_ruff("format", "--check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr
