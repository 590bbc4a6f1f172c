"""URL routes of the REST API, under /api/: the resources, the token endpoints, the schema and its docs.

The token *page* is not here but under /account/tokens/ (arena.api.account_urls).
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.urls import URLPattern, URLResolver, path, re_path
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from arena.api.bots import BotVersionsView, BotViewSet, VersionViewSet
from arena.api.catalogue import GameViewSet, LeaderboardView, SeasonViewSet
from arena.api.series import LogView, ReplayView, SeriesGamesView, SeriesViewSet
from arena.api.token_api import MeView, TokenViewSet


@csrf_exempt  # it changes nothing, and a POST to a wrong path should get this answer, not a CSRF page
def unknown_endpoint(request: HttpRequest) -> JsonResponse:
    """Answer a path the API does not have with a JSON 404 pointing at the endpoint list."""
    return JsonResponse({"detail": "no such API endpoint (ids are whole numbers); see /api/docs/"}, status=404)


router = DefaultRouter()
router.register("games", GameViewSet, basename="api-game")
router.register("seasons", SeasonViewSet, basename="api-season")
router.register("bots", BotViewSet, basename="api-bot")
router.register("versions", VersionViewSet, basename="api-version")
router.register("series", SeriesViewSet, basename="api-series")
router.register("tokens", TokenViewSet, basename="api-token")

urlpatterns: list[URLPattern | URLResolver] = [
    path("seasons/<id:id>/leaderboard/", LeaderboardView.as_view(), name="api-leaderboard"),
    path("bots/<id:id>/versions/", BotVersionsView.as_view(), name="api-bot-versions"),
    path("series/<id:id>/games/", SeriesGamesView.as_view(), name="api-series-games"),
    path("series/<id:id>/replay/", ReplayView.as_view(), name="api-series-replay"),
    path("series/<id:id>/log/<id:player>/", LogView.as_view(), name="api-series-log"),
    path("me/", MeView.as_view(), name="api-me"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    # Its own template: the package's loads Google Fonts, and these pages load nothing from elsewhere.
    path(
        "redoc/",
        SpectacularRedocView.as_view(url_name="api-schema", template_name="api/redoc.html"),
        name="api-redoc",
    ),
    *router.urls,
    # Last: any other path under /api/ is a JSON 404, not the site's HTML page, for API clients.
    re_path(r"^[\s\S]*$", unknown_endpoint),
]
