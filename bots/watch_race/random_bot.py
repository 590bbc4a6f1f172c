"""The ``random`` reference bot for the Watch race: a uniformly random legal action.

A uniformly random choice knows nothing of the game, so it is Watch's own
policy (:mod:`bots.watch.random_bot`). In the race it spends on average half
its tokens a move, so it usually runs dry long before the timer rings: the
floor the heuristic bot is measured against.
"""

from __future__ import annotations

from bots.watch.random_bot import RandomPolicy

__all__ = ["RandomPolicy"]
