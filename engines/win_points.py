"""Series scoring by games won: one point for each game a series player wins, shared wins included.

The Watch race's rulebook option 1 ("Each won game will gives ONE point to the
winner") and the factory race both score a series this way; a game with several
winners (the factory race's "эти игроки объявляются победителями") gives each
of them a point. The platform adds forfeits: a player who forfeits a game scores
nothing for that game and for every later game of the series, whatever the
records say; points won before the forfeit stand. Ranking is by points, ties
sharing a rank (0 = best, the next rank after a tie skips: points 3, 3, 1 rank
0, 0, 2).

Players here are *series* players, whatever seat they had. Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engines.base import Outcome
from engines.checks import integer_in
from engines.result import GameRecord


class SeriesError(ValueError):
    """Game records that do not make a scorable series."""


def score_series(games: Sequence[GameRecord]) -> dict[str, Any]:
    """Return the points, game wins, ranking, winner and explanation of a series.

    Reads each record's ``seats`` (seat index -> series player), ``winners`` (series
    players), ``reason`` and ``forfeit``. Raises :class:`SeriesError` for records
    that do not fit together.
    """
    if not games:
        raise SeriesError("a series needs at least one game")
    num_players = series_players(games)
    points = [0] * num_players
    game_wins = [0] * num_players
    forfeited_in: dict[int, int] = {}  # series player -> first game (1-based) they forfeited
    steps: list[str] = []
    for number, record in enumerate(games, start=1):
        winners = list(record.winners)
        reason = record.reason or "?"
        forfeit = record.forfeit
        for player in winners:
            check_player(player, num_players, f"game {number}: winner")
        if forfeit is not None:
            forfeiter = check_player(forfeit.player, num_players, f"game {number}: forfeit player")
            if forfeiter not in forfeited_in:
                forfeited_in[forfeiter] = number
                steps.append(
                    f"game {number}: player {forfeiter} forfeited ({forfeit.reason}): "
                    "no points for this game or the rest of the series"
                )
        for player in winners:
            game_wins[player] += 1
        scoring = [player for player in winners if player not in forfeited_in]
        for player in scoring:
            points[player] += 1
        if len(scoring) > 1:
            steps.append(f"game {number}: players {joined_players(scoring)} shared the win ({reason}): 1 point each")
        elif scoring:
            steps.append(f"game {number}: player {scoring[0]} won ({reason}): 1 point")
        elif winners:
            steps.append(f"game {number}: player {winners[0]} won ({reason}) but had forfeited: no point")
        else:
            steps.append(f"game {number}: nobody won ({reason}): no point")

    ranking, winner, verdict = series_standing(points, lambda best: f"{best} point{'s' * (best != 1)}")
    steps.append(verdict)
    return {"points": points, "game_wins": game_wins, "ranking": ranking, "winner": winner, "steps": steps}


def series_standing(points: Sequence[float], amount: Callable[[float], str]) -> tuple[list[int], int | None, str]:
    """Return a series' ranking, its winner and the step that says so, from each series player's points.

    The ranking counts the players ahead of each (equal points share a rank);
    the winner is the one player with the most points, None when several share
    them. ``amount`` words the top score ("3 points").
    """
    ranking = [sum(other > mine for other in points) for mine in points]
    best = max(points)
    leaders = [player for player, mine in enumerate(points) if mine == best]
    if len(leaders) == 1:
        return ranking, leaders[0], f"player {leaders[0]} wins the series with {amount(best)}"
    return ranking, None, f"players {joined_players(leaders)} share the top with {amount(best)}: no series winner"


def joined_players(players: Sequence[int]) -> str:
    """Return series players as a score step names several: "0, 1 and 3" (name_step reads it)."""
    return ", ".join(map(str, players[:-1])) + f" and {players[-1]}"


def series_players(games: Sequence[GameRecord]) -> int:
    """Return how many series players the game records seat, or raise :class:`SeriesError`."""
    counts = set()
    for number, record in enumerate(games, start=1):
        seats = list(record.seats)
        if sorted(seats) != list(range(len(seats))):
            raise SeriesError(f"game {number}: seats must list each series player once, not {seats!r}")
        counts.add(len(seats))
    if len(counts) != 1:
        raise SeriesError(f"every game of a series has the same players; here {sorted(counts)} players")
    return counts.pop()


def game_returns(winners: Sequence[int], num_players: int) -> tuple[float, ...]:
    """Return each player's return from a game's winners: 1 a winner, the losers sharing the winners' total as a loss.

    All zero when nobody won or everybody did.
    """
    if not winners or len(winners) == num_players:
        return (0.0,) * num_players
    loss = -len(winners) / (num_players - len(winners))
    return tuple(1.0 if player in winners else loss for player in range(num_players))


def won_outcome(
    winners: tuple[int, ...], reason: str, num_players: int, stats: tuple[Mapping[str, Any], ...]
) -> Outcome:
    """Return how a finished game ended that ``winners`` won (none: nobody), with :func:`game_returns`."""
    return Outcome(winners=winners, reason=reason, returns=game_returns(winners, num_players), stats=stats)


def check_player(player: object, num_players: int, what: str) -> int:
    """Return ``player`` if it is a series player, else raise :class:`SeriesError`."""
    if not integer_in(player, 0, num_players - 1):
        raise SeriesError(f"{what} must be a series player 0 to {num_players - 1}, not {player!r}")
    return player


_PLAYER = re.compile(r"\bplayer (\d+)\b")
_PLAYERS = re.compile(r"\bplayers ((?:\d+, )*\d+ and \d+)\b")


def name_step(step: str, names: Sequence[str]) -> str:
    """Return a score step in the players' names: "player 2" and "players 0, 1 and 3" (series players)."""

    def name(index: str, fallback: str) -> str:
        number = int(index)
        return names[number] if number < len(names) else fallback

    def many(match: re.Match[str]) -> str:
        numbers = re.findall(r"\d+", match.group(1))
        if any(int(n) >= len(names) for n in numbers):
            return match.group(0)
        named = [names[int(n)] for n in numbers]
        return ", ".join(named[:-1]) + " and " + named[-1]

    step = _PLAYERS.sub(many, step)
    return _PLAYER.sub(lambda match: name(match.group(1), match.group(0)), step)
