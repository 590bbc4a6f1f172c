"""The ``random`` reference bot for Watch: a uniformly random legal action.

It is the floor every other bot is measured against, and the simplest example
of the policy interface: a seeded :class:`random.Random` of its own (so two
instances never share state and a seed replays the same choices) and nothing
else.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any


class RandomPolicy:
    """Plays a uniformly random legal action, whatever the phase."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        """Return one of ``legal_actions``, uniformly at random."""
        return self._rng.choice(list(legal_actions))
