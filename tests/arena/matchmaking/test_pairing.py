"""Pairing a ladder season's versions: seeds, opponents, concurrency, fairness, and disabling forfeiters."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
import trueskill

from arena.matchmaking.pairing import Candidate, MatchmakingPolicy, match_quality, plan_round
from arena.results.forfeits import should_disable

POLICY = MatchmakingPolicy()


def candidate(
    version_id: int,
    bot_id: int | None = None,
    mu: float = 25.0,
    sigma: float = 2.0,
    series_played: int = 10,
    running: int = 0,
) -> Candidate:
    return Candidate(version_id, version_id if bot_id is None else bot_id, mu, sigma, series_played, running)


def season(versions: int, bots: int, rng: random.Random, series_played: range = range(20, 60)) -> list[Candidate]:
    """Versions of ``bots`` bots, each bot's versions close in μ as successive uploads are."""
    bot_mus = [rng.gauss(25.0, 6.0) for _ in range(bots)]
    return [
        Candidate(
            version_id=version_id,
            bot_id=version_id % bots,
            mu=bot_mus[version_id % bots] + rng.gauss(0.0, 1.0),
            sigma=rng.uniform(1.0, 8.0),
            series_played=rng.choice(series_played),
            running=rng.choice((0, 0, 1)),
        )
        for version_id in range(1, versions + 1)
    ]


def series_per_version(candidates: list[Candidate], groups: list[tuple[int, ...]]) -> Counter[int]:
    """Series each version is in once the groups start: those running plus those planned."""
    counts = Counter({c.version_id: c.running for c in candidates})
    counts.update(version for group in groups for version in group)
    return counts


# --- seeds ---------------------------------------------------------------------------------------


def test_it_seeds_versions_without_series_first() -> None:
    rng = random.Random(1)
    established = season(200, 60, rng, series_played=range(40, 400))
    new_uploads = [
        candidate(1000 + k, bot_id=k, mu=rng.uniform(10, 40), sigma=25 / 3, series_played=0) for k in range(3)
    ]
    groups = plan_round(established + new_uploads, 3, POLICY, random.Random(2))
    assert {group[0] for group in groups} == {1000, 1001, 1002}


def test_it_places_a_new_upload_in_the_next_round_when_one_worker_is_free() -> None:
    rng = random.Random(3)
    candidates = [*season(2000, 400, rng, series_played=range(1, 1000)), candidate(9999, series_played=0)]
    groups = plan_round(candidates, 1, POLICY, random.Random(4))
    assert len(groups) == 1
    assert groups[0][0] == 9999


def test_it_seeds_the_version_with_fewest_series_counting_those_running() -> None:
    # 4 finished and 3 running is busier than 5 finished and none running.
    candidates = [
        candidate(1, series_played=4, running=3),
        candidate(2, series_played=5, running=0),
        *(candidate(v, series_played=50) for v in range(3, 10)),
    ]
    policy = MatchmakingPolicy(max_concurrent_per_version=5)
    assert plan_round(candidates, 1, policy, random.Random(5))[0][0] == 2


# --- opponents -----------------------------------------------------------------------------------


def test_it_picks_each_opponent_among_the_nearest_by_mu() -> None:
    rng = random.Random(6)
    candidates = [candidate(v, mu=rng.uniform(0, 50), sigma=rng.uniform(1, 8)) for v in range(1, 301)]
    by_id = {c.version_id: c for c in candidates}
    policy = MatchmakingPolicy(nearest=5, max_concurrent_per_version=10)
    groups = plan_round(candidates, 60, policy, random.Random(7))
    assert len(groups) == 60
    for seed_id, opponent_id in groups:
        seed_mu = by_id[seed_id].mu
        nearest = sorted((c for c in candidates if c.version_id != seed_id), key=lambda c: abs(c.mu - seed_mu))[:5]
        assert opponent_id in {c.version_id for c in nearest}


def test_it_takes_the_best_match_quality_at_temperature_zero() -> None:
    seed = candidate(1, mu=25.0, sigma=3.0, series_played=0)
    others = [
        candidate(2, mu=27.0, sigma=1.0),
        candidate(3, mu=25.5, sigma=8.0),  # nearer in μ, but so uncertain that the game says less
        candidate(4, mu=20.0, sigma=1.0),
    ]
    qualities = {c.version_id: match_quality(seed.mu, seed.sigma, c.mu, c.sigma) for c in others}
    best = max(qualities, key=qualities.__getitem__)
    policy = MatchmakingPolicy(temperature=0)
    for rng_seed in range(20):
        assert plan_round([seed, *others], 1, policy, random.Random(rng_seed)) == [(1, best)]


def test_it_draws_opponents_in_proportion_to_quality_to_the_power_one_over_temperature() -> None:
    seed = candidate(1, mu=25.0, sigma=2.0, series_played=0)
    near, far = candidate(2, mu=26.0, sigma=2.0), candidate(3, mu=29.0, sigma=2.0)
    policy = MatchmakingPolicy(temperature=0.5)
    rng = random.Random(8)
    draws = Counter(plan_round([seed, near, far], 1, policy, rng)[0][1] for _ in range(4000))
    near_weight = match_quality(25.0, 2.0, 26.0, 2.0) ** 2
    far_weight = match_quality(25.0, 2.0, 29.0, 2.0) ** 2
    assert draws[2] / 4000 == pytest.approx(near_weight / (near_weight + far_weight), abs=0.03)


def test_it_halves_an_opponents_chances_for_every_load_halving_series_it_has_more() -> None:
    seed = candidate(1, series_played=0)
    rested, busy = candidate(2, series_played=10), candidate(3, series_played=13)
    policy = MatchmakingPolicy(load_halving=3.0)
    rng = random.Random(9)
    draws = Counter(plan_round([seed, rested, busy], 1, policy, rng)[0][1] for _ in range(3000))
    assert draws[2] / 3000 == pytest.approx(2 / 3, abs=0.03)


def test_it_never_pairs_two_versions_of_one_bot() -> None:
    rng = random.Random(10)
    candidates = season(300, 30, rng)  # ten versions a bot, close in μ
    bot_of = {c.version_id: c.bot_id for c in candidates}
    for group_size in (2, 3, 4):
        groups = plan_round(candidates, 200, MatchmakingPolicy(group_size=group_size), random.Random(11))
        assert groups
        for group in groups:
            assert len(group) == group_size
            assert len({bot_of[version] for version in group}) == group_size


def test_it_never_pairs_a_version_with_itself() -> None:
    candidates = [candidate(1, series_played=0), candidate(2, bot_id=1), candidate(3)]
    policy = MatchmakingPolicy(max_concurrent_per_version=10)
    groups = plan_round(candidates, 20, policy, random.Random(12))
    assert groups
    for group in groups:
        assert len(set(group)) == len(group)
        assert 3 in group  # the only version of another bot than 1 and 2's


def test_it_never_exceeds_the_concurrency_cap_across_a_round() -> None:
    rng = random.Random(13)
    candidates = season(120, 40, rng)
    for cap in (1, 2, 3):
        policy = MatchmakingPolicy(max_concurrent_per_version=cap)
        groups = plan_round(candidates, 1000, policy, random.Random(14))
        counts = series_per_version(candidates, groups)
        assert max(counts.values()) <= cap
        # Not a worker left idle while two versions of different bots could still play.
        free = [c for c in candidates if counts[c.version_id] < cap]
        assert len({c.bot_id for c in free}) < 2


def test_it_never_plans_a_version_already_at_its_cap() -> None:
    candidates = [
        candidate(1, series_played=0, running=2),
        candidate(2, series_played=0, running=2),
        *(candidate(v) for v in range(3, 8)),
    ]
    groups = plan_round(candidates, 10, POLICY, random.Random(15))
    assert groups
    assert not {1, 2} & {version for group in groups for version in group}


def test_groups_of_three_are_drawn_near_the_seed_in_mu() -> None:
    rng = random.Random(16)
    candidates = [candidate(v, mu=rng.uniform(0, 100)) for v in range(1, 201)]
    mu_of = {c.version_id: c.mu for c in candidates}
    policy = MatchmakingPolicy(group_size=3, nearest=6, max_concurrent_per_version=10)
    groups = plan_round(candidates, 30, policy, random.Random(17))
    assert len(groups) == 30
    for seed, *opponents in groups:
        nearest = sorted((v for v in mu_of if v != seed), key=lambda v: abs(mu_of[v] - mu_of[seed]))[:6]
        assert set(opponents) <= set(nearest)


# --- determinism ---------------------------------------------------------------------------------


def test_it_gives_the_same_groups_for_the_same_rng_seed_whatever_the_candidates_order() -> None:
    candidates = season(500, 100, random.Random(18))
    shuffled = candidates[:]
    random.Random(19).shuffle(shuffled)
    first = plan_round(candidates, 150, POLICY, random.Random(20))
    assert plan_round(shuffled, 150, POLICY, random.Random(20)) == first
    assert plan_round(candidates, 150, POLICY, random.Random(21)) != first


# --- fairness ------------------------------------------------------------------------------------


def test_it_keeps_every_version_playing_within_a_small_spread_of_series_over_many_rounds() -> None:
    """300 versions of 100 bots share 40 workers; series last 1 to 3 rounds; one version is far from all."""
    rng = random.Random(22)
    versions = {
        v: {"bot": v % 100, "mu": rng.gauss(25, 6), "sigma": rng.uniform(1, 8), "played": 0, "running": 0}
        for v in range(1, 301)
    }
    versions[300]["mu"] = 90.0  # an outlier must not starve
    workers = 40
    in_flight: list[tuple[int, tuple[int, ...]]] = []
    widest = 0
    for round_number in range(300):
        for _, group in [series for series in in_flight if series[0] == round_number]:
            for version in group:
                versions[version]["played"] += 1
                versions[version]["running"] -= 1
        in_flight = [series for series in in_flight if series[0] > round_number]
        free = workers - len(in_flight)
        candidates = [
            Candidate(v, d["bot"], d["mu"], d["sigma"], d["played"], d["running"]) for v, d in versions.items()
        ]
        groups = plan_round(candidates, free, POLICY, rng)
        assert len(groups) == free  # every worker busy
        for group in groups:
            for version in group:
                versions[version]["running"] += 1
            in_flight.append((round_number + rng.randint(1, 3), group))
        loads = [d["played"] + d["running"] for d in versions.values()]
        if round_number >= 20:
            widest = max(widest, max(loads) - min(loads))
    played = [d["played"] for d in versions.values()]
    # Measured: 38 to 45 played and a widest spread of 7; without the load term, 37 to 79 played.
    assert min(played) >= 35
    assert max(played) - min(played) <= 10
    assert widest <= 10


# --- match quality -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("beta", "draw_probability", "tau"), [(25 / 6, 0.10, 25 / 300), (2.0, 0.0, 0.0), (10.0, 0.4, 1.0)]
)
def test_match_quality_equals_trueskills_quality_1vs1(beta: float, draw_probability: float, tau: float) -> None:
    env = trueskill.TrueSkill(mu=25.0, sigma=25 / 3, beta=beta, tau=tau, draw_probability=draw_probability)
    rng = random.Random(23)
    for _ in range(300):
        a = env.create_rating(mu=rng.uniform(-10, 60), sigma=rng.uniform(0.1, 12))
        b = env.create_rating(mu=rng.uniform(-10, 60), sigma=rng.uniform(0.1, 12))
        expected = trueskill.quality_1vs1(a, b, env=env)
        assert abs(match_quality(a.mu, a.sigma, b.mu, b.sigma, beta) - expected) <= 1e-12


def test_match_quality_is_highest_for_equal_certain_ratings() -> None:
    assert match_quality(25, 1, 25, 1) > match_quality(25, 1, 27, 1) > match_quality(25, 1, 35, 1)
    assert match_quality(25, 1, 25, 1) > match_quality(25, 8, 25, 8)


# --- edges ---------------------------------------------------------------------------------------


def test_it_plans_nothing_for_no_candidate_or_one() -> None:
    assert plan_round([], 5, POLICY, random.Random(0)) == []
    assert plan_round([candidate(1)], 5, POLICY, random.Random(0)) == []


def test_it_plans_nothing_when_every_version_is_of_one_bot() -> None:
    candidates = [candidate(v, bot_id=7, mu=20 + v) for v in range(1, 10)]
    assert plan_round(candidates, 5, POLICY, random.Random(0)) == []
    many = [candidate(v, bot_id=7, mu=v / 100) for v in range(1, 5001)]
    assert plan_round(many, 2000, POLICY, random.Random(0)) == []


def test_it_plans_nothing_for_zero_slots() -> None:
    assert plan_round(season(50, 10, random.Random(24)), 0, POLICY, random.Random(0)) == []


def test_it_plans_fewer_groups_when_opponents_run_out() -> None:
    # Bot 1 has two versions and bot 2 one, which can play only one series at a time.
    candidates = [candidate(1, bot_id=1), candidate(2, bot_id=1), candidate(3, bot_id=2)]
    groups = plan_round(candidates, 5, MatchmakingPolicy(max_concurrent_per_version=1), random.Random(25))
    assert len(groups) == 1
    assert 3 in groups[0]


def test_it_plans_no_group_of_three_with_only_two_bots() -> None:
    candidates = [candidate(v, bot_id=v % 2) for v in range(1, 9)]
    assert plan_round(candidates, 5, MatchmakingPolicy(group_size=3), random.Random(26)) == []


def test_it_rejects_negative_slots() -> None:
    with pytest.raises(ValueError, match="slots must be zero or more, got -1"):
        plan_round([candidate(1), candidate(2)], -1, POLICY, random.Random(0))


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"group_size": 1}, "group_size must be at least 2"),
        ({"max_concurrent_per_version": 0}, "max_concurrent_per_version must be at least 1"),
        ({"group_size": 3, "nearest": 1}, "nearest must be at least group_size - 1 = 2"),
        ({"temperature": -0.1}, "temperature must be zero or more"),
        ({"temperature": math.nan}, "temperature must be zero or more"),
        ({"load_halving": 0}, "load_halving must be positive"),
        ({"beta": 0}, "beta must be positive and finite"),
    ],
)
def test_it_rejects_a_policy_that_cannot_work(settings: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MatchmakingPolicy(**settings)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (candidate(1, bot_id=9), "version 1 is a candidate twice"),
        (candidate(5, series_played=-1), "version 5: series_played and running must be zero or more"),
        (candidate(5, running=-2), "version 5: series_played and running must be zero or more"),
        (candidate(5, mu=math.inf), "version 5: mu must be finite and sigma positive and finite"),
        (candidate(5, sigma=0.0), "version 5: mu must be finite and sigma positive and finite"),
        (candidate(5, sigma=math.nan), "version 5: mu must be finite and sigma positive and finite"),
    ],
)
def test_it_rejects_a_bad_candidate_naming_it(bad: Candidate, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        plan_round([candidate(1), candidate(2), bad], 1, POLICY, random.Random(0))


# --- disabling forfeiters ------------------------------------------------------------------------


def test_it_disables_a_version_above_the_forfeit_limit_telling_the_owner_why() -> None:
    assert should_disable(7, 20, threshold=0.25, min_series=10) == (
        "disabled: forfeited 7 of 20 series (35%), above the season's limit of 25%"
    )


def test_it_keeps_a_version_exactly_at_the_limit() -> None:
    assert should_disable(5, 20, threshold=0.25, min_series=10) is None


def test_it_keeps_a_version_below_the_limit() -> None:
    assert should_disable(4, 20, threshold=0.25, min_series=10) is None


def test_it_does_not_judge_a_version_before_its_minimum_series() -> None:
    assert should_disable(9, 9, threshold=0.25, min_series=10) is None
    assert should_disable(10, 10, threshold=0.25, min_series=10) is not None


def test_it_shows_enough_decimals_that_the_rate_differs_from_the_limit() -> None:
    assert should_disable(1, 3, threshold=0.3333, min_series=3) == (
        "disabled: forfeited 1 of 3 series (33.333%), above the season's limit of 33.33%"
    )


def test_it_disables_on_any_forfeit_when_the_limit_is_zero() -> None:
    assert should_disable(1, 50, threshold=0.0, min_series=20) == (
        "disabled: forfeited 1 of 50 series (2%), above the season's limit of 0%"
    )


@pytest.mark.parametrize(
    ("forfeits", "series", "threshold", "min_series", "message"),
    [
        (-1, 10, 0.25, 5, "forfeits and series must be zero or more"),
        (11, 10, 0.25, 5, "forfeits cannot exceed series, got 11 of 10"),
        (1, 10, 1.5, 5, "threshold must be a fraction from 0 to 1, got 1.5"),
        (1, 10, 0.25, 0, "min_series must be at least 1"),
    ],
)
def test_it_rejects_impossible_forfeit_counts(
    forfeits: int, series: int, threshold: float, min_series: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        should_disable(forfeits, series, threshold, min_series)
