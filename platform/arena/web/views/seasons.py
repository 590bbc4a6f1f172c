"""The season page: its leaderboard (sortable, paginated, fast on tens of thousands of ratings) and its live queue.

A solo season's page is its score ladder instead (arena/series/score_ladder.py): no ratings.
A team game's season shows two leaderboards, its player bots and its GM bots
(arena/ratings/team_boards.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Count, F, Window
from django.db.models.functions import Rank, RowNumber
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from arena.ratings.models import Rating, RatingHistory
from arena.ratings.team_boards import ROLE_BOARDS, builtin_gm, played_with_builtin_gm, team_board
from arena.seasons.models import RECORD_FIELDS, Season
from arena.series.models import Series, SeriesState
from arena.series.score_ladder import ladder_of, ladder_rows
from arena.web.paging import page_of
from arena.web.views.home import game_titles, seats_prefetch
from engines import kinds

PER_PAGE = 50
#: The trend is the change of μ − 3σ over a version's last this-many rating rows.
TREND_ROWS = 5


@dataclass(frozen=True)
class Column:
    """A sortable leaderboard column: its ?sort= key, heading, and the ordering it sorts by (best first)."""

    key: str
    heading: str
    ordering: tuple[str, ...]


#: The whitelist of ?sort= values; "-key" reverses a column.
COLUMNS = (
    Column("rating", "μ − 3σ", ("-conservative",)),
    Column("bot", "Bot", ("version__bot__name", "version__number")),
    Column("owner", "Owner", ("version__bot__owner__username",)),
    Column("mu", "μ", ("-mu",)),
    Column("sigma", "σ", ("sigma",)),
    Column("played", "Series", ("-series_played",)),
    Column("won", "Won", ("-won",)),
    Column("drawn", "Drawn", ("-drawn",)),
    Column("lost", "Lost", ("-lost",)),
    Column("points", "Points", ("-series_points",)),
    Column("game_wins", "Game wins", ("-game_wins",)),
)
SORTS = {column.key: column for column in COLUMNS}
DEFAULT_SORT = "rating"


def flip(field: str) -> str:
    """Return an ordering term reversed."""
    return field[1:] if field.startswith("-") else f"-{field}"


def parse_sort(raw: str) -> tuple[str, tuple[str, ...], str | None]:
    """Return the ?sort= value to use, its ordering, and a notice when ``raw`` was not one of the columns."""
    key = raw.removeprefix("-")
    column = SORTS.get(key)
    if column is None:
        shown = raw if len(raw) <= 30 else raw[:30] + "…"
        choices = ", ".join(SORTS)
        return (
            DEFAULT_SORT,
            SORTS[DEFAULT_SORT].ordering,
            f"Cannot sort by “{shown}”; sorted by rating (μ − 3σ). Columns: {choices}.",
        )
    ordering = column.ordering if not raw.startswith("-") else tuple(flip(f) for f in column.ordering)
    return raw, ordering, None


def aria_sort(column: Column, sort: str) -> str | None:
    """Return the aria-sort value of a column header under ``sort``, None when the column is not the sort key."""
    if sort.removeprefix("-") != column.key:
        return None
    descending = column.ordering[0].startswith("-")
    return "descending" if descending != sort.startswith("-") else "ascending"


def trends(season: Season, version_ids: list[int]) -> dict[int, float]:
    """Return each version's change of μ over its last TREND_ROWS rating rows, in one query.

    μ, not μ − 3σ: σ only shrinks as a bot plays, so μ − 3σ rises even for a bot
    that loses as often as it wins, and its arrow would say "climbing" for all.

    A version with a single row (only its seed) has no trend and is left out.
    """
    rows: dict[int, list[tuple[Any, int, float]]] = defaultdict(list)
    for version_id, recorded_at, pk, mu in _recent_history(season, version_ids):
        rows[version_id].append((recorded_at, pk, mu))
    out = {}
    for version_id, values in rows.items():
        if len(values) > 1:
            values.sort(reverse=True)  # newest first
            out[version_id] = values[0][2] - values[-1][2]
    return out


def _recent_history(season: Season, version_ids: list[int]) -> list[tuple[int, Any, int, float]]:
    """Return ``(version, recorded_at, id, μ)`` of each version's newest TREND_ROWS history rows."""
    if not version_ids:
        return []
    if connection.vendor == "postgresql":
        # Five rows per version straight from the chart index, however long the season: a
        # window over every row of the page's versions read all their history.
        table = RatingHistory._meta.db_table
        sql = (
            "SELECT v.id, h.recorded_at, h.id, h.mu FROM unnest(%s::bigint[]) AS v(id) "
            f"CROSS JOIN LATERAL (SELECT recorded_at, id, mu FROM {table} "
            "WHERE season_id = %s AND version_id = v.id ORDER BY recorded_at DESC, id DESC LIMIT %s) AS h"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [version_ids, season.pk, TREND_ROWS])
            return cursor.fetchall()
    newest = Window(RowNumber(), partition_by=[F("version_id")], order_by=[F("recorded_at").desc(), F("id").desc()])
    recent = (
        RatingHistory.objects.filter(season=season, version_id__in=version_ids)
        .order_by()
        .annotate(newest=newest)
        .filter(newest__lte=TREND_ROWS)
    )
    return list(recent.values_list("version_id", "recorded_at", "id", "mu"))


#: What a leaderboard row shows: loading nothing else keeps the sort of a deep page in memory.
ROW_FIELDS = (
    "mu",
    "sigma",
    "conservative",
    *RECORD_FIELDS,
    "provisional",
    "version_id",
    "version__number",
    "version__bot_id",
    "version__bot__name",
    "version__bot__owner_id",
    "version__bot__owner__username",
)


def season(request: HttpRequest, season_id: int) -> HttpResponse:
    """Show the leaderboard of a season, sorted by ?sort= (a column key, "-" reverses), ?page= of PER_PAGE rows."""
    the_season = get_object_or_404(Season, pk=season_id)
    return BOARDS[the_season.kind.ranking](request, the_season)


def leaderboard(request: HttpRequest, the_season: Season) -> HttpResponse:
    """Show the one leaderboard of a rated season, sorted by ?sort=, ?page= of PER_PAGE rows."""
    sort, ordering, sort_notice = parse_sort(request.GET.get("sort", DEFAULT_SORT))
    ratings = (
        Rating.objects.filter(season=the_season)
        .select_related("version__bot__owner")
        .only(*ROW_FIELDS)
        # The leaderboard position, whatever the page is sorted by; ties on μ − 3σ share it.
        .annotate(rank=Window(Rank(), order_by=[F("conservative").desc()]))
        .order_by(*ordering, "-conservative", "pk")
    )
    page, page_notice = page_of(request, ratings, PER_PAGE)
    rows = list(page.object_list)
    changes = trends(the_season, [row.version_id for row in rows])
    for row in rows:
        row.trend = changes.get(row.version_id)
    headers = [
        {
            "key": column.key,
            "heading": column.heading,
            "next": f"-{column.key}" if sort == column.key else column.key,
            "aria_sort": aria_sort(column, sort),
        }
        for column in COLUMNS
    ]
    return render_season_page(
        request,
        the_season,
        "web/season.html",
        {
            "page": page,
            "rows": rows,
            "headers": {header["key"]: header for header in headers},
            "sort": sort,
            "notices": [n for n in (sort_notice, page_notice) if n],
            "trend_rows": TREND_ROWS,
        },
    )


def render_season_page(
    request: HttpRequest, the_season: Season, template: str, context: dict[str, Any]
) -> HttpResponse:
    """Render a season page (web/_season_page.html): ``context``, the season, its game's title and its live queue."""
    return render(
        request,
        template,
        {
            "season": the_season,
            "game_title": game_titles().get(the_season.game, the_season.game),
            **context,
            **{f"live_{key}": value for key, value in live_context(the_season).items()},
        },
    )


def team_leaderboards(request: HttpRequest, the_season: Season) -> HttpResponse:
    """Show a team game's season: the player bots' and the GM bots' leaderboards (?page= and ?gm_page=)."""
    boards = []
    notices = []
    for (role, title), param in zip(ROLE_BOARDS, ("page", "gm_page"), strict=True):
        page, notice = page_of(request, team_board(the_season, role), PER_PAGE, param)
        boards.append({"role": role, "title": title, "page": page, "rows": list(page.object_list), "param": param})
        notices += [notice] if notice else []
    return render_season_page(
        request,
        the_season,
        "web/team_season.html",
        {
            "boards": boards,
            "builtin": played_with_builtin_gm(the_season),
            "builtin_gm": builtin_gm(the_season),
            "notices": notices,
        },
    )


def score_ladder(request: HttpRequest, the_season: Season) -> HttpResponse:
    """Show a solo season: its score ladder (rank, version, mean score with its interval, title) and live queue."""
    ladder = ladder_of(the_season)
    page, page_notice = page_of(request, ladder_rows(the_season), PER_PAGE)
    return render_season_page(
        request,
        the_season,
        "web/score_ladder.html",
        {
            "page": page,
            "rows": list(page.object_list),
            "titles": [{"threshold": threshold, "title": title} for threshold, title in ladder.titles],
            "forfeit_score": ladder.forfeit_score,
            "notices": [page_notice] if page_notice else [],
        },
    )


#: Series the live section lists: those queued or being played, and the latest finished.
LIVE_QUEUE_SHOWN = 20
LIVE_RECENT_SHOWN = 10


#: The web's table of the kinds of game, keyed by their ranking (engines/kinds.py): a season's board.
BOARDS: dict[str, Callable[[HttpRequest, Season], HttpResponse]] = {
    kinds.RATED: leaderboard,
    kinds.RATED_PER_ROLE: team_leaderboards,
    kinds.SCORE_LADDER: score_ladder,
}


def live_context(the_season: Season) -> dict[str, Any]:
    """Return what the live section of a season page shows: its queue (with counts) and its latest results."""
    series = Series.objects.filter(season=the_season).select_related("season").prefetch_related(seats_prefetch())
    pending = series.filter(state__in=[SeriesState.QUEUED, SeriesState.RUNNING])
    counts = dict(pending.order_by().values_list("state").annotate(n=Count("pk")))
    finished = series.filter(state__in=[SeriesState.DONE, SeriesState.FAILED]).order_by("-finished_at", "-pk")
    return {
        "season": the_season,
        "queued": counts.get(SeriesState.QUEUED, 0),
        "running": counts.get(SeriesState.RUNNING, 0),
        "queue": list(pending.order_by("pk")[:LIVE_QUEUE_SHOWN]),
        "recent": list(finished[:LIVE_RECENT_SHOWN]),
        "refreshes": the_season.status == Season.Status.RUNNING,
    }


def season_live(request: HttpRequest, season_id: int) -> HttpResponse:
    """Send the live section of a season page alone: the page's script swaps it in every few seconds."""
    the_season = get_object_or_404(Season, pk=season_id)
    response = render(request, "web/_season_live.html", live_context(the_season))
    response["Cache-Control"] = "no-store"
    return response
