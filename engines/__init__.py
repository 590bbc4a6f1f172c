"""Pure game engines: rules only, no I/O, no third-party imports.

``engines.get(name)`` returns a ready :class:`~engines.base.Game`,
``engines.declaration(name)`` everything else the system knows about it
(engines/declaration.py), ``engines.names()`` lists what is registered. Every
package here with a ``declaration`` module registers itself. See
``engines/base.py`` for the interface every game implements and
docs/engines.md for how to add one.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from typing import Any

from engines.base import (
    CHANCE,
    TERMINAL,
    ActionError,
    ConfigError,
    EngineError,
    Game,
    GameInfo,
    IllegalActionError,
    MalformedActionError,
    Outcome,
    State,
    StateFormatError,
    resolve_chance,
)
from engines.declaration import GameDeclaration
from engines.kinds import Kind, kind_of

__all__ = [
    "CHANCE",
    "TERMINAL",
    "ActionError",
    "ConfigError",
    "EngineError",
    "Game",
    "GameDeclaration",
    "GameInfo",
    "IllegalActionError",
    "Kind",
    "MalformedActionError",
    "Outcome",
    "State",
    "StateFormatError",
    "UnknownGameError",
    "declaration",
    "flagship",
    "get",
    "kind_of",
    "names",
    "register",
    "resolve_chance",
    "unregister",
]

_REGISTRY: dict[str, GameDeclaration] = {}


class UnknownGameError(EngineError, LookupError):
    """No game is registered under that name."""


def register(declaration: GameDeclaration) -> None:
    """Register a game by its declaration (engines/declaration.py); a name is registered once."""
    name = declaration.name
    if name in _REGISTRY:
        raise ValueError(f"a game named {name!r} is already registered")
    if declaration.flagship and any(other.flagship for other in _REGISTRY.values()):
        raise ValueError(f"{name}: only one game is the flagship")
    _REGISTRY[name] = declaration


def unregister(name: str) -> None:
    """Forget the game ``name`` (tests that register a game of their own)."""
    _REGISTRY.pop(name, None)


def declaration(name: str) -> GameDeclaration:
    """Return the declaration of the game registered as ``name``."""
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownGameError(f"no game named {name!r}; registered games: {known}") from None


def get(name: str, config: Mapping[str, Any] | None = None) -> Game:
    """Return the game registered as ``name``, configured with ``config``."""
    return declaration(name).game(config)


def names() -> list[str]:
    """Return the registered game names, sorted."""
    return sorted(_REGISTRY)


def flagship() -> str:
    """Return the name of the flagship game: the default wherever a game is not said."""
    for name, declared in _REGISTRY.items():
        if declared.flagship:
            return name
    return names()[0]


def _register_builtin_games() -> None:
    """Register every game package here that has a ``declaration`` module: nothing to edit for a new one."""
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg:
            try:
                found = importlib.import_module(f"{__name__}.{module.name}.declaration")
            except ModuleNotFoundError as exc:
                if exc.name != f"{__name__}.{module.name}.declaration":
                    raise
                continue
            register(found.DECLARATION)


_register_builtin_games()
