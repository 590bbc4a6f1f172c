"""Watch, the race of three shared pawns round a watch face: the engine and its series scoring."""

from __future__ import annotations

from engines.watch_race.game import INFO, WatchRaceGame, WatchRaceState
from engines.watch_race.scoring import SeriesError, score_series

__all__ = ["INFO", "SeriesError", "WatchRaceGame", "WatchRaceState", "score_series"]
