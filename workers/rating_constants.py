"""TrueSkill's constants, the same for a season on the platform and a local round robin.

Both rate in an environment of their own (never the package's global setup).
The scale is the package's usual one and the same for every game: μ 25, σ μ/3,
β σ/2 (engines/declaration.py). Each game declares its own β, τ and draw
probability (the chance that a series between equals ends level) in its
declaration; this module only reads them.

This module lives with the workers because the platform may import them and the
workers may not import the platform (docs/architecture.md).
"""

from __future__ import annotations

import engines
from engines.declaration import BETA, MU, SIGMA, TAU, RatingConstants

__all__ = ["BETA", "MU", "SIGMA", "TAU", "for_game"]

#: For a game no longer registered (a season of a game this installation dropped).
FALLBACK = RatingConstants(draw_probability=0.10)


def for_game(game: str) -> RatingConstants:
    """Return the rating constants ``game`` declares."""
    try:
        return engines.declaration(game).rating
    except engines.UnknownGameError:
        return FALLBACK
