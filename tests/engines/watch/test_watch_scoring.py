"""The series-scoring scheme, every outcome from a table of series.

    "If a player has the lower total as White that player gains one point. The
    player with the higher total as Black gains one point. If each player has
    equal points in either Black or White each player gains half a point.
    However if both players have equal in both Black and White neither score."

Each game below is one a real board can produce: White has made one move more
than Black when White wins, and as many when Black wins.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from engines.watch import GameRecord, score_series
from engines.watch.scoring import SeriesError


def game(white: int, white_moves: int, black_moves: int) -> GameRecord:
    """Return a finished game in which series player ``white`` had White."""
    assert white_moves - black_moves in (0, 1), "White moves first, so it is level or one move ahead"
    white_won = white_moves > black_moves
    return GameRecord(
        white=white,
        white_moves=white_moves,
        black_moves=black_moves,
        winner=white if white_won else 1 - white,
        reason="capture",
    )


def forfeit(white: int, by: int, reason: str = "illegal_action") -> GameRecord:
    """Return a game that series player ``by`` forfeited before a move was made."""
    return GameRecord(white=white, white_moves=0, black_moves=0, winner=1 - by, reason=reason, forfeited_by=by)


@dataclass(frozen=True)
class Case:
    name: str
    games: list[GameRecord]
    points: tuple[float, float]
    white_totals: tuple[int, int]
    black_totals: tuple[int, int]
    game_wins: tuple[int, int]
    winner: int | None


CASES = [
    Case(
        # Player 0 wins quickly as White and lasts long as Black.
        "2–0",
        [game(0, 1, 0), game(1, 5, 5)],
        points=(2.0, 0.0),
        white_totals=(1, 5),
        black_totals=(5, 0),
        game_wins=(2, 0),
        winner=0,
    ),
    Case(
        # Equal White totals, so half a point each; player 0 lasted longer as Black.
        "1½–½",
        [game(0, 3, 2), game(1, 3, 3)],
        points=(1.5, 0.5),
        white_totals=(3, 3),
        black_totals=(3, 2),
        game_wins=(2, 0),
        winner=0,
    ),
    Case(
        # Player 1 wins all four games yet only splits the points: player 0
        # has the lower White total, player 1 the higher Black total.
        "1–1",
        [game(0, 3, 3), game(1, 3, 2), game(0, 2, 2), game(1, 3, 2)],
        points=(1.0, 1.0),
        white_totals=(5, 6),
        black_totals=(4, 5),
        game_wins=(0, 4),
        winner=None,
    ),
    Case(
        "½–1½",
        [game(1, 3, 2), game(0, 3, 3)],
        points=(0.5, 1.5),
        white_totals=(3, 3),
        black_totals=(2, 3),
        game_wins=(0, 2),
        winner=1,
    ),
    Case(
        "0–2",
        [game(1, 1, 0), game(0, 5, 5)],
        points=(0.0, 2.0),
        white_totals=(5, 1),
        black_totals=(0, 5),
        game_wins=(0, 2),
        winner=1,
    ),
    Case(
        # Equal as White and equal as Black: "neither score".
        "0–0",
        [game(0, 3, 2), game(1, 3, 2)],
        points=(0.0, 0.0),
        white_totals=(3, 3),
        black_totals=(2, 2),
        game_wins=(1, 1),
        winner=None,
    ),
    Case(
        # The platform's rule: a forfeit ends the series 0–2 whatever went before.
        "player 1 forfeits",
        [game(0, 5, 5), forfeit(1, by=1)],
        points=(2.0, 0.0),
        white_totals=(5, 0),
        black_totals=(0, 5),
        game_wins=(1, 1),
        winner=0,
    ),
    Case(
        "player 0 forfeits the first game",
        [forfeit(0, by=0, reason="timeout")],
        points=(0.0, 2.0),
        white_totals=(0, 0),
        black_totals=(0, 0),
        game_wins=(0, 1),
        winner=1,
    ),
    Case(
        "both forfeit",
        [forfeit(0, by=1), forfeit(1, by=0)],
        points=(0.0, 0.0),
        white_totals=(0, 0),
        black_totals=(0, 0),
        game_wins=(1, 1),
        winner=None,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_it_scores_the_series(case: Case) -> None:
    score = score_series(case.games)
    assert score.points == case.points
    assert score.white_totals == case.white_totals
    assert score.black_totals == case.black_totals
    assert score.game_wins == case.game_wins
    assert score.winner == case.winner
    assert score.games == len(case.games)


def test_it_explains_each_point() -> None:
    score = score_series([game(0, 3, 2), game(1, 3, 3)])
    assert score.steps == (
        "White totals equal 3-3: half a point each",
        "Black totals 3-2: player 0 has the higher total, 1 point",
    )


def test_it_explains_a_scoreless_series() -> None:
    score = score_series([game(0, 3, 2), game(1, 3, 2)])
    assert score.steps == ("White totals 3-3 and Black totals 2-2 are both equal: neither scores",)


def test_it_names_the_forfeit_that_decided_the_series() -> None:
    score = score_series([game(0, 5, 5), forfeit(1, by=1)])
    assert score.forfeits == ((1, 1, "illegal_action"),)
    assert score.steps == ("player 1 forfeited game 2 (illegal_action): 0 points, the opponent 2",)


def test_it_writes_the_score_as_json() -> None:
    assert score_series([game(0, 1, 0), game(1, 5, 5)]).to_json() == {
        "points": [2.0, 0.0],
        "white_totals": [1, 5],
        "black_totals": [5, 0],
        "game_wins": [2, 0],
        "games": 2,
        "winner": 0,
        "forfeits": [],
        "steps": [
            "White totals 1-5: player 0 has the lower total, 1 point",
            "Black totals 5-0: player 0 has the higher total, 1 point",
        ],
    }


def test_it_adds_up_the_totals_over_the_whole_series() -> None:
    score = score_series([game(0, 2, 1), game(1, 4, 4), game(0, 6, 5), game(1, 1, 1)])
    assert score.white_totals == (8, 5)
    assert score.black_totals == (5, 6)
    assert score.points == (0.0, 2.0)


# -- "Each player should play the same number of games as both Black and White."

ERRORS = [
    ("no games", [], "a series is an even number of games, not 0"),
    ("odd game count", [game(0, 3, 2), game(1, 3, 2), game(0, 3, 2)], "a series is an even number of games, not 3"),
    (
        "unbalanced White",
        [game(0, 3, 2), game(0, 3, 2)],
        "each player plays White in half the games; here 2 and 0 of 2",
    ),
    (
        "negative move count",
        [GameRecord(white=0, white_moves=-1, black_moves=0), game(1, 1, 0)],
        "game 1: a move count is negative",
    ),
    (
        "a third player",
        [game(0, 1, 0), GameRecord(white=2, white_moves=1, black_moves=0)],
        "game 2: players are 0 and 1",
    ),
    ("a bool for a player", [GameRecord(white=True, white_moves=1, black_moves=0)], "game 1: players are 0 and 1"),
    ("no White", [GameRecord(white=None, white_moves=1, black_moves=0)], "game 1: no player had White"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("games", "message"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_it_refuses_records_that_are_not_a_series(games: list[GameRecord], message: str) -> None:
    with pytest.raises(SeriesError, match=message):
        score_series(games)
