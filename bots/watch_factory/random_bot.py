"""The ``random`` reference bot for the Watch factory: a uniformly random legal action.

A uniform choice knows nothing of the game, so it is Watch's own policy
(:mod:`bots.watch.random_bot`). In the Watch factory it sells a random number
of gears, keeps random documents, puts its tokens on random tracks and walks
onto risky spots as often as safe ones: the floor the heuristic bot is
measured against.
"""

from __future__ import annotations

from bots.watch.random_bot import RandomPolicy

__all__ = ["RandomPolicy"]
