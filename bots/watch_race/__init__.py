"""Reference bots for the Watch race, written against :mod:`bots.policy`.

``random`` plays any legal action; ``heuristic`` tracks where the cards may
be, estimates when the timer may ring, and steers the pawns toward its own
cards with a token budget. See docs/bots.md for how they compare.
"""

from __future__ import annotations

from bots.watch_race.heuristic import HeuristicPolicy
from bots.watch_race.random_bot import RandomPolicy

POLICIES = {"random": RandomPolicy, "heuristic": HeuristicPolicy}

__all__ = ["POLICIES", "HeuristicPolicy", "RandomPolicy"]
