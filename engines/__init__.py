"""Pure game engines: rules only, no I/O, no third-party imports.

``engines.get("watch")`` returns a ready :class:`~engines.base.Game`;
``engines.names()`` lists what is registered. See ``engines/base.py`` for the
interface every game implements and docs/engines.md for how to add one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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

__all__ = [
    "CHANCE",
    "TERMINAL",
    "ActionError",
    "ConfigError",
    "EngineError",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "MalformedActionError",
    "Outcome",
    "State",
    "StateFormatError",
    "UnknownGameError",
    "get",
    "names",
    "register",
    "resolve_chance",
]

_REGISTRY: dict[str, Callable[..., Game]] = {}


class UnknownGameError(EngineError, LookupError):
    """No game is registered under that name."""


def register(name: str, factory: Callable[..., Game]) -> None:
    """Register ``factory`` (a Game class) under ``name``; a name is registered once."""
    if name in _REGISTRY:
        raise ValueError(f"a game named {name!r} is already registered")
    _REGISTRY[name] = factory


def get(name: str, config: Mapping[str, Any] | None = None) -> Game:
    """Return the game registered as ``name``, configured with ``config``."""
    try:
        factory = _REGISTRY[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownGameError(f"no game named {name!r}; registered games: {known}") from None
    return factory(config)


def names() -> list[str]:
    """Return the registered game names, sorted."""
    return sorted(_REGISTRY)


def _register_builtin_games() -> None:
    from engines.watch import WatchGame
    from engines.watch_race import WatchRaceGame

    register(WatchGame.info.name, WatchGame)
    register(WatchRaceGame.info.name, WatchRaceGame)


_register_builtin_games()
