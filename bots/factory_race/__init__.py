"""Reference bots for the factory race, written against :mod:`bots.policy`.

``random`` plays any legal action; ``heuristic`` plans the shortest routes of
cubes to its assembly shop and buys tiles that shorten them; ``search`` picks
each round's worker plan by playing the futures out with the heuristic. See
docs/bots.md for how they compare.
"""

from __future__ import annotations

from bots.factory_race.heuristic import HeuristicPolicy
from bots.factory_race.random_bot import RandomPolicy
from bots.factory_race.search import SearchPolicy

POLICIES = {"random": RandomPolicy, "heuristic": HeuristicPolicy, "search": SearchPolicy}

__all__ = ["POLICIES", "HeuristicPolicy", "RandomPolicy", "SearchPolicy"]
