"""URL routes: the public pages and accounts (arena.web), the REST API (arena.api) and the admin."""

from __future__ import annotations

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/", admin.site.urls),
    path("api/", include("arena.api.urls")),
    path("account/tokens/", include("arena.api.account_urls")),
    path("", include("arena.seasons.urls")),
    path("", include("arena.web.urls")),
]
