from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "arena.games"
    label = "games"
    verbose_name = "Games"
