"""The home page: the games, the seasons and the latest series."""

from __future__ import annotations

from django.db.models import Count, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

import engines
from arena.seasons.models import Season
from arena.series.models import Series, SeriesSeat

RECENT_SERIES = 20
PAST_SEASONS = 20


def game_titles() -> dict[str, str]:
    """Return every registered game's title by name."""
    return {name: engines.get(name).info.title for name in engines.names()}


def seats_prefetch() -> Prefetch:
    """Prefetch a series' seats in seat order with their versions and bots, for lists of series."""
    return Prefetch("seats", queryset=SeriesSeat.objects.select_related("version__bot").order_by("seat"))


def home(request: HttpRequest) -> HttpResponse:
    """Show the games, the running and past seasons, and the latest series with each seat's points."""
    titles = game_titles()
    games = [{"name": name, "title": title, "info": engines.get(name).info} for name, title in sorted(titles.items())]
    seasons = Season.objects.annotate(entry_count=Count("entries")).order_by("-created")
    active = list(seasons.filter(status__in=[Season.Status.RUNNING, Season.Status.PAUSED]))
    upcoming = list(seasons.filter(status=Season.Status.CREATED))
    past = list(seasons.filter(status=Season.Status.FINISHED)[:PAST_SEASONS])
    for listed in (*active, *upcoming, *past):
        listed.game_title = titles.get(listed.game, listed.game)
    recent = Series.objects.select_related("season").prefetch_related(seats_prefetch()).order_by("-created", "-pk")
    return render(
        request,
        "web/home.html",
        {
            "games": games,
            "active_seasons": active,
            "upcoming_seasons": upcoming,
            "past_seasons": past,
            "recent_series": list(recent[:RECENT_SERIES]),
        },
    )
