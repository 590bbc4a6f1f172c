"""The platform's apps depend one way: bots → seasons → series → ratings → results → matchmaking → the top.

Each app may import the apps below it, never those above, at module level or
inside a function. At the bottom, ``arena.tasking`` and ``arena.converters``
import no app. At the top, everything that ties the apps together may use
them all: ``arena.ops`` (operations, status, the demo, the beat tasks),
``arena.web``, ``arena.api``, ``arena.embedded``, the URL routes and Celery's
configuration. The admin is a page like the others: its modules live in
``arena.ops.admin``, and an app's own ``admin`` module would be held to its
app's layer. docs/architecture.md draws the same order.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "platform" / "arena"
BOTTOM = ("tasking", "converters")
APPS = ("bots", "seasons", "series", "ratings", "results", "matchmaking")
TOP = ("ops", "web", "api", "embedded", "urls", "wsgi", "celeryconf", "settings", "__init__")


def layer(module: str) -> int:
    """Return the layer of a module of ``arena`` (dotted, without ``arena.``): bottom 0, apps 1..5, top 6."""
    parts = module.split(".")
    if parts[0] in BOTTOM:
        return 0
    if parts[0] in APPS:
        return APPS.index(parts[0]) + 1
    return len(APPS) + 1


def imports(path: Path) -> list[tuple[int, str]]:
    """Return (line, module of arena) for every import of ``arena.*`` in ``path``, wherever it stands."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("arena."):
            found.append((node.lineno, node.module.removeprefix("arena.")))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name.removeprefix("arena.")) for a in node.names if a.name.startswith("arena.")]
    return found


def modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        relative = path.relative_to(ROOT).with_suffix("")
        found.append((".".join(relative.parts).removesuffix(".__init__"), path))
    return found


def test_no_app_imports_an_app_above_it() -> None:
    offences = []
    for module, path in modules():
        own = layer(module)
        app = module.split(".")[0]
        for line, target in imports(path):
            if target.split(".")[0] == app:
                continue
            if layer(target) > own:
                offences.append(f"{path.relative_to(ROOT.parent)}:{line}: {module} (layer {own}) imports {target}")
    assert offences == [], "\n".join(offences)


def test_the_order_is_the_one_documented_and_covers_every_module() -> None:
    assert APPS == ("bots", "seasons", "series", "ratings", "results", "matchmaking")
    known = set(BOTTOM) | set(APPS) | set(TOP)
    assert {module.split(".")[0] for module, _ in modules()} <= known
    architecture = (ROOT.parents[1] / "docs" / "architecture.md").read_text()
    assert "bots → seasons → series → ratings → results → matchmaking" in architecture


def test_the_check_would_see_an_upward_import() -> None:
    # recording (results) importing the matchmaker's scheduling would be upward; the reverse is fine.
    assert layer("results.recording") < layer("matchmaking.scheduling")
    assert layer("series.models") < layer("ratings.models")
    # An admin module of a low app has no pass: calling the operator's actions from there would be upward.
    assert layer("bots.admin") < layer("ops.operations")
    assert layer("series.admin") < layer("ops.admin.series")
    assert layer("tasking") < layer("bots.models")
