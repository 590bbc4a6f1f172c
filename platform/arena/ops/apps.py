from __future__ import annotations

from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Running the ladder: the operator's actions, the admin pages and status, the demo and the embedded server.

    The top of the platform's layers (tests/arena/test_layers.py): it may use every app, none uses it
    but the URL routes. It has no models.
    """

    name = "arena.ops"
    label = "ops"
    verbose_name = "Operations"

    def ready(self) -> None:
        from arena.bots import signals
        from arena.matchmaking.scheduling import schedule_new_version
        from arena.ops.tasks import request_top_up
        from arena.ratings.signals import series_recorded

        # After arena.ratings (earlier in INSTALLED_APPS) connected the receiver that enters seasons.
        signals.version_activated.connect(schedule_new_version, dispatch_uid="arena.ops.schedule_new_version")
        # A worker that finished a series finds the next one queued without waiting for the beat.
        series_recorded.connect(request_top_up, dispatch_uid="arena.ops.request_top_up")
