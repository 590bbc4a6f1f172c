from __future__ import annotations

from django.apps import AppConfig


class ResultsConfig(AppConfig):
    name = "arena.results"
    label = "results"
    verbose_name = "Results"
