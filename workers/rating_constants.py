"""TrueSkill's constants, the same for a season on the platform and a local round robin.

Both rate in an environment of their own (never the package's global setup).
The scale is the package's usual one: μ 25, σ μ/3, β σ/2. Bot versions are
immutable, so skill does not drift: τ, the noise added before each update that
keeps σ from collapsing, stays at a small σ/100.

The draw probability is per game: the chance that a series between equals ends
level. Watch: a series is drawn when both bots end on equal points; between
equally strong reference bots that happened in 3-6 % of series (random and
greedy, 2- and 4-game series, 300 seeds each) and 17 % for solver against
solver (4 games, 40 seeds): 10 % sits in that range. Watch race: a series of n
games among n players, one point a game, often shares the top (a draw between
the players who share it): 20 %.

This module lives with the workers because the platform may import them and the
workers may not import the platform (docs/architecture.md).
"""

from __future__ import annotations

MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2
TAU = SIGMA / 100
#: Per game; any other game gets DEFAULT_DRAW_PROBABILITY.
DRAW_PROBABILITY = {"watch": 0.10, "watch_race": 0.20}
DEFAULT_DRAW_PROBABILITY = 0.10


def draw_probability(game: str) -> float:
    """Return the TrueSkill draw probability of a series of ``game``."""
    return DRAW_PROBABILITY.get(game, DEFAULT_DRAW_PROBABILITY)
