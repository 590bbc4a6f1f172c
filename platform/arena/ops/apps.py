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
        from arena.ops.receivers import follow_activation
        from arena.ops.tasks import request_top_up
        from arena.results.signals import series_recorded

        # One receiver calls the steps in their order (arena/ops/receivers.py), whatever INSTALLED_APPS says.
        signals.version_activated.connect(follow_activation, dispatch_uid="arena.ops.follow_activation")
        # A worker that finished a series finds the next one queued without waiting for the beat.
        series_recorded.connect(request_top_up, dispatch_uid="arena.ops.request_top_up")
