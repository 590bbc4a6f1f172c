"""The Watch race series scoring (the rulebook's option 1).

    "1 – The duration of the game is very short. So, if you want you can play
    as many games as you have players (but always for 5 minutes each !). Each
    won game will gives ONE point to the winner."

So a series is as many games as players (the referee rotates the seats so
that each series player starts once) and each game won is one point; a drawn
game (the replay cap was reached) gives nobody a point. Forfeits and ranking
are the platform's, in engines/win_points.py, which the factory race shares.
"""

from __future__ import annotations

from engines.win_points import SeriesError, score_series

__all__ = ["SeriesError", "score_series"]
