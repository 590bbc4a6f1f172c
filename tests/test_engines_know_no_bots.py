"""The engines know nothing of the bots: no import of ``bots``, no path into it, no module string naming it.

The arrow runs one way: a game's reference bots are declared on the bots side
(bots/<game>/provides.py, read through ``bots.provided.reference``) and point
at the game's declaration, never the reverse. Prose in docstrings and
comments may mention the bots; code may not reach them.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.sources import docstrings

ROOT = Path(__file__).resolve().parents[1]
ENGINES = ROOT / "engines"
#: A string that names the bots package: ``"bots"`` itself (a path part), or a module or path inside it.
NAMES_BOTS = re.compile(r"(^|[/\\])bots($|[./\\])")


def offences_in(source: str, where: str) -> list[str]:
    """Return each place in ``source`` where code imports ``bots`` or names it in a string."""
    tree = ast.parse(source, where)
    prose = docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            modules = [node.module or ""]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose:
            modules = [node.value] if NAMES_BOTS.search(node.value) else []
        else:
            continue
        found += [f"{where}:{node.lineno}: {name!r}" for name in modules if name == "bots" or NAMES_BOTS.search(name)]
    return found


def test_nothing_under_engines_names_the_bots() -> None:
    offences = []
    for path in sorted(ENGINES.rglob("*.py")):
        offences += offences_in(path.read_text(), str(path.relative_to(ROOT)))
    assert offences == [], "\n".join(offences)


def test_the_check_sees_an_import_a_path_and_a_module_string_naming_the_bots() -> None:
    assert len(list(ENGINES.rglob("declaration.py"))) >= 6  # it reads the engines, declarations included
    planted = (
        "import bots.watch\n"
        "from bots.policy import Policy\n"
        "PACKAGES = Path(__file__).parents[2] / 'bots' / 'watch' / 'packages'\n"
        "POLICIES = 'bots.watch'\n"
        "FOLDER = 'repo/bots/watch'\n"
        "module = importlib.import_module(f'bots.{game}')\n"
    )
    assert sorted(int(line.split(":")[1]) for line in offences_in(planted, "planted.py")) == [1, 2, 3, 4, 5, 6]


def test_the_check_lets_prose_and_other_words_be() -> None:
    prose = (
        '"""The reference bots live in bots/<game>/ (bots/provided.py)."""\n'
        "def f():\n"
        '    """Return the robots\' names, as bots/provided.py reads them."""\n'
        "    return 'reference bots', 'robots.txt', 'botsford'\n"
    )
    assert offences_in(prose, "prose.py") == []
