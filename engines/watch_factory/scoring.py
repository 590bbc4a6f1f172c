"""The Watch factory's series scoring: each game's rank points, ties sharing.

"The player with the most points is the winner", and the rulebook ranks the
others by their points too (its example: Yellow 103, red 139 and blue 169).
A series is as many games as players, the start player rotating
(declaration.py); in each game a player scores one point for every other
player it beat and half a point for every other player level with it, so a
game of n players shares n(n-1)/2 points. Rank points, rather than the sum of
the games' victory points, keep one runaway game (169 against 103) from
outweighing the others and read the same at every player count (RULES.md,
*Series*). A player who forfeits a game scores nothing for it and is beaten by
every other player, who are level with each other; the referee ends the
series there. A solo series is a score ladder's (platform), not scored here
beyond the sum of its games.

Players here are *series* players, whatever seat they had. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.result import GameRecord
from engines.win_points import SeriesError, check_player, series_players, series_standing

__all__ = ["SeriesError", "score_series"]


def _fmt(points: float) -> str:
    return f"{points:g}"


def score_series(games: Sequence[GameRecord], num_players: int | None = None) -> dict[str, Any]:
    """Return the points, game wins, ranking, winner and explanation of a series.

    Reads each record's ``seats``, ``winners``, ``reason``, ``forfeit`` and each series
    player's ``score`` stat. Raises :class:`SeriesError` for records that do not fit
    together.
    """
    if not games:
        raise SeriesError("a series needs at least one game")
    players = series_players(games)
    points = [0.0] * players
    game_wins = [0] * players
    steps: list[str] = []
    for number, record in enumerate(games, start=1):
        forfeit = record.forfeit
        if forfeit is not None:
            forfeiter = check_player(forfeit.player, players, f"game {number}: forfeit player")
            others = [p for p in range(players) if p != forfeiter]
            for p in others:
                points[p] += 1 + 0.5 * (len(others) - 1)
            steps.append(
                f"game {number}: player {forfeiter} forfeited ({forfeit.reason}): "
                f"no points; the others {_fmt(1 + 0.5 * (len(others) - 1))} each"
                if others
                else f"game {number}: player {forfeiter} forfeited: no points"
            )
            continue
        scores = []
        for p in range(players):
            score = record.stat(p, "score")
            if isinstance(score, bool) or not isinstance(score, int | float):
                raise SeriesError(f"game {number}: player {p} has no score in its stats")
            scores.append(score)
        gained = [
            sum(s < scores[p] for s in scores) + 0.5 * (sum(s == scores[p] for s in scores) - 1) for p in range(players)
        ]
        for p in range(players):
            points[p] += gained[p]
        for p in record.winners:
            game_wins[check_player(p, players, f"game {number}: winner")] += 1
        order = sorted(range(players), key=lambda p: -scores[p])
        steps.append(
            f"game {number}: "
            + ", ".join(f"player {p} {scores[p]}" for p in order)
            + " victory points: rank points "
            + ", ".join(f"player {p} {_fmt(gained[p])}" for p in order)
        )
    ranking, winner, verdict = series_standing(points, lambda best: f"{_fmt(best)} rank points")
    steps.append(verdict)
    return {
        "points": [_num(p) for p in points],
        "game_wins": game_wins,
        "ranking": ranking,
        "winner": winner,
        "steps": steps,
    }


def _num(points: float) -> float | int:
    return int(points) if points == int(points) else points
