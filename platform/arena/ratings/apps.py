from __future__ import annotations

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "arena.ratings"
    label = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        from arena.bots import signals
        from arena.ratings.receivers import enter_seasons

        signals.version_activated.connect(enter_seasons, dispatch_uid="arena.ratings.enter_seasons")
