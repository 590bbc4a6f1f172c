"""engines/win_points.py's game returns and outcome: what a game some players won is worth to each player."""

from __future__ import annotations

import pytest

from engines.win_points import game_returns, won_outcome


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
