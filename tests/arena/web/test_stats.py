"""The numbers behind the head-to-head table: TrueSkill win probability and the Wilson interval."""

from __future__ import annotations

import math

import pytest

from arena.web.stats import normal_cdf, wilson_interval, win_probability


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # Known values (Wilson 1927; Newcombe 1998, Table I: 81/263 gives 0.2553-0.3662).
        (81, 263, 0.2553, 0.3662),
        (5, 10, 0.2366, 0.7634),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 1, 0.2065, 1.0),
        (2.5, 4, 0.2194, 0.9081),  # a drawn series counts half
    ],
)
def test_it_gives_the_wilson_95_percent_interval(successes: float, trials: int, low: float, high: float) -> None:
    got = wilson_interval(successes, trials)
    assert got == pytest.approx((low, high), abs=1e-4)


def test_it_gives_the_whole_range_without_trials() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_its_win_probability_is_trueskills_formula() -> None:
    beta = 25 / 6
    got = win_probability(30.0, 4.0, 25.0, 6.0, beta)
    expected = 0.5 * math.erfc(-(30.0 - 25.0) / math.sqrt(2 * beta**2 + 16 + 36) / math.sqrt(2))
    assert got == pytest.approx(expected, rel=1e-12)
    assert got == pytest.approx(0.7043, abs=1e-4)  # Φ(5 / 9.3125)
    assert win_probability(25, 8, 25, 8, beta) == 0.5
    assert win_probability(20, 3, 30, 3, beta) + win_probability(30, 3, 20, 3, beta) == pytest.approx(1.0)


def test_its_normal_distribution_function_has_the_table_values() -> None:
    assert normal_cdf(0) == 0.5
    assert normal_cdf(1.959963984540054) == pytest.approx(0.975, abs=1e-12)
    assert normal_cdf(-1) == pytest.approx(0.158655, abs=1e-6)
