"""Reference bots for the factory race, written against :mod:`bots.policy`.

``random`` plays any legal action; ``heuristic`` plans the shortest routes of
cubes to its assembly shop and buys tiles that shorten them; ``search`` looks
ahead over sampled futures with the heuristic as its rollout. See docs/bots.md.
"""

from __future__ import annotations

from bots.factory_race.random_bot import RandomPolicy

POLICIES = {"random": RandomPolicy}

__all__ = ["POLICIES", "RandomPolicy"]
