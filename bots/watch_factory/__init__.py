"""Reference bots for the Watch factory, written against :mod:`bots.policy`.

``random`` plays any legal action; ``heuristic`` values every choice in
final-scoring points (crates and their tracks, the gears' and coins' bonus
rates and caps, board stars, document sets, debts, the bribes' risk; in solo
the solo card); ``search`` chooses its placements (and the watch cards and
upgrades) by playing determinized futures out with the heuristic. See
docs/bots.md for how they compare.
"""

from __future__ import annotations

from bots.watch_factory.heuristic import HeuristicPolicy
from bots.watch_factory.random_bot import RandomPolicy
from bots.watch_factory.search import SearchPolicy

POLICIES = {"random": RandomPolicy, "heuristic": HeuristicPolicy, "search": SearchPolicy}

__all__ = ["POLICIES", "HeuristicPolicy", "RandomPolicy", "SearchPolicy"]
