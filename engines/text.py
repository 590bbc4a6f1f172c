"""Text for people: tables, points, and a series of any game as the CLI and the demo print it.

A game's declaration may bring its own series text (Watch does: its scheme's
totals); every other game gets :func:`format_series`, the table of games and
the points any series has; a solo series (one player, a score ladder) gets
each deal's score and the mean instead of points. Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from engines.result import GameRecord, SeriesResult


def render_table(headers: Sequence[str], rows: Sequence[Sequence[Any]], right: Sequence[int] = ()) -> str:
    """Return a plain-text table; columns whose index is in ``right`` align right."""
    cells = [[str(h) for h in headers], *[[str(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for row in cells:
        parts = [c.rjust(widths[i]) if i in right else c.ljust(widths[i]) for i, c in enumerate(row)]
        lines.append("  ".join(parts).rstrip())
    return "\n".join(lines)


def format_points(points: float) -> str:
    """Return series points the way the Watch rulebook writes them: 0, ½, 1, 1½, 2 (whole numbers as they are)."""
    whole, half = divmod(round(points * 2), 2)
    if not half:
        return str(whole)
    return "½" if whole == 0 else f"{whole}½"


_PLAYER = re.compile(r"\bplayer (\d+)\b")


def name_players(step: str, names: Sequence[str]) -> str:
    """Return a score step with each "player <i>" replaced by the i-th name."""

    def replace(match: re.Match[str]) -> str:
        index = int(match.group(1))
        return names[index] if index < len(names) else match.group(0)

    return _PLAYER.sub(replace, step)


def time_used_ms(game: GameRecord, players: int) -> list[float]:
    """Return the thinking time each series player used in one game of a series result."""
    used = [0.0] * players
    for action in game.actions:
        if action.seat is not None:  # None: a chance outcome the referee drew
            used[game.seats[action.seat]] += action.ms or 0.0
    return used


def moves(game: GameRecord, player: int) -> int:
    """Return the moves series player ``player`` made in one game, as the engine counted them."""
    return int(game.stat(player, "moves", 0))


def stopped_early(result: SeriesResult) -> list[str]:
    """Return the line that says a forfeit ended the series before all its games, if one did."""
    played = len(result.games)
    if played < result.games_planned:
        return [f"  (the series stopped after game {played}: a forfeit decides it)"]
    return []


def in_words(words: Mapping[str, str], reason: str) -> str:
    """Return a reason code in words; a code with none is shown with its underscores spaced."""
    return words.get(reason, reason.replace("_", " "))


def format_series(
    result: SeriesResult, labels: Sequence[str], words: Mapping[str, str], seat_label: str = "Starts (seat 0)"
) -> list[str]:
    """Return the games (who started, who won and how, moves, time, forfeits) and the points of any series.

    ``words`` gives each reason code of the game (and each forfeit) in words.
    A solo series shows each game's score and ends with the mean score
    (engines/score_ladder.py) instead of points and a winner.
    """
    score = result.score
    if "deal_scores" in score.details:
        return _format_solo_series(result, labels, words)
    rows = []
    for game in result.games:
        forfeit = game.forfeit
        used = time_used_ms(game, len(labels))
        rows.append(
            [
                game.index + 1,
                labels[game.seats[0]],
                ", ".join(labels[p] for p in game.winners) or "-",
                in_words(words, game.reason),
                "/".join(str(moves(game, p)) for p in range(len(labels))),
                "/".join(f"{ms:.0f}" for ms in used),
                "-" if forfeit is None else f"{labels[forfeit.player]}: {forfeit.reason} ({forfeit.detail})",
            ]
        )
    headers = ["#", seat_label, "Winner", "Reason", "Moves by player", "Time ms by player", "Forfeit"]
    lines = [render_table(headers, rows, right=(0,)), *stopped_early(result), ""]
    standings = sorted(range(len(labels)), key=lambda p: (-score.points[p], p))
    lines.append("Series score: " + ", ".join(f"{labels[p]} {format_points(score.points[p])}" for p in standings))
    lines += [f"    {name_players(step, labels)}" for step in score.steps]
    winner = score.winner
    lines.append("Series winner: " + ("none (the top is shared)" if winner is None else labels[winner]))
    return lines


def _format_solo_series(result: SeriesResult, labels: Sequence[str], words: Mapping[str, str]) -> list[str]:
    """Return a solo series: each deal's score, how the game ended, moves and time, then the mean score."""
    score = result.score
    deal_scores = score.detail("deal_scores")
    games = {game.index: game for game in result.games}
    rows = []
    for index, deal_score in enumerate(deal_scores):
        game = games.get(index)
        if game is None:
            rows.append([index + 1, f"{deal_score:g}", "not played", "-", "-", "-"])
            continue
        forfeit = game.forfeit
        rows.append(
            [
                index + 1,
                f"{deal_score:g}",
                in_words(words, game.reason),
                moves(game, 0),
                f"{time_used_ms(game, 1)[0]:.0f}",
                "-" if forfeit is None else f"{forfeit.reason} ({forfeit.detail})",
            ]
        )
    headers = ["#", "Score", "Reason", "Moves", "Time ms", "Forfeit"]
    stopped = []
    if len(result.games) < result.games_planned:
        stopped = [f"  (a forfeit ended the series in game {len(result.games)}: the deals after it score as it)"]
    lines = [render_table(headers, rows, right=(0, 1, 3, 4)), *stopped, ""]
    mean, low, high = score.detail("mean"), score.detail("low"), score.detail("high")
    lines.append(
        f"Mean score of {labels[0]}: {mean:.2f} over {len(deal_scores)} deals, "
        f"95 % interval {low:.2f} to {high:.2f} (± {high - mean:.2f})"
    )
    lines.append("Title: " + (score.detail("title") or "none (below every threshold)"))
    return lines
