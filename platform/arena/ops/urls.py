"""URL routes of arena.ops: the operators' status page. Included at the site root by arena.urls."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from arena.ops import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("ops/", views.ops, name="ops"),
    path("ops/metrics", views.metrics, name="ops-metrics"),
]
