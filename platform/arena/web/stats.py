"""How sure a head-to-head record is: TrueSkill win probability and the Wilson score interval."""

from __future__ import annotations

import math

from engines.teams import Z_975 as Z_95  # z for a two-sided 95 % interval
from engines.teams import wilson_interval

__all__ = ["Z_95", "normal_cdf", "wilson_interval", "win_probability"]


def normal_cdf(x: float) -> float:
    """Return Φ(x), the standard normal distribution function."""
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def win_probability(mu_a: float, sigma_a: float, mu_b: float, sigma_b: float, beta: float) -> float:
    """Return P(a performs better than b) under TrueSkill: Φ((μa − μb) / √(2β² + σa² + σb²)).

    Draws are not split out: this is the chance a's performance beats b's,
    the number a reader can compare with the record's score share.
    """
    spread = math.sqrt(2 * beta * beta + sigma_a * sigma_a + sigma_b * sigma_b)
    return normal_cdf((mu_a - mu_b) / spread)
