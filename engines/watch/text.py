"""A Watch series as text: each game with White's and Black's moves, and the scheme's totals and points."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engines.result import SeriesResult
from engines.text import format_points, in_words, moves, name_players, render_table, stopped_early, time_used_ms


def format_series(result: SeriesResult, labels: Sequence[str], words: Mapping[str, str]) -> list[str]:
    """Return the per-game table, the forfeits, and the score worked out the Watch way (reasons in ``words``)."""
    a, b = labels
    rows = []
    notes = []
    for game in result.games:
        forfeit = game.forfeit
        forfeit_text = "-"
        if forfeit is not None:
            forfeit_text = f"{labels[forfeit.player]}: {forfeit.reason}"
            notes.append(
                f"  game {game.index + 1}: {labels[forfeit.player]} forfeited ({forfeit.reason}): {forfeit.detail}"
            )
        used = time_used_ms(game, 2)
        rows.append(
            [
                game.index + 1,
                labels[game.seats[0]],
                ", ".join(labels[p] for p in game.winners) or "-",
                in_words(words, game.reason),
                f"{moves(game, 0)}/{moves(game, 1)}",
                f"{used[0]:.0f}/{used[1]:.0f}",
                forfeit_text,
            ]
        )
    headers = ["#", "White (seat 0)", "Winner", "Reason", f"Moves {a}/{b}", f"Time ms {a}/{b}", "Forfeit"]
    lines = [render_table(headers, rows, right=(0,)), *stopped_early(result)]
    if notes:
        lines += ["Forfeits:", *notes]
    lines.append("")
    score = result.score
    points = score.points
    white, black, wins = score.detail("white_totals"), score.detail("black_totals"), score.game_wins
    lines += [
        f"Series score (Watch scheme): {a} {format_points(points[0])} – {format_points(points[1])} {b}",
        f"  White move totals (the lower scores): {a} {white[0]}, {b} {white[1]}",
        f"  Black move totals (the higher scores): {a} {black[0]}, {b} {black[1]}",
        f"  Game wins (not scored): {a} {wins[0]}, {b} {wins[1]}",
        "  How:",
        *[f"    {name_players(step, (a, b))}" for step in score.steps],
    ]
    winner = score.winner
    lines.append("Series winner: " + ("none (a draw)" if winner is None else labels[winner]))
    return lines
