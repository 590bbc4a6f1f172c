"""No code outside a game's own folders names a game: everything else reads the game's declaration.

A game's own folders are ``engines/<game>/`` and ``bots/<game>/``; anything
else (the platform, the workers, the CLI, the site's scripts, templates and
style sheets) that needs to know about a game asks
``engines.declaration(name)`` (engines/declaration.py). This is what makes
adding a game a package and its declaration, with no edit elsewhere.

Outside those folders nothing imports a game's package (``engines.<game>``,
``bots.<game>``), names a game in a string, or uses a game's words: its
name written as words, its own seat labels ("White"), the terms of its
rules (a pawn, a tile). The words are looked for in Python's strings and
identifiers and in every line of scripts, templates and style sheets; a
docstring or a comment may still cite a game as an example.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

import engines
from tests.sources import docstrings

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("platform", "workers", "bots", "engines", "manage.py")


def own_folders() -> list[Path]:
    """Return each game's folders: its engine, its bots, and its starter bots (``bots/starter/<game>-<language>``)."""
    folders = [ROOT / top / name for name in engines.names() for top in ("engines", "bots")]
    return folders + [path for name in engines.names() for path in (ROOT / "bots" / "starter").glob(f"{name}-*")]


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


#: The games' own terms, found in their rulebooks and engines, that no other code needs.
TERMS = ("pawn", "tile", "smuggler", "bribe", "ritual", "warehouse")
#: Words of the web's own that contain a game's word.
NOT_GAME_WORDS = ("white-space",)
GENERIC_SEAT_LABEL = re.compile(r"^(P|Seat )\d+$")


def game_packages() -> re.Pattern[str]:
    """Match a module path of a game's package: ``engines.<game>`` or ``bots.<game>``, and below."""
    alternatives = "|".join(map(re.escape, engines.names()))
    return re.compile(rf"^(engines|bots)\.({alternatives})(\.|$)")


def game_words() -> re.Pattern[str]:
    """Match a game's words: its name as words, its own seat labels, the terms of its rules (any case)."""
    words = {name.replace("_", "[ _-]") for name in engines.names() if "_" in name}
    for name in engines.names():
        words |= {
            re.escape(label) for label in engines.declaration(name).seat_labels if not GENERIC_SEAT_LABEL.match(label)
        }
    words |= {rf"{term}s?" for term in TERMS}
    return re.compile(rf"(?<![a-z])({'|'.join(sorted(words))})(?![a-z])", re.IGNORECASE)


def import_offences(paths: Iterable[Path]) -> list[str]:
    """Return every import of a game's package in ``paths``, by statement or by module name in a string."""
    package = game_packages()
    offences = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                # ``from engines.<game> import x`` names the package; ``from engines import <game>`` its parent.
                modules = (
                    [node.module] if package.match(node.module) else [f"{node.module}.{a.name}" for a in node.names]
                )
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                modules = [node.value]  # importlib.import_module("bots.<game>"), a module named in a setting
            else:
                continue
            offences += [f"{path}:{node.lineno}: {module}" for module in modules if package.match(module)]
    return offences


def _python_words(path: Path) -> Iterable[tuple[int, str]]:
    """Yield (line, text) of every string but docstrings and every identifier of a Python file."""
    tree = ast.parse(path.read_text(), str(path))
    prose = docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose:
            yield node.lineno, node.value
        elif isinstance(node, ast.Name):
            yield node.lineno, node.id
        elif isinstance(node, ast.Attribute):
            yield node.lineno, node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.lineno, node.name
        elif isinstance(node, ast.arg | ast.keyword) and (name := node.arg):
            yield getattr(node, "lineno", 0), name


def word_offences(paths: Iterable[Path]) -> list[str]:
    """Return every game word in ``paths``: Python strings and identifiers, every line of anything else."""
    pattern = game_words()
    offences = []
    for path in paths:
        if path.suffix == ".py":
            found: Iterable[tuple[int, str]] = _python_words(path)
        else:
            found = enumerate(path.read_text().splitlines(), 1)
        for line, text in found:
            for allowed in NOT_GAME_WORDS:
                text = text.replace(allowed, "")
            if (match := pattern.search(text)) is not None:
                offences.append(f"{path}:{line}: {match.group(0)!r} in {text.strip()[:100]!r}")
    return offences


def test_nothing_outside_a_games_folders_imports_a_game_package() -> None:
    offences = import_offences(scanned_files(".py"))
    assert offences == [], "\n".join(offences)


def test_nothing_outside_a_games_folders_uses_a_games_words() -> None:
    offences = word_offences(scanned_files(".py", ".js", ".html", ".css"))
    assert offences == [], "\n".join(offences)


def test_the_checks_see_a_game_imported_or_its_words_used(tmp_path: Path) -> None:
    # Planted cases: each must be found, and what is allowed must not be.
    code = tmp_path / "planted.py"
    code.write_text(
        '''"""A docstring may cite the White pawn as an example."""
import bots.watch_race.policy
from engines.watch import format_points
from engines import watch
import importlib
from engines.text import format_series

policies = importlib.import_module("bots.watch")
LABEL = "Moves as White"
white_total = 0


def show(black_totals: list[int]) -> str:
    return "a tile"
'''
    )
    assert [offence.split(": ", 1)[1] for offence in import_offences([code])] == [
        "bots.watch_race.policy",
        "engines.watch",
        "engines.watch",
        "bots.watch",
    ]
    words = [offence.split(": ", 2)[1].split(" in ")[0] for offence in word_offences([code])]
    assert sorted(words) == sorted(["'White'", "'white'", "'black'", "'tile'"])
    page = tmp_path / "planted.html"
    page.write_text("<th>Moves as Black</th>\n<p>the factory race</p>\n<p>Seat 2, P1</p>\n")
    sheet = tmp_path / "planted.css"
    sheet.write_text(".moves li { white-space: nowrap; }\n.board .pawn { fill: #fff; }\n")
    found = word_offences([page, sheet])
    assert [offence.split(": ", 1)[0] for offence in found] == [f"{page}:1", f"{page}:2", f"{sheet}:2"]
    scanned = {path.relative_to(ROOT).as_posix() for path in scanned_files(".css")}
    assert "platform/arena/web/static/web/site.css" in scanned
