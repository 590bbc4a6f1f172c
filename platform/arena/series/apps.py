from __future__ import annotations

from django.apps import AppConfig


class SeriesConfig(AppConfig):
    name = "arena.series"
    label = "series"
    verbose_name = "Series"
