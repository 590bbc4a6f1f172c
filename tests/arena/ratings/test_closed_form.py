"""The closed-form two-player TrueSkill agrees with the trueskill package's ``rate_1vs1`` within 1e-9."""

from __future__ import annotations

import math
import random

import pytest
import trueskill

from arena.ratings.closed_form import TrueSkillParameters, draw_margin, rate_1vs1, recompute

TOLERANCE = 1e-9
DEFAULT = TrueSkillParameters()

Ratings = tuple[float, float, float, float]


def package_rate_1vs1(
    winner: tuple[float, float], loser: tuple[float, float], drawn: bool, params: TrueSkillParameters
) -> Ratings:
    new_winner, new_loser = trueskill.rate_1vs1(
        trueskill.Rating(*winner), trueskill.Rating(*loser), drawn=drawn, env=params.to_env()
    )
    return new_winner.mu, new_winner.sigma, new_loser.mu, new_loser.sigma


def closed_form_rate_1vs1(
    winner: tuple[float, float], loser: tuple[float, float], drawn: bool, params: TrueSkillParameters
) -> Ratings:
    (winner_mu, winner_sigma), (loser_mu, loser_sigma) = rate_1vs1(winner, loser, drawn, params)
    return winner_mu, winner_sigma, loser_mu, loser_sigma


def largest_gap(expected: Ratings, actual: Ratings) -> float:
    return max(abs(e - a) for e, a in zip(expected, actual, strict=True))


def spread(params: TrueSkillParameters, sigma_a: float, sigma_b: float) -> float:
    """Return c, the spread of the performance difference, that the update divides by."""
    return math.sqrt(2 * params.beta**2 + sigma_a**2 + sigma_b**2 + 2 * params.tau**2)


@pytest.mark.parametrize(
    "params",
    [
        pytest.param(DEFAULT, id="package-defaults"),
        pytest.param(TrueSkillParameters(mu=1500, sigma=500, beta=250, tau=5, draw_probability=0.3), id="elo-scale"),
        pytest.param(TrueSkillParameters(tau=0.0, draw_probability=0.02), id="no-dynamics"),
    ],
)
def test_it_matches_the_package_on_random_ratings(params: TrueSkillParameters) -> None:
    rng = random.Random(20240601)
    scale = params.sigma
    worst = 0.0
    for _ in range(600):
        winner = (params.mu + rng.uniform(-4, 4) * scale, rng.uniform(0.01, 1.2) * scale)
        loser = (params.mu + rng.uniform(-4, 4) * scale, rng.uniform(0.01, 1.2) * scale)
        drawn = rng.random() < 0.4
        expected = package_rate_1vs1(winner, loser, drawn, params)
        worst = max(worst, largest_gap(expected, closed_form_rate_1vs1(winner, loser, drawn, params)))
    assert worst < TOLERANCE * scale / DEFAULT.sigma


def test_it_matches_the_package_over_a_season_of_updates() -> None:
    # Outcomes follow hidden skills, so ratings spread out and sigmas shrink as in a real season.
    params = TrueSkillParameters(draw_probability=0.15)
    env = params.to_env()
    rng = random.Random(7)
    skills = [rng.gauss(25, 8) for _ in range(60)]
    results = []
    for _ in range(4000):
        a, b = rng.sample(range(60), 2)
        performance = rng.gauss(skills[a] - skills[b], 2 * params.beta)
        outcome = 0 if abs(performance) < 1.5 else (1 if performance > 0 else -1)
        results.append((f"v{a}", f"v{b}", outcome))

    package_ratings: dict[str, trueskill.Rating] = {}
    for key_a, key_b, outcome in results:
        rating_a = package_ratings.get(key_a, env.create_rating())
        rating_b = package_ratings.get(key_b, env.create_rating())
        if outcome == -1:
            package_ratings[key_b], package_ratings[key_a] = trueskill.rate_1vs1(rating_b, rating_a, env=env)
        else:
            package_ratings[key_a], package_ratings[key_b] = trueskill.rate_1vs1(
                rating_a, rating_b, drawn=outcome == 0, env=env
            )

    ratings = recompute(results, params)

    assert ratings.keys() == package_ratings.keys()
    for key, (mu, sigma) in ratings.items():
        assert mu == pytest.approx(package_ratings[key].mu, abs=TOLERANCE)
        assert sigma == pytest.approx(package_ratings[key].sigma, abs=TOLERANCE)
    assert max(sigma for _, sigma in ratings.values()) < 2  # the season really did converge


C = spread(DEFAULT, DEFAULT.sigma, DEFAULT.sigma)


@pytest.mark.parametrize(
    ("params", "winner", "loser", "drawn"),
    [
        pytest.param(DEFAULT, (25 + 30 * C, 8.3), (25, 8.3), False, id="favourite-30c-ahead-wins"),
        pytest.param(DEFAULT, (25 - 25 * C, 8.3), (25, 8.3), False, id="underdog-25c-behind-wins"),
        pytest.param(DEFAULT, (25 - 10 * C, 8.3), (25, 8.3), True, id="draw-10c-apart"),
        pytest.param(DEFAULT, (25, 1e-6), (30, 50), False, id="tiny-sigma-beats-wide-sigma"),
        pytest.param(DEFAULT, (30, 50), (25, 1e-6), False, id="wide-sigma-beats-tiny-sigma"),
        pytest.param(DEFAULT, (25, 1e-6), (30, 50), True, id="tiny-sigma-draws-wide-sigma"),
        pytest.param(DEFAULT, (1e6, 8.3), (1e6 - 50, 0.5), False, id="far-from-zero"),
        pytest.param(TrueSkillParameters(tau=0.0), (25, 1e-4), (25.001, 1e-4), False, id="settled-no-dynamics"),
        pytest.param(TrueSkillParameters(tau=0.0), (25, 1e-4), (25.001, 1e-4), True, id="settled-draw"),
        pytest.param(TrueSkillParameters(draw_probability=0.0), (20, 3), (30, 5), False, id="no-draws-upset"),
        pytest.param(TrueSkillParameters(draw_probability=0.0), (25, 8.3), (25, 8.3), True, id="no-draws-equal-draw"),
        pytest.param(TrueSkillParameters(draw_probability=0.001), (30, 3), (25, 5), True, id="rare-draws-draw"),
        pytest.param(TrueSkillParameters(draw_probability=0.9), (10, 2), (40, 2), False, id="mostly-draws-upset"),
        pytest.param(TrueSkillParameters(draw_probability=0.9), (40, 2), (10, 2), True, id="mostly-draws-draw"),
        pytest.param(TrueSkillParameters(beta=0.1), (25, 0.5), (27, 0.5), False, id="tiny-beta"),
        pytest.param(TrueSkillParameters(tau=5.0), (25, 0.1), (20, 0.1), True, id="large-tau"),
    ],
)
def test_it_matches_the_package_on_extreme_ratings(
    params: TrueSkillParameters, winner: tuple[float, float], loser: tuple[float, float], drawn: bool
) -> None:
    expected = package_rate_1vs1(winner, loser, drawn, params)

    assert largest_gap(expected, closed_form_rate_1vs1(winner, loser, drawn, params)) < TOLERANCE


@pytest.mark.parametrize(
    ("winner", "loser", "drawn"),
    [
        pytest.param((25 + 45 * C, 8.3), (25, 8.3), False, id="favourite-45c-ahead-wins"),
        pytest.param((25 - 45 * C, 8.3), (25, 8.3), False, id="underdog-45c-behind-wins"),
        pytest.param((25 - 45 * C, 8.3), (25, 8.3), True, id="draw-45c-apart"),
    ],
)
def test_it_raises_where_the_package_raises(
    winner: tuple[float, float], loser: tuple[float, float], drawn: bool
) -> None:
    with pytest.raises(FloatingPointError):
        package_rate_1vs1(winner, loser, drawn, DEFAULT)
    with pytest.raises(FloatingPointError, match="result 0"):
        rate_1vs1(winner, loser, drawn, DEFAULT)


def test_it_names_the_result_it_cannot_rate() -> None:
    results = [("a", "b", 1), ("far ahead", "a", 1)]

    with pytest.raises(FloatingPointError, match=r"result 1 \('far ahead' against 'a'\)"):
        recompute(results, DEFAULT, initial={"far ahead": (25 + 45 * C, 8.3)})


def test_it_reads_minus_one_as_a_win_for_b() -> None:
    ratings = recompute([("a", "b", -1)], DEFAULT, initial={"a": (30, 4), "b": (20, 6)})

    assert rate_1vs1((20, 6), (30, 4), False, DEFAULT) == (ratings["b"], ratings["a"])


def test_it_starts_new_versions_at_the_season_prior_and_keeps_the_others() -> None:
    params = TrueSkillParameters(mu=1000, sigma=300, beta=150, tau=3, draw_probability=0.2)
    initial = {"seeded": (1200.0, 300.0), "idle": (900.0, 50.0)}

    ratings = recompute([("seeded", "new", 1)], params, initial=initial)

    assert (ratings["seeded"], ratings["new"]) == rate_1vs1((1200.0, 300.0), (1000, 300), False, params)
    assert ratings["idle"] == (900.0, 50.0)
    assert initial == {"seeded": (1200.0, 300.0), "idle": (900.0, 50.0)}


def test_it_returns_no_ratings_for_no_results() -> None:
    assert recompute([], DEFAULT) == {}


def test_it_consumes_a_generator_once() -> None:
    results = ((f"v{i}", f"v{i + 1}", 1) for i in range(3))

    assert sorted(recompute(results, DEFAULT)) == ["v0", "v1", "v2", "v3"]


@pytest.mark.parametrize("outcome", [2, -2, 0.5, None, "1"])
def test_it_rejects_an_outcome_other_than_win_draw_or_loss(outcome: object) -> None:
    with pytest.raises(ValueError, match="result 1: outcome must be 1, 0 or -1"):
        recompute([("a", "b", 1), ("a", "b", outcome)], DEFAULT)  # type: ignore[list-item]


def test_it_rejects_a_version_playing_itself() -> None:
    with pytest.raises(ValueError, match="cannot play itself"):
        recompute([("a", "a", 1)], DEFAULT)


@pytest.mark.parametrize("sigma", [0.0, -1.0, math.nan])
def test_it_rejects_an_initial_sigma_that_is_not_positive(sigma: float) -> None:
    with pytest.raises(ValueError, match="sigma of 'a' must be positive"):
        recompute([("a", "b", 1)], DEFAULT, initial={"a": (25.0, sigma)})


def test_it_round_trips_the_parameters_through_a_package_environment() -> None:
    params = TrueSkillParameters(mu=1500, sigma=500, beta=250, tau=5, draw_probability=0.3)

    env = params.to_env()

    assert (env.mu, env.sigma, env.beta, env.tau, env.draw_probability) == (1500, 500, 250, 5, 0.3)
    assert env.backend is None
    assert env.cdf is trueskill.backends.cdf
    assert TrueSkillParameters.from_env(env) == params
    assert TrueSkillParameters.from_env(trueskill.TrueSkill()) == TrueSkillParameters()


def test_it_takes_the_draw_margin_from_the_package() -> None:
    params = TrueSkillParameters(beta=3.0, draw_probability=0.25)

    assert draw_margin(params) == trueskill.calc_draw_margin(0.25, 2, env=params.to_env())


def test_it_refuses_an_environment_without_a_closed_form() -> None:
    dynamic_draws = trueskill.TrueSkill(draw_probability=lambda *_: 0.1)
    exact_cdf = trueskill.TrueSkill(
        backend=(lambda x: 0.5 * math.erfc(-x / math.sqrt(2)), trueskill.backends.pdf, trueskill.backends.ppf)
    )

    with pytest.raises(ValueError, match="dynamic draw probability"):
        TrueSkillParameters.from_env(dynamic_draws)
    with pytest.raises(ValueError, match="built-in backend"):
        TrueSkillParameters.from_env(exact_cdf)


@pytest.mark.parametrize(
    ("field", "value"),
    [("sigma", 0.0), ("beta", -1.0), ("tau", -0.1), ("draw_probability", 1.0), ("draw_probability", -0.1)],
)
def test_it_rejects_parameters_without_meaning(field: str, value: float) -> None:
    with pytest.raises(ValueError, match=field):
        TrueSkillParameters(**{field: value})
