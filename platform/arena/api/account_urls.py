"""The token page, under /account/tokens/ (included by arena.urls)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from arena.api import pages

urlpatterns: list[URLPattern | URLResolver] = [
    path("", pages.token_list, name="api-tokens"),
    path("<id:token_id>/revoke/", pages.token_revoke, name="api-token-revoke"),
]
