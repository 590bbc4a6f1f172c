"""Reference bots for Watching Us, written against :mod:`bots.policy`.

``random`` plays a uniformly random legal action in any seat and either role (a player seat or
the GM seat); it is the floor the other bots are measured against, and the validation bot.
``heuristic`` plays a player seat for the team (the dice odds of every target, the weakest
Adversary, HP and Items, the Location's rolls); ``heuristic_gm`` plays the GM seat against the team
(the returned Monsters' order, the DM's choices at the weakest Character). See
bots/watching_us/heuristic.py and docs/bots.md.
"""

from __future__ import annotations

from bots.watching_us.heuristic import HeuristicGMPolicy, HeuristicPolicy
from bots.watching_us.random_bot import RandomPolicy

POLICIES = {"random": RandomPolicy, "heuristic": HeuristicPolicy, "heuristic_gm": HeuristicGMPolicy}

__all__ = ["POLICIES", "HeuristicGMPolicy", "HeuristicPolicy", "RandomPolicy"]
