"""Watch by Derick Green: the engine and its series-scoring scheme."""

from __future__ import annotations

from engines.text import format_points, name_players
from engines.watch.game import INFO, WatchGame, WatchState
from engines.watch.scoring import GameRecord, SeriesScore, score_series

__all__ = [
    "INFO",
    "GameRecord",
    "SeriesScore",
    "WatchGame",
    "WatchState",
    "format_points",
    "name_players",
    "score_series",
]
