"""Series scoring: each series player scores the games its side won."""

from __future__ import annotations

import engines
from engines.declaration import GameDeclaration
from tests.engines.records import record as game_record


def record(seats, winners, reason, gm=None):
    stats = {str(p): {"role": "gm" if p == gm else "player", "turns": 14} for p in seats}
    return game_record(seats, winners, reason, stats=stats)


def test_points_are_games_won_by_ones_side() -> None:
    game = engines.get("watching_us")
    games = [
        record([0, 1, 2, 3], [0, 1, 2], "players_won", gm=3),
        record([1, 2, 3, 0], [0], "players_lost", gm=0),
        record([2, 3, 0, 1], [1], "night_never_ended", gm=1),
        record([3, 0, 1, 2], [3, 0, 1], "players_won", gm=2),
    ]
    score = game.score_series(games, 4)
    assert score["points"] == [3, 3, 1, 1]
    assert score["winner"] is None
    assert score["ranking"] == [0, 0, 2, 2]
    assert score["steps"][0] == "game 1: players 0, 1 and 2 defeated the Adversary in 14 turns"
    assert score["steps"][1] == "game 2: the GM, player 0, won: every Character died"
    assert score["steps"][2] == "game 3: the GM, player 1, won: the night never ended (the turn limit)"
    assert score["steps"][-1] == "players 0 and 1 share the top with 3 points: no series winner"
    # The steps name the bots on the series page and in the CLI (engines/win_points.name_step).
    named = [engines.declaration("watching_us").name_step(step, ["ann", "bob", "cy", "dan"]) for step in score["steps"]]
    assert named[0] == "game 1: ann, bob and cy defeated the Adversary in 14 turns"
    assert named[-1] == "ann and bob share the top with 3 points: no series winner"


def test_a_game_lost_to_the_built_in_gm_says_so() -> None:
    stats = {str(p): {"role": "player", "turns": 9} for p in range(3)}
    games = [game_record(seats, [], "players_lost", stats=stats) for seats in ([0, 1, 2], [1, 2, 0], [2, 0, 1])]
    score = engines.get("watching_us").score_series(games, 3)
    assert score["points"] == [0, 0, 0]
    assert score["steps"][0] == "game 1: players 0, 1 and 2 lost to the built-in GM: every Character died"


def test_the_declaration() -> None:
    declaration: GameDeclaration = engines.declaration("watching_us")
    assert declaration.series.check_games(4, 4) is None
    assert declaration.series.check_games(4, 8)
