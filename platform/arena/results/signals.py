"""Hooks for the work that follows a recording, sent once the database change is committed.

Receivers connect in their app's ``ready()``.

``series_recorded(season_id, series_ids)``: series of the season left the
queue for good (recorded, or their result refused); the match workers that
played them are free. ``arena.ops`` connects the matchmaker's top-up
(arena/ops/tasks.py), so a freed worker finds the next series queued without
waiting for the beat.
"""

from __future__ import annotations

from django.dispatch import Signal

series_recorded = Signal()
