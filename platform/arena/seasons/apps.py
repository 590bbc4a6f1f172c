from __future__ import annotations

from django.apps import AppConfig


class SeasonsConfig(AppConfig):
    name = "arena.seasons"
    label = "seasons"
    verbose_name = "Seasons"
