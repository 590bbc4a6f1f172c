"""Team games (engines/teams.py): rotating seats, who won a game and a series, the Wilson interval, declarations."""

from __future__ import annotations

import pytest

from engines.teams import DRAW, LOSS, WIN, TeamRules, game_side, seat_order, series_result, wilson_interval
from tests.engines.records import record
from tests.toygame.coop import DECLARATION, BreakInGame, seat_roles

WITH_GM = ("player", "player", "player", "gm")


def test_the_player_seats_rotate_and_the_gm_keeps_its_seat() -> None:
    orders = [seat_order(WITH_GM, index) for index in range(3)]
    assert orders == [[0, 1, 2, 3], [1, 2, 0, 3], [2, 0, 1, 3]]
    # Each player bot sits each player position once.
    for seat in range(3):
        assert sorted(order[seat] for order in orders) == [0, 1, 2]
    assert seat_order(("player", "player"), 1) == [1, 0]  # the built-in GM: every seat rotates


def test_a_game_goes_by_the_players_return_and_a_forfeit_to_the_other_side() -> None:
    seats = [0, 1, 2]
    assert game_side(record(seats, returns=[1, 1, -1]), WITH_GM[1:]) == WIN
    assert game_side(record(seats, returns=[-1, -1, 1]), WITH_GM[1:]) == LOSS
    assert game_side(record(seats, returns=[0, 0, 0]), WITH_GM[1:]) == DRAW
    assert game_side(record(seats, forfeit=2), WITH_GM[1:]) == WIN  # the GM forfeited
    assert game_side(record(seats, forfeit=0), WITH_GM[1:]) == LOSS
    assert game_side(record([0, 1], []), ("player", "player")) == LOSS  # the built-in GM won


def test_the_side_with_more_games_wins_the_series_and_equal_is_a_draw() -> None:
    won, lost = record([0, 1, 2], returns=[1, 1, -1]), record([0, 1, 2], returns=[-1, -1, 1])
    roles = WITH_GM[1:]
    assert series_result([won, won, lost], roles) == WIN
    assert series_result([won, lost], roles) == DRAW
    assert series_result([lost, record([0, 1, 2], returns=[0, 0, 0])], roles) == LOSS


def test_the_wilson_interval_matches_its_formula_and_stays_within_0_and_1() -> None:
    low, high = wilson_interval(7, 10)
    assert (low, high) == (pytest.approx(0.3968, abs=1e-4), pytest.approx(0.8922, abs=1e-4))
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(10, 10)[0] == pytest.approx(0.7225, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_the_toy_follows_the_contract() -> None:
    assert seat_roles(4, {"gm": "seat"}) == WITH_GM
    assert DECLARATION.seat_roles(3, {}) == ("player", "player", "gm")
    assert DECLARATION.seat_roles(3, {"gm": "builtin"}) == ("player",) * 3
    assert DECLARATION.rotating_seats(3, {}) == 2
    state = BreakInGame().new_initial_state(num_players=3)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])  # risky, a hit, the GM's largest raise
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (0, 1)
    assert outcome.returns == (1.0, 1.0, -1.0)
    assert [s["role"] for s in outcome.stats] == ["player", "player", "gm"]
    assert outcome.stats[0]["turns"] == state.round


def test_a_declaration_checks_its_team_rules() -> None:
    with pytest.raises(ValueError, match="the built-in GM's rating needs a finite mu and a positive sigma"):
        TeamRules(seat_roles=seat_roles, builtin_sigma=0)
    with pytest.raises(ValueError, match="a team game's roles are 'player' and 'gm'"):
        TeamRules(seat_roles=seat_roles, roles=("player", "dealer"))
    with pytest.raises(ValueError, match="player seats first, at most one gm seat last"):
        TeamRules(seat_roles=lambda n, config: ("gm",) + ("player",) * (n - 1)).roles_of(3, {})


@pytest.mark.parametrize("games", [1, 2, 3, 7, 10, 23, 100, 997])
def test_the_wilson_interval_always_holds_the_win_rate_itself(games: int) -> None:
    # At 0 or n wins rounding put an end a hair inside the rate: 1.0 <= 0.9999999999999999 on a page.
    for wins in (0, 0.5, games / 3, games - 0.5, games):
        low, high = wilson_interval(wins, games)
        assert 0.0 <= low <= wins / games <= high <= 1.0, (wins, games, low, high)
