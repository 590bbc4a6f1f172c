"""A season rates with its game's declared constants, the same ones a local round robin rates with."""

from __future__ import annotations

import pytest

import engines
from arena.results.recording import season_parameters
from arena.seasons.models import Season
from engines.declaration import BETA, MU, SIGMA, TAU
from workers.cli import trueskill_environment


@pytest.mark.parametrize("game", engines.names())
def test_a_season_and_a_local_round_robin_rate_alike(game: str) -> None:
    season = season_parameters(Season(game=game))
    local = trueskill_environment(game)
    declared = engines.declaration(game).rating

    assert (season.mu, season.sigma) == (local.mu, local.sigma) == (MU, SIGMA)
    assert (season.beta, season.tau, season.draw_probability) == (
        declared.beta,
        declared.tau,
        declared.draw_probability,
    )
    assert (local.beta, local.tau, local.draw_probability) == (
        declared.beta,
        declared.tau,
        declared.draw_probability,
    )


def test_a_season_of_a_game_no_longer_registered_rates_on_the_default_scale() -> None:
    parameters = season_parameters(Season(game="a_game_this_arena_dropped"))

    assert (parameters.mu, parameters.sigma, parameters.beta, parameters.tau) == (MU, SIGMA, BETA, TAU)
    assert parameters.draw_probability == 0.10
