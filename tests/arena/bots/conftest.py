from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest


@pytest.fixture
def write_bot(tmp_path: Path) -> Callable[..., Path]:
    """Return a factory of bot directories: ``write_bot("name", main="...")``."""

    def write(folder: str = "mybot", *, name: str = "my-bot", main: str = "print('hi')\n", **extra: str) -> Path:
        directory = tmp_path / "sources" / folder
        directory.mkdir(parents=True)
        (directory / "bot.toml").write_text(f'name = "{name}"\nentry = "main.py"\ngames = ["watch"]\n')
        (directory / "main.py").write_text(main)
        for relative, text in extra.items():
            path = directory / relative.replace("__", "/")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        return directory

    return write


@pytest.fixture
def scratch_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Make this test's temporary files (tempfile.*) go to one folder, to check nothing is left there."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


@pytest.fixture
def files_under() -> Callable[[Path], list[str]]:
    """Return a function listing every file (not directory) below a folder, relative, sorted."""

    def files(folder: Path) -> list[str]:
        if not folder.exists():
            return []
        return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if not p.is_dir())

    return files
