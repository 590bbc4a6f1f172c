"""How sure a head-to-head record is: TrueSkill win probability and the Wilson score interval."""

from __future__ import annotations

import math

#: z for a two-sided 95 % interval.
Z_95 = 1.959963984540054


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


def wilson_interval(successes: float, trials: int, z: float = Z_95) -> tuple[float, float]:
    """Return the Wilson score interval of a proportion (95 % by default); (0, 1) for no trials.

    ``successes`` may be fractional: a drawn series counts as half a win.
    Wilson rather than the normal approximation because records here are
    short, and the plain interval collapses to a point at 0/n and n/n.
    """
    if trials <= 0:
        return 0.0, 1.0
    share = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (share + z2 / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(share * (1 - share) / trials + z2 / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)
