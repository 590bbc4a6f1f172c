"""engines/win_points.py: what a game some players won is worth to each player, and who leads a series."""

from __future__ import annotations

import pytest

from engines.win_points import game_returns, series_standing, won_outcome


@pytest.mark.parametrize(
    ("winners", "players", "returns"),
    [
        ((0,), 2, (1.0, -1.0)),
        ((2,), 3, (-0.5, -0.5, 1.0)),
        ((0, 1), 4, (1.0, 1.0, -1.0, -1.0)),
        ((1, 2, 3), 4, (-3.0, 1.0, 1.0, 1.0)),
        ((), 3, (0.0, 0.0, 0.0)),
        ((0, 1, 2), 3, (0.0, 0.0, 0.0)),
    ],
)
def test_a_winner_gets_one_and_the_losers_share_the_loss(
    winners: tuple[int, ...], players: int, returns: tuple[float, ...]
) -> None:
    assert game_returns(winners, players) == returns
    assert sum(game_returns(winners, players)) == 0


def test_a_won_outcome_carries_the_winners_reason_returns_and_stats() -> None:
    outcome = won_outcome((1,), "assembled", 3, stats=({"moves": 4}, {"moves": 5}, {"moves": 6}))
    assert outcome.to_json() == {
        "winners": [1],
        "reason": "assembled",
        "returns": [-0.5, 1.0, -0.5],
        "stats": [{"moves": 4}, {"moves": 5}, {"moves": 6}],
    }


def test_the_one_player_with_the_most_points_wins_the_series() -> None:
    assert series_standing([2, 5, 2], lambda best: f"{best} points") == (
        [1, 0, 1],
        1,
        "player 1 wins the series with 5 points",
    )


def test_players_level_at_the_top_share_it_and_nobody_wins() -> None:
    assert series_standing([1.5, 0.0, 1.5, 1.5], lambda best: f"{best} rank points") == (
        [0, 3, 0, 0],
        None,
        "players 0, 2 and 3 share the top with 1.5 rank points: no series winner",
    )
