"""The ``random`` reference bot for the factory race: a uniformly random legal action.

A uniform choice knows nothing of the game, so it is Watch's own policy
(:mod:`bots.watch.random_bot`). In the factory race it wastes blueprints on
pointless turns and moves, places workers anywhere and often stops early: the
floor the heuristic bot is measured against.
"""

from __future__ import annotations

from bots.watch.random_bot import RandomPolicy

__all__ = ["RandomPolicy"]
