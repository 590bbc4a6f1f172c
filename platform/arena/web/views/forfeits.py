"""A version's error history: every game it forfeited, with the reason, the move, the replay and its stderr."""

from __future__ import annotations

from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from arena.bots.models import BotVersion
from arena.series.models import GameRecord
from arena.web.access import owns_or_staff, public_forfeit
from arena.web.paging import page_of
from arena.web.reasons import in_words

PER_PAGE = 50


def version_forfeits(request: HttpRequest, bot_id: int, number: int) -> HttpResponse:
    """List the games version ``number`` of bot ``bot_id`` forfeited, newest first, ?page= of PER_PAGE."""
    version = get_object_or_404(BotVersion.objects.select_related("bot__owner"), bot_id=bot_id, number=number)
    # One filter() call: the seat annotated is the seat of this version in the game's series.
    games = (
        GameRecord.objects.filter(forfeit__isnull=False, series__seats__version=version)
        .annotate(version_seat=F("series__seats__seat"))
        .select_related("series__season")
        .order_by("-series__finished_at", "-series_id", "index")
    )
    page, notice = page_of(request, [game for game in games if _forfeited_by(game)], PER_PAGE)
    private = owns_or_staff(request.user, version.bot)
    for game in page.object_list:
        # A game of secrets: the moves legal then name the version's hidden cards, for its owner and staff.
        game.forfeit = public_forfeit(game.series.season.game, game.forfeit, full=private)
        made = game.moves[game.version_seat] if game.version_seat < len(game.moves) else 0
        game.move_number = made + 1
        game.reason_words = in_words(game.series.season.game, str(game.forfeit.get("reason", "")))
    return render(
        request,
        "web/forfeits.html",
        {
            "version": version,
            "bot": version.bot,
            "page": page,
            "private": private,
            "validation_runs": [run for run in version.validation_runs.all() if not run.passed],
            "notices": [notice] if notice else [],
        },
    )


def _forfeited_by(game: GameRecord) -> bool:
    """True when the forfeit of ``game`` is the version's own (its series player is the seat annotated)."""
    forfeit = game.forfeit or {}
    return forfeit.get("player") == game.version_seat  # type: ignore[attr-defined]
