from __future__ import annotations

from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Running the ladder: the operator's actions and status, the demo and the embedded server (no models).

    The top of the platform's layers (tests/arena/test_layers.py): it may use every app, none uses it
    but the admin pages and the URL routes.
    """

    name = "arena.ops"
    label = "ops"
    verbose_name = "Operations"
