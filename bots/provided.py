"""What the bots side provides for each game: its reference bots, read through :func:`reference`.

Each game's folder here, ``bots/<game>/``, holds a ``provides.py`` whose
``PROVIDES`` is a :class:`ReferenceBots`: the reference bots as bot packages
(docs/bot-package.md), the one a new version's validation series is played
against, the in-process policies (bots/policy.py), and which of them
``manage.py demo`` enters. :func:`reference` finds every one on first use, as
``engines`` finds the games' declarations; a test's own game registers its
bots with :func:`register`. The engines know nothing of bots: the arrow runs
from here to a game's declaration (``engines.declaration``), never back.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import engines

if TYPE_CHECKING:
    from bots.policy import Policy

__all__ = ["NoReferenceBotsError", "ReferenceBots", "packages_in", "reference", "register", "unregister"]

#: The reference bots of every game, by game name; filled on first use (:func:`reference`).
_REGISTRY: dict[str, ReferenceBots] = {}
_DISCOVERED = False
#: Held while the registry is being filled: a thread that asks meanwhile waits for the whole of it.
_DISCOVERING = threading.Lock()


class NoReferenceBotsError(LookupError):
    """No reference bots are registered for that game."""


def _unknown(names: Iterable[str], packages: Mapping[str, Path]) -> list[str]:
    return sorted(set(names) - set(packages))


@dataclass(frozen=True)
class ReferenceBots:
    """The reference bots of one game, as the validation, the demo and the bot tables use them."""

    #: The game's registered name (``engines.names()``).
    game: str
    #: Where the reference bots live as bot packages, by name.
    packages: Mapping[str, Path]
    #: The reference bot a new version's validation series is played against.
    validation_bot: str
    #: The same bots as in-process policies, by name (bots/policy.py); empty when none are written.
    policies: Mapping[str, type[Policy]] = field(default_factory=dict)
    #: The reference bots a demo season enters, by name; empty: all of them. A slow bot can stay out,
    #: so the living ladder keeps giving games to a bot a user uploads.
    demo_bots: tuple[str, ...] = ()
    #: A team game's demo: the reference bots entered as GM bots (the others are entered as player
    #: bots); empty: the built-in GM takes the GM seat.
    gm_bots: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.validation_bot not in self.packages:
            raise ValueError(f"{self.game}: the validation bot {self.validation_bot!r} is not a reference bot")
        if unknown := _unknown(self.demo_bots, self.packages):
            raise ValueError(f"{self.game}: the demo's bots {unknown} are not reference bots")
        if unknown := _unknown(self.gm_bots, self.packages):
            raise ValueError(f"{self.game}: the demo's gm_bots {unknown} are not reference bots")
        if unknown := _unknown(self.policies, self.packages):
            raise ValueError(f"{self.game}: the policies {unknown} are not reference bots")

    def demo_packages(self) -> list[Path]:
        """Return the packages a demo season enters, by name: its demo bots (or all) and its GM bots."""
        chosen = set(self.demo_bots or self.packages) | set(self.gm_bots)
        return [path for name, path in sorted(self.packages.items()) if name in chosen]


def packages_in(folder: Path, names: Iterable[str]) -> dict[str, Path]:
    """Return ``{name: folder / name}`` for each of ``names``: the reference bots' packages in ``folder``."""
    return {name: folder / name for name in names}


def register(provided: ReferenceBots) -> None:
    """Register the reference bots of a registered game; a game's bots are registered once."""
    if provided.game in _REGISTRY:
        raise ValueError(f"the reference bots of {provided.game!r} are already registered")
    declared = engines.declaration(provided.game)
    if provided.gm_bots and not declared.roles:  # the GM is a role of a team game only
        raise ValueError(f"{provided.game}: only a team game's demo names gm_bots")
    _REGISTRY[provided.game] = provided


def unregister(game: str) -> None:
    """Forget the reference bots of ``game`` (tests that register a game of their own)."""
    _REGISTRY.pop(game, None)


def reference(game: str) -> ReferenceBots:
    """Return the reference bots of the game registered as ``game``."""
    _discover()
    try:
        return _REGISTRY[game]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise NoReferenceBotsError(f"no reference bots for game {game!r}; games with some: {known}") from None


def _discover() -> None:
    """Register every folder here with a ``provides`` module, once: nothing to edit for a new game.

    The served site asks from several threads at once; each waits until every
    game is registered, so none finds the registry half filled.
    """
    global _DISCOVERED
    if _DISCOVERED:
        return
    with _DISCOVERING:
        if _DISCOVERED:
            return
        package = importlib.import_module(__name__.rpartition(".")[0])
        for module in pkgutil.iter_modules(package.__path__):
            if not module.ispkg:
                continue
            name = f"{package.__name__}.{module.name}.provides"
            try:
                found = importlib.import_module(name)
            except ModuleNotFoundError as exc:
                if exc.name != name:
                    raise
                continue
            if found.PROVIDES.game != module.name:
                raise ValueError(f"bots/{module.name}/provides.py declares the bots of {found.PROVIDES.game!r}")
            register(found.PROVIDES)
        _DISCOVERED = True
