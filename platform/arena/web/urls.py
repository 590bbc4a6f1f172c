"""URL routes of arena.web: the public pages, the accounts and the downloads."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, path

from arena.web.views import accounts, bots, catalogue, forfeits, home, notices, seasons, series, validation

urlpatterns: list[URLPattern | URLResolver] = [
    path("", home.home, name="home"),
    path("games/", catalogue.games, name="games"),
    path("games/<str:name>/", catalogue.game, name="game"),
    path("games/<str:name>/rules/", catalogue.game_rules, name="game-rules"),
    path("bots/", catalogue.bots, name="bots"),
    path("seasons/", catalogue.seasons, name="seasons"),
    path("series/", catalogue.series_index, name="series-index"),
    path("users/<str:username>/", catalogue.user_profile, name="user"),
    path("seasons/<id:season_id>/", seasons.season, name="season"),
    path("seasons/<id:season_id>/live/", seasons.season_live, name="season-live"),
    path("bots/<id:bot_id>/", bots.bot, name="bot"),
    path("bots/<id:bot_id>/versions/<id:number>/download/", bots.version_download, name="bot-version-download"),
    path("bots/<id:bot_id>/versions/<id:number>/validation/", validation.validation, name="bot-version-validation"),
    path("bots/<id:bot_id>/versions/<id:number>/forfeits/", forfeits.version_forfeits, name="bot-version-forfeits"),
    path("series/<id:series_id>/", series.series, name="series"),
    path("series/<id:series_id>/replay.json", series.series_replay, name="series-replay"),
    path("series/<id:series_id>/log/<id:player>/", series.series_log, name="series-log"),
    path("account/signup/", accounts.signup, name="signup"),
    path("account/login/", accounts.login_view, name="login"),
    path("account/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("account/bots/", accounts.my_bots, name="my-bots"),
    path("account/notices/", notices.notices, name="notices"),
    path("account/upload/", accounts.upload, name="upload"),
]
