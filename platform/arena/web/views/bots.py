"""A bot's page (versions, rating charts, recent series, head-to-head) and its archive download."""

from __future__ import annotations

from collections import defaultdict

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from arena.bots.artifacts import archive_path
from arena.bots.models import Bot, BotVersion
from arena.ratings.models import Rating, RatingHistory
from arena.seasons.models import Season
from arena.series.models import SeriesSeat
from arena.web.access import owns_or_staff
from arena.web.charts import RatingPoint, rating_chart
from arena.web.deltas import rating_changes
from arena.web.head_to_head import head_to_head
from arena.web.paging import page_of
from arena.web.version_state import version_states
from arena.web.views.home import seats_prefetch

SERIES_PER_PAGE = 20
#: Opponents shown per season on a bot page, the most played first; ?opponents=all shows every one.
OPPONENTS_SHOWN = 20


def charts(bot: Bot) -> list[dict[str, object]]:
    """Return one rating chart per season the bot's versions played, newest season first.

    In a team game a version has a rating per role (player, GM): one chart per season and role,
    so that the two ratings are never drawn as one line.
    """
    history: dict[tuple[int, str], list[RatingPoint]] = defaultdict(list)
    for season_id, role, recorded_at, mu, sigma, number, conservative in (
        RatingHistory.objects.filter(version__bot=bot)
        .order_by("recorded_at", "id")
        .values_list("season_id", "role", "recorded_at", "mu", "sigma", "version__number", "conservative")
    ):
        history[season_id, role].append(RatingPoint(recorded_at, mu, sigma, number, conservative))
    seasons = Season.objects.filter(pk__in={season_id for season_id, _ in history}).order_by("-created")
    return [
        {"season": season, "role": role, "chart": rating_chart(history[season.pk, role])}
        for season in seasons
        for role in sorted(role for season_id, role in history if season_id == season.pk)
    ]


def bot(request: HttpRequest, bot_id: int) -> HttpResponse:
    """Show a bot: versions and status, rating per season, recent series (?page=), record against each opponent."""
    the_bot = get_object_or_404(Bot.objects.select_related("owner"), pk=bot_id)
    private = owns_or_staff(request.user, the_bot)
    versions = list(the_bot.versions.order_by("-number"))
    states = version_states(versions)
    for version in versions:
        version.state_lines = states[version.pk]  # type: ignore[attr-defined]
    ratings = (
        Rating.objects.filter(version__bot=the_bot)
        .select_related("season", "version")
        .order_by("-season__created", "-version__number", "role")
    )
    # A page of the bot's seats, newest first: ids from the (version, series) index alone, then
    # only that page's rows with their series, seasons and players (not every series of the bot).
    newest = SeriesSeat.objects.filter(version__in=[v.pk for v in versions]).order_by("-series_id")
    page, page_notice = page_of(request, newest.values_list("pk", flat=True), SERIES_PER_PAGE)
    page.object_list = list(
        SeriesSeat.objects.filter(pk__in=list(page.object_list))
        .select_related("series__season", "version")
        .prefetch_related(Prefetch("series__seats", queryset=seats_prefetch().queryset))
        .order_by("-series_id")
    )
    changes = rating_changes([(seat.series_id, seat.version_id) for seat in page.object_list])
    for seat in page.object_list:
        seat.rating_change = changes.get((seat.series_id, seat.version_id))
    show_all = request.GET.get("opponents") == "all"
    return render(
        request,
        "web/bot.html",
        {
            "bot": the_bot,
            "private": private,
            "versions": versions,
            "ratings": list(ratings),
            "charts": charts(the_bot),
            "page": page,
            "notices": [page_notice] if page_notice else [],
            "head_to_head": head_to_head(the_bot, limit=None if show_all else OPPONENTS_SHOWN),
            "all_opponents": show_all,
        },
    )


@login_required
def version_download(request: HttpRequest, bot_id: int, number: int) -> FileResponse:
    """Send a version's archive to its owner or staff; anybody else gets a 403."""
    version = get_object_or_404(BotVersion.objects.select_related("bot__owner"), bot_id=bot_id, number=number)
    if not owns_or_staff(request.user, version.bot):
        raise PermissionDenied("Only the bot's owner and staff can download its archives.")
    path = archive_path(version.archive_sha256, version.archive_format)
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise Http404(f"The archive of {version} is missing from the artifact store; ask an operator.") from None
    return FileResponse(
        handle, as_attachment=True, filename=f"{version.bot.name}-v{version.number}.{version.archive_format}"
    )
