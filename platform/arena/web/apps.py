from __future__ import annotations

from django.apps import AppConfig


class WebConfig(AppConfig):
    """The public pages and the accounts: leaderboards, bots, series and replays, sign-up and uploads."""

    name = "arena.web"
    label = "web"
    verbose_name = "Web pages"
