"""A Watch factory series: each game's rank points, ties sharing, a forfeit beaten by everyone."""

from __future__ import annotations

import pytest

import engines
from engines.result import GameRecord
from engines.watch_factory.scoring import SeriesError, score_series
from tests.engines.records import record


def game(seats: list[int], scores: dict[int, int], forfeit: int | None = None) -> GameRecord:
    best = max(scores.values())
    return record(
        seats,
        [p for p, s in scores.items() if s == best],
        "points",
        forfeit=forfeit,
        forfeit_reason="crash",
        stats={str(p): {"score": s} for p, s in scores.items()},
    )


def test_a_game_gives_a_point_for_each_player_beaten_and_half_for_each_level() -> None:
    # The rulebook's final score: Yellow 103, red 139 and blue 169.
    score = score_series(
        [
            game([0, 1, 2], {0: 103, 1: 139, 2: 169}),
            game([1, 2, 0], {0: 150, 1: 150, 2: 90}),
            game([2, 0, 1], {0: 120, 1: 80, 2: 110}),
        ]
    )
    assert score["points"] == [0 + 1.5 + 2, 1 + 1.5 + 0, 2 + 0 + 1]
    assert score["ranking"] == [0, 2, 1]
    assert score["winner"] == 0
    assert score["game_wins"] == [2, 1, 1]
    assert score["steps"][0] == (
        "game 1: player 2 169, player 1 139, player 0 103 victory points: "
        "rank points player 2 2, player 1 1, player 0 0"
    )
    assert score["steps"][-1] == "player 0 wins the series with 3.5 rank points"


def test_a_level_series_has_no_winner_and_says_so() -> None:
    score = score_series([game([0, 1], {0: 100, 1: 90}), game([1, 0], {0: 80, 1: 95})])
    assert score["points"] == [1, 1]
    assert score["winner"] is None
    assert score["steps"][-1] == "players 0 and 1 share the top with 1 rank points: no series winner"


def test_a_forfeiter_scores_nothing_and_the_others_are_level_above_it() -> None:
    score = score_series([game([0, 1, 2], {0: 100, 1: 90, 2: 80}), game([1, 2, 0], {0: 0, 1: 0, 2: 0}, forfeit=2)])
    assert score["points"] == [2 + 1.5, 1 + 1.5, 0]
    assert "game 2: player 2 forfeited (crash): no points; the others 1.5 each" in score["steps"]


def test_records_without_scores_are_refused_by_name() -> None:
    with pytest.raises(SeriesError, match="game 1: player 1 has no score"):
        score_series([record([0, 1], [0], stats={"0": {"score": 3}})])


def test_the_game_scores_its_series_through_the_engine_interface() -> None:
    score = engines.get("watch_factory").score_series([game([0, 1], {0: 10, 1: 20}), game([1, 0], {0: 30, 1: 20})], 2)
    assert score["points"] == [1, 1]


def test_a_series_is_as_many_games_as_players() -> None:
    declared = engines.declaration("watch_factory")
    assert declared.series.default_games(3) == 3
    assert declared.series.check_games(3, 3) is None
    assert declared.series.check_games(3, 6) == (
        "a Watch factory series is as many games as players (each starts one): 3 games, not 6"
    )
