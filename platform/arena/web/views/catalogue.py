"""The index pages: games and their rules, every bot, every season, every series (filtered), user profiles.

Every filter is a query parameter; a value that names nothing is ignored and
the page says so (never a server error), so a hand-edited address still
shows something useful.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Case, Count, IntegerField, Max, QuerySet, Value, When
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

import engines
from arena.bots.models import Bot
from arena.seasons.models import Season
from arena.series.models import Series, SeriesState
from arena.web.paging import page_of
from arena.web.views.home import game_titles, seats_prefetch

PER_PAGE = 50
#: Largest id a filter takes: ids are 64-bit, and a longer number is no id.
MAX_ID_DIGITS = 18


def _game_or_404(name: str) -> Any:
    if name not in engines.names():
        raise Http404(f"There is no game “{name[:40]}” here; the games are {', '.join(engines.names())}.")
    return engines.get(name)


def games(request: HttpRequest) -> HttpResponse:
    """List the games with their rules in brief."""
    items = [{"name": name, "info": engines.get(name).info} for name in engines.names()]
    return render(request, "web/games.html", {"games": items})


def game(request: HttpRequest, name: str) -> HttpResponse:
    """Show a game: its rules in brief, its seasons (running first) and a link to its full rules."""
    engine = _game_or_404(name)
    seasons = (
        Season.objects.filter(game=name)
        .annotate(entry_count=Count("entries"))
        # Running and paused first, then upcoming, then finished; newest first within each.
        .order_by(
            Case(
                When(status__in=[Season.Status.RUNNING, Season.Status.PAUSED], then=Value(0)),
                When(status=Season.Status.CREATED, then=Value(1)),
                default=Value(2),
                output_field=IntegerField(),
            ),
            "-created",
        )
    )
    for season in seasons:
        season.game_title = engine.info.title
    return render(
        request, "web/game.html", {"name": name, "info": engine.info, "seasons": seasons, "has_rules": _rules(name)}
    )


def game_rules(request: HttpRequest, name: str) -> HttpResponse:
    """Show the game's RULES.md: every rulebook sentence with the code and tests that implement it."""
    engine = _game_or_404(name)
    text = _rules(name)
    if text is None:
        raise Http404(f"{engine.info.title} has no rules document yet.")
    return render(request, "web/game_rules.html", {"name": name, "info": engine.info, "text": text})


def _rules(name: str) -> str | None:
    path = Path(engines.__file__).resolve().parent / name / "RULES.md"
    return path.read_text(encoding="utf-8") if path.is_file() else None


def bots(request: HttpRequest) -> HttpResponse:
    """List every bot with its owner, newest version and best conservative rating; ?game= keeps those in its seasons."""
    notices: list[str] = []
    listed = Bot.objects.select_related("owner").annotate(
        newest=Max("versions__number"), best=Max("versions__ratings__conservative")
    )
    game_name = request.GET.get("game", "")
    if game_name:
        if game_name in engines.names():
            listed = listed.filter(versions__season_entries__season__game=game_name).distinct()
        else:
            notices.append(_ignored("game", game_name))
    page, notice = page_of(request, listed.order_by("name", "pk"), PER_PAGE)
    return render(
        request,
        "web/bots.html",
        {"page": page, "notices": [*notices, *([notice] if notice else [])], "games": game_titles(), "game": game_name},
    )


def seasons(request: HttpRequest) -> HttpResponse:
    """List every season, newest first; ?game= and ?status= filter."""
    notices: list[str] = []
    listed = Season.objects.annotate(entry_count=Count("entries")).order_by("-created", "-pk")
    game_name = request.GET.get("game", "")
    if game_name:
        if game_name in engines.names():
            listed = listed.filter(game=game_name)
        else:
            notices.append(_ignored("game", game_name))
    status = request.GET.get("status", "")
    if status:
        if status in Season.Status.values:
            listed = listed.filter(status=status)
        else:
            notices.append(_ignored("status", status))
    page, notice = page_of(request, listed, PER_PAGE)
    titles = game_titles()
    for season in page.object_list:
        season.game_title = titles.get(season.game, season.game)
    return render(
        request,
        "web/seasons.html",
        {
            "page": page,
            "notices": [*notices, *([notice] if notice else [])],
            "games": titles,
            "statuses": Season.Status.choices,
            "game": game_name,
            "status": status,
        },
    )


def series_index(request: HttpRequest) -> HttpResponse:
    """List every series, newest first; ?game=, ?season=, ?bot=, ?owner= and ?state= filter."""
    listed, notices = filter_series(request.GET, Series.objects.all())
    listed = listed.select_related("season").prefetch_related(seats_prefetch()).order_by("-created", "-pk")
    page, notice = page_of(request, listed, PER_PAGE)
    return render(
        request,
        "web/series_index.html",
        {
            "page": page,
            "notices": [*notices, *([notice] if notice else [])],
            "games": game_titles(),
            "states": SeriesState.choices,
            "filters": {key: request.GET.get(key, "") for key in ("game", "season", "bot", "owner", "state")},
        },
    )


def filter_series(params: Any, listed: QuerySet[Series]) -> tuple[QuerySet[Series], list[str]]:
    """Apply the series filters in ``params``; return the queryset and a notice per value that named nothing."""
    notices = []
    game_name = params.get("game", "")
    if game_name:
        if game_name in engines.names():
            listed = listed.filter(season__game=game_name)
        else:
            notices.append(_ignored("game", game_name))
    for key, field in (("season", "season_id"), ("bot", "seats__version__bot_id")):
        raw = params.get(key, "")
        if not raw:
            continue
        if raw.isascii() and raw.isdigit() and len(raw) <= MAX_ID_DIGITS:
            listed = listed.filter(**{field: int(raw)})
        else:
            notices.append(_ignored(key, raw, "a number"))
    owner = params.get("owner", "")
    if owner:
        if "\x00" in owner:  # PostgreSQL refuses a NUL in a query string: no user can have one anyway
            notices.append(_ignored("owner", owner.replace("\x00", "\\0")))
        else:
            listed = listed.filter(seats__version__bot__owner__username=owner[:150])
    state = params.get("state", "")
    if state:
        if state in SeriesState.values:
            listed = listed.filter(state=state)
        else:
            notices.append(_ignored("state", state))
    return listed.distinct(), notices


def _ignored(key: str, value: str, expected: str = "") -> str:
    shown = value if len(value) <= 30 else value[:30] + "…"
    wanted = f" ({expected})" if expected else ""
    return f"Ignored {key}=“{shown}”: it names nothing here{wanted}."


def user_profile(request: HttpRequest, username: str) -> HttpResponse:
    """Show a user's public page: their bots, each with its newest version and best rating."""
    owner = get_object_or_404(get_user_model(), username=username)
    owned = (
        Bot.objects.filter(owner=owner)
        .annotate(newest=Max("versions__number"), best=Max("versions__ratings__conservative"))
        .order_by("name")
    )
    return render(request, "web/user.html", {"owner": owner, "bots": owned})
