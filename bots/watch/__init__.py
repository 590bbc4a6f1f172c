"""Reference bots for Watch, written against :mod:`bots.policy`.

``random`` plays any legal action, ``greedy`` looks one move ahead for game
wins, ``solver`` searches exactly and plays to the series objective (short
games as White, long ones as Black). See docs/bots.md for how they compare.
"""

from __future__ import annotations

from bots.watch.greedy import GreedyPolicy
from bots.watch.random_bot import RandomPolicy
from bots.watch.solver import SolverPolicy

POLICIES = {"random": RandomPolicy, "greedy": GreedyPolicy, "solver": SolverPolicy}

__all__ = ["POLICIES", "GreedyPolicy", "RandomPolicy", "SolverPolicy"]
