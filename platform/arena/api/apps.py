from __future__ import annotations

from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The REST API (Django REST framework), its OpenAPI schema and the API tokens."""

    name = "arena.api"
    label = "api"
    verbose_name = "REST API"
