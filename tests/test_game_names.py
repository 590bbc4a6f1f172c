"""No code outside a game's own folders names a game: everything else reads the game's declaration.

A game's own folders are ``engines/<game>/`` and ``bots/<game>/``; anything
else (the platform, the workers, the CLI, the site's scripts and templates)
that needs to know about a game asks ``engines.declaration(name)``
(engines/declaration.py). This is what makes adding a game a package and its
declaration, with no edit elsewhere.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import engines

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("platform", "workers", "bots", "engines", "manage.py")


def own_folders() -> list[Path]:
    return [ROOT / top / name for name in engines.names() for top in ("engines", "bots")]


def scanned_files(*suffixes: str) -> list[Path]:
    found = []
    for top in SCANNED:
        base = ROOT / top
        paths = [base] if base.is_file() else [p for p in base.rglob("*") if p.is_file()]
        for path in paths:
            if path.suffix not in suffixes or "migrations" in path.parts or "__pycache__" in path.parts:
                continue
            if any(path.is_relative_to(folder) for folder in own_folders()):
                continue
            found.append(path)
    return found


def test_no_python_outside_a_games_folders_names_a_game() -> None:
    names = set(engines.names())
    offences = []
    for path in scanned_files(".py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Constant) and node.value in names:
                offences.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    assert offences == [], "\n".join(offences)


def test_no_script_or_template_outside_a_games_folders_names_a_game() -> None:
    alternatives = "|".join(engines.names())
    pattern = re.compile(rf"""["']({alternatives})["']|\b({alternatives})\s*:""")
    offences = []
    for path in scanned_files(".js", ".html"):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if pattern.search(line):
                offences.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offences == [], "\n".join(offences)


def test_the_check_sees_a_game_named_outside_its_folders(tmp_path: Path) -> None:
    # The checks above would pass on an empty file list: make sure they read what they should.
    scanned = {path.relative_to(ROOT).as_posix() for path in scanned_files(".py", ".js", ".html")}
    assert {"workers/cli.py", "platform/arena/web/static/web/replay.js", "workers/referee.py"} <= scanned
    assert not any(name.startswith(("engines/watch/", "bots/watch/")) for name in scanned)
    tree = ast.parse('if game == "watch":\n    pass\n')
    assert any(isinstance(n, ast.Constant) and n.value in engines.names() for n in ast.walk(tree))
