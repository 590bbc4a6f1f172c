"""The policy interface every reference bot implements.

A policy sees what a bot process will see over the protocol: the observation
for its own seat (a JSON-ready dict from ``State.observation``) and the list of
legal action ids; it returns one of those ids. It keeps no reference to the
referee's state, so the same class runs in-process (the local series driver,
the bot tables) and, through the bot SDK, as a separate sandboxed process.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from bots.provided import NoReferenceBotsError, reference


class Policy(Protocol):
    """Chooses an action; constructed as ``PolicyClass(seed=...)`` and kept for a whole series."""

    name: str

    def __init__(self, seed: int | None = None) -> None: ...

    def choose(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        """Return one of ``legal_actions``."""
        ...


class UnknownPolicyError(LookupError):
    """No reference bot of that name for that game."""


def reference_policies(game: str) -> dict[str, type[Policy]]:
    """Return the in-process reference bots of ``game`` by name (``bots/<game>/provides.py``)."""
    try:
        policies = reference(game).policies
    except NoReferenceBotsError:
        raise UnknownPolicyError(f"no reference bots for game {game!r}") from None
    if not policies:
        raise UnknownPolicyError(f"no in-process reference bots for game {game!r}")
    return dict(policies)


def load_policy(game: str, name: str, seed: int | None = None) -> Policy:
    """Return a new reference bot ``name`` of ``game``, seeded with ``seed``."""
    policies = reference_policies(game)
    try:
        cls = policies[name]
    except KeyError:
        raise UnknownPolicyError(
            f"no reference bot {name!r} for {game}; choose from {', '.join(sorted(policies))}"
        ) from None
    return cls(seed=seed)
