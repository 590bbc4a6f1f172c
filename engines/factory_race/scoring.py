"""The factory race's series scoring: a point for every game won, shared wins included.

"Если показатели равны у нескольких игроков и в указанных выше случаях, эти
игроки объявляются победителями" (if the tie-breaks still leave several players
level, they are all declared winners): each of them scores the game's point. A
series is as many games as players, each starting one (the declaration); the
arithmetic, forfeits and ranking are engines/win_points.py's, which the Watch
race shares.
"""

from __future__ import annotations

from engines.win_points import SeriesError, score_series

__all__ = ["SeriesError", "score_series"]
