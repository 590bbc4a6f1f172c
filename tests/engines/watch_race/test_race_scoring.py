"""The Watch race series scoring: one point per game won (option 1), forfeits, ranking."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engines.result import GameRecord
from engines.watch_race import SeriesError, score_series
from tests.engines.records import record


def game(
    winners: list[int], seats: list[int] | None = None, reason: str = "timer", forfeit: int | None = None
) -> GameRecord:
    return record(
        seats if seats is not None else [0, 1, 2],
        winners,
        "illegal_action" if forfeit is not None else reason,
        forfeit=forfeit,
    )


CASES = [
    # name, games, points, ranking, winner
    ("one game each", [game([0]), game([1]), game([2])], [1, 1, 1], [0, 0, 0], None),
    ("a clear winner", [game([2]), game([2]), game([0])], [1, 0, 2], [1, 2, 0], 2),
    ("a draw gives nobody a point", [game([1]), game([], reason="draw_cap"), game([1])], [0, 2, 0], [1, 0, 1], 1),
    ("two share the top", [game([0]), game([1]), game([], reason="draw_cap")], [1, 1, 0], [0, 0, 2], None),
    (
        "a forfeit keeps earlier points but stops later ones",
        [game([1]), game([2], forfeit=1), game([1])],
        [0, 1, 1],
        [2, 0, 0],
        None,
    ),
    (
        "a forfeiter who wins the game it forfeits scores nothing",
        [game([0], forfeit=0), game([1]), game([2])],
        [0, 1, 1],
        [2, 0, 0],
        None,
    ),
    ("two players", [game([0], seats=[0, 1]), game([0], seats=[1, 0])], [2, 0], [0, 1], 0),
]


@pytest.mark.parametrize(
    ("games", "points", "ranking", "winner"), [case[1:] for case in CASES], ids=[case[0] for case in CASES]
)
def test_it_scores_the_series(
    games: list[dict[str, Any]], points: list[int], ranking: list[int], winner: int | None
) -> None:
    score = score_series(games)
    assert score["points"] == points
    assert score["ranking"] == ranking
    assert score["winner"] == winner


def test_it_keeps_game_wins_beside_the_points() -> None:
    score = score_series([game([1], forfeit=1), game([1]), game([0])])
    assert score["game_wins"] == [1, 2, 0]
    assert score["points"] == [1, 0, 0]


def test_it_explains_each_point() -> None:
    score = score_series([game([2]), game([], reason="draw_cap"), game([0], forfeit=1), game([0])])
    assert score["steps"] == [
        "game 1: player 2 won (timer): 1 point",
        "game 2: nobody won (draw_cap): no point",
        "game 3: player 1 forfeited (illegal_action): no points for this game or the rest of the series",
        "game 3: player 0 won (illegal_action): 1 point",
        "game 4: player 0 won (timer): 1 point",
        "player 0 wins the series with 2 points",
    ]


def test_it_says_when_the_top_is_shared() -> None:
    assert score_series([game([0]), game([2]), game([1])])["steps"][-1] == (
        "players 0, 1 and 2 share the top with 1 point: no series winner"
    )


def test_it_writes_the_score_as_json() -> None:
    score = score_series([game([0]), game([1]), game([0])])
    assert json.loads(json.dumps(score)) == score


@pytest.mark.parametrize(
    ("games", "message"),
    [
        ([], "a series needs at least one game"),
        ([game([0], seats=[0, 0, 1])], "seats must list each series player once"),
        ([game([0]), game([0], seats=[0, 1])], "every game of a series has the same players"),
        ([game([3])], "game 1: winner must be a series player 0 to 2, not 3"),
        ([game([0], forfeit=5)], "game 1: forfeit player must be a series player 0 to 2, not 5"),
    ],
)
def test_it_refuses_records_that_are_not_a_series(games: list[GameRecord], message: str) -> None:
    with pytest.raises(SeriesError, match=message):
        score_series(games)
