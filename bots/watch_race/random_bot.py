"""The ``random`` reference bot for the Watch race: a uniformly random legal action.

It spends on average half its tokens a move, so it usually runs dry long
before the timer rings: the floor the heuristic bot is measured against.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any


class RandomPolicy:
    """Plays a uniformly random legal action: any move, any swap, or keep."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        """Return one of ``legal_actions``, uniformly at random."""
        return self._rng.choice(list(legal_actions))
