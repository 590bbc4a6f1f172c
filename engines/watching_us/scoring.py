"""Watching Us series scoring: each series player scores the games its side won.

A game has two sides: the players (every player seat) and the GM (the GM seat;
with the built-in GM that side has no seat). The referee's record names the
winners (series players): every player seat when the players won, the GM seat
when they lost. A series player's points are the games its side won, whatever
role it had in each (the seats rotate, so each series player is the GM in some
games and a player in others); ranking is by points, ties sharing a rank; the
series winner is the one series player with the most points, None when the top
is shared. A forfeiter scores nothing from the forfeited game on (as
engines/win_points.py). Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.result import GameRecord
from engines.win_points import SeriesError, check_player, joined_players, series_players, series_standing

__all__ = ["SeriesError", "score_series"]


def _role(record: GameRecord, player: int) -> str:
    return str(record.stat(player, "role", "player"))


def _turns(record: GameRecord) -> Any:
    for entry in record.stats.values():
        if "turns" in entry:
            return entry["turns"]
    return "?"


def score_series(games: Sequence[GameRecord], num_players: int | None = None) -> dict[str, Any]:
    """Return the points, game wins, ranking, winner and steps of a series of Watching Us games."""
    if not games:
        raise SeriesError("a series needs at least one game")
    players = series_players(games)
    points = [0] * players
    game_wins = [0] * players
    out: set[int] = set()
    steps: list[str] = []
    for number, record in enumerate(games, start=1):
        winners = [check_player(p, players, f"game {number}: winner") for p in record.winners]
        forfeit = record.forfeit
        if forfeit is not None:
            forfeiter = check_player(forfeit.player, players, f"game {number}: forfeit player")
            if forfeiter not in out:
                out.add(forfeiter)
                steps.append(f"game {number}: player {forfeiter} forfeited: no points from this game on")
        for p in winners:
            game_wins[p] += 1
            if p not in out:
                points[p] += 1
        reason = record.reason or "?"
        sides = [p for p in range(players) if _role(record, p) == "player"]
        gms = [p for p in range(players) if _role(record, p) == "gm"]
        names = joined_players(sides) if len(sides) > 1 else str(sides[0]) if sides else "none"
        why = "every Character died" if reason == "players_lost" else "the night never ended (the turn limit)"
        if reason == "players_won":
            steps.append(f"game {number}: players {names} defeated the Adversary in {_turns(record)} turns")
        elif gms:
            steps.append(f"game {number}: the GM, player {gms[0]}, won: {why}")
        elif forfeit is None:
            steps.append(f"game {number}: players {names} lost to the built-in GM: {why}")
    ranking, winner, verdict = series_standing(points, lambda best: f"{best} points")
    steps.append(verdict)
    return {"points": points, "game_wins": game_wins, "ranking": ranking, "winner": winner, "steps": steps}
