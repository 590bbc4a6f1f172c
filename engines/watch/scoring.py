"""The Watch series-scoring scheme (the last paragraph of Derick Green's rulebook).

    "At the end of a game each player notes down the number of moves they have
    played, keeping a separate total for games within a series for Black and
    White. When that series has finished players compare totals. If a player
    has the lower total as White that player gains one point. The player with
    the higher total as Black gains one point. If each player has equal points
    in either Black or White each player gains half a point. However if both
    players have equal in both Black and White neither score."

So a series ends 2-0, 1.5-0.5, 1-1, 0.5-1.5, 0-2 or 0-0; game wins are kept
beside the points but do not count. The platform adds forfeits: a player who
forfeits any game scores 0 and the opponent 2 (both forfeiting: 0-0). For
ratings, more points wins and equal points is a draw.

Players here are the two *series* players, 0 and 1, whichever pawn they had.
Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engines import result

FORFEIT_POINTS = 2.0


class SeriesError(ValueError):
    """Game records that do not make a scorable series."""


@dataclass(frozen=True)
class GameRecord:
    """One game of a series, seen from the series players' side."""

    white: int  # the series player (0 or 1) who had the white pawn
    white_moves: int
    black_moves: int
    winner: int | None = None  # series player who won the game; None if unfinished
    reason: str = ""
    forfeited_by: int | None = None  # series player who forfeited this game

    @property
    def black(self) -> int:
        """Return the series player who had the black pawn."""
        return 1 - self.white


@dataclass(frozen=True)
class SeriesScore:
    """The result of a series: points, the totals behind them, and game wins."""

    points: tuple[float, float]
    white_totals: tuple[int, int]
    black_totals: tuple[int, int]
    game_wins: tuple[int, int]
    games: int
    forfeits: tuple[tuple[int, int, str], ...] = field(default_factory=tuple)  # (game index, player, reason)
    steps: tuple[str, ...] = field(default_factory=tuple)

    @property
    def winner(self) -> int | None:
        """Return the series winner for ratings (more points), or None for a draw."""
        if self.points[0] == self.points[1]:
            return None
        return 0 if self.points[0] > self.points[1] else 1

    def to_json(self) -> dict[str, Any]:
        """Return the score as a JSON-ready dict."""
        return {
            "points": list(self.points),
            "white_totals": list(self.white_totals),
            "black_totals": list(self.black_totals),
            "game_wins": list(self.game_wins),
            "games": self.games,
            "winner": self.winner,
            "forfeits": [{"game": g, "player": p, "reason": r} for g, p, r in self.forfeits],
            "steps": list(self.steps),
        }


def score_series(records: Sequence[GameRecord]) -> SeriesScore:
    """Return the score of a series under the Watch scheme.

    Raises :class:`SeriesError` unless the records are an even, non-empty
    number of games in which each player had White in half; a series that a
    forfeit ended may stop short of that.
    """
    white_totals = [0, 0]
    black_totals = [0, 0]
    white_games = [0, 0]
    game_wins = [0, 0]
    forfeits: list[tuple[int, int, str]] = []
    for index, record in enumerate(records):
        for player in (record.white, record.winner, record.forfeited_by):
            if player not in (0, 1, None) or isinstance(player, bool):
                raise SeriesError(f"game {index + 1}: players are 0 and 1, not {player!r}")
        if record.white is None:
            raise SeriesError(f"game {index + 1}: no player had White")
        if min(record.white_moves, record.black_moves) < 0:
            raise SeriesError(f"game {index + 1}: a move count is negative")
        white_totals[record.white] += record.white_moves
        black_totals[record.black] += record.black_moves
        white_games[record.white] += 1
        if record.winner is not None:
            game_wins[record.winner] += 1
        if record.forfeited_by is not None:
            forfeits.append((index, record.forfeited_by, record.reason))

    games = len(records)
    common: dict[str, Any] = {
        "white_totals": (white_totals[0], white_totals[1]),
        "black_totals": (black_totals[0], black_totals[1]),
        "game_wins": (game_wins[0], game_wins[1]),
        "games": games,
        "forfeits": tuple(forfeits),
    }
    if forfeits:
        forfeiters = {player for _, player, _ in forfeits}
        if len(forfeiters) == 2:
            return SeriesScore(points=(0.0, 0.0), steps=("both players forfeited a game: neither scores",), **common)
        loser = forfeiters.pop()
        game, _, reason = forfeits[0]
        points = [FORFEIT_POINTS, FORFEIT_POINTS]
        points[loser] = 0.0
        step = f"player {loser} forfeited game {game + 1} ({reason}): 0 points, the opponent 2"
        return SeriesScore(points=(points[0], points[1]), steps=(step,), **common)

    if games == 0 or games % 2:
        raise SeriesError(f"a series is an even number of games, not {games}")
    if white_games[0] != white_games[1]:
        raise SeriesError(
            f"each player plays White in half the games; here {white_games[0]} and {white_games[1]} of {games}"
        )

    points = [0.0, 0.0]
    steps = []
    white_equal = white_totals[0] == white_totals[1]
    black_equal = black_totals[0] == black_totals[1]
    if white_equal and black_equal:
        steps.append(
            f"White totals {white_totals[0]}-{white_totals[1]} and Black totals "
            f"{black_totals[0]}-{black_totals[1]} are both equal: neither scores"
        )
        return SeriesScore(points=(0.0, 0.0), steps=tuple(steps), **common)
    if white_equal:
        points = [0.5, 0.5]
        steps.append(f"White totals equal {white_totals[0]}-{white_totals[1]}: half a point each")
    else:
        lower = 0 if white_totals[0] < white_totals[1] else 1
        points[lower] += 1.0
        steps.append(f"White totals {white_totals[0]}-{white_totals[1]}: player {lower} has the lower total, 1 point")
    if black_equal:
        points[0] += 0.5
        points[1] += 0.5
        steps.append(f"Black totals equal {black_totals[0]}-{black_totals[1]}: half a point each")
    else:
        higher = 0 if black_totals[0] > black_totals[1] else 1
        points[higher] += 1.0
        steps.append(f"Black totals {black_totals[0]}-{black_totals[1]}: player {higher} has the higher total, 1 point")
    return SeriesScore(points=(points[0], points[1]), steps=tuple(steps), **common)


def score_referee_games(games: Sequence[result.GameRecord]) -> dict[str, Any]:
    """Return the JSON score of a series from the referee's game records (seat 0 of a game is White)."""
    records = []
    for game in games:
        white, black = game.seats
        records.append(
            GameRecord(
                white=white,
                white_moves=game.stat(white, "moves", 0),
                black_moves=game.stat(black, "moves", 0),
                winner=game.winners[0] if game.winners else None,
                reason=game.reason,
                forfeited_by=None if game.forfeit is None else game.forfeit.player,
            )
        )
    return score_series(records).to_json()
