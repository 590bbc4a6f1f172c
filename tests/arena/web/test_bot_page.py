"""A bot's page: versions and who sees why one failed, rating charts, recent series, head-to-head numbers."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from arena.bots.submissions import mark_validation_result, submit_version
from arena.ratings.models import Rating, RatingHistory
from arena.results.recording import season_parameters
from arena.web.stats import wilson_interval, win_probability
from arena.web.views import bots as bot_views

PACKAGES = Path(__file__).resolve().parents[3] / "bots" / "watch" / "packages"
pytestmark = pytest.mark.django_db

REASON = "the bot crashed on its first request: ImportError: No module named numpy"


@pytest.fixture
def failed_version(ladder: dict[str, Any]) -> Any:
    """A second version of ann's chatty that failed its validation, with a reason."""
    version = submit_version(ladder["users"]["ann"], "chatty", PACKAGES / "greedy")
    return mark_validation_result(version, False, REASON)


def page_of(client: Any, bot_id: int, **params: Any) -> str:
    response = client.get(reverse("bot", args=[bot_id]), params)
    assert response.status_code == 200
    return response.content.decode()


def test_it_shows_versions_with_status_to_everyone_and_the_reason_to_owner_and_staff(
    ladder: dict[str, Any], failed_version: Any, client_of: Callable[[Any], Any], make_user: Callable[..., Any]
) -> None:
    bot_id = failed_version.bot_id
    staff = make_user("operator", is_staff=True)
    for viewer, sees_reason in (
        (None, False),
        (ladder["users"]["bob"], False),
        (ladder["users"]["ann"], True),
        (staff, True),
    ):
        page = page_of(client_of(viewer), bot_id)
        assert "failed validation" in page
        assert "v2" in page
        assert "v1" in page
        assert (REASON in page) is sees_reason, viewer
        download = reverse("bot-version-download", args=[bot_id, 1])
        assert (download in page) is sees_reason


def test_it_draws_a_rating_chart_per_season_with_axis_labels(ladder: dict[str, Any], client_of: Any) -> None:
    version = ladder["versions"]["greedy"]
    page = page_of(client_of(None), version.bot_id)
    history = RatingHistory.objects.filter(version=version).order_by("recorded_at", "id")
    assert history.count() == 3  # the seed and two series
    chart = page.split("<svg", 1)[1].split("</svg>", 1)[0]
    assert "Rating of greedy in Web ladder" in chart
    assert f"{history.count()} ratings" in chart
    latest = history.last()
    assert f"latest μ {latest.mu:.2f}, σ {latest.sigma:.2f}, μ − 3σ {latest.conservative:.2f}" in chart
    mu_path = re.search(r'<path class="mu" d="([^"]+)"', chart).group(1)
    assert mu_path.count("L") == history.count() - 1  # one point per rating
    assert re.search(r'<path class="conservative" d="M', chart)
    assert '<polygon class="band"' in chart
    ticks = re.findall(r'text-anchor="end" dominant-baseline="middle">(-?[\d.]+)</text>', chart)
    assert len(ticks) >= 3
    assert float(ticks[0]) <= min(h.conservative for h in history)
    assert ">v1</text>" in chart


def test_its_head_to_head_record_and_win_chance_come_from_the_seats_and_current_ratings(
    ladder: dict[str, Any], client_of: Any
) -> None:
    chatty, greedy = ladder["versions"]["chatty"], ladder["versions"]["greedy"]
    series = ladder["series"][0]  # chatty v greedy
    mine, theirs = (series.seats.get(version=v) for v in (chatty, greedy))
    outcome = "won" if mine.rank < theirs.rank else "drawn" if mine.rank == theirs.rank else "lost"
    a, b = Rating.objects.get(version=chatty), Rating.objects.get(version=greedy)
    chance = win_probability(a.mu, a.sigma, b.mu, b.sigma, season_parameters(ladder["season"]).beta)
    share = {"won": 1, "drawn": 0.5, "lost": 0}[outcome]
    low, high = wilson_interval(share, 1)

    page = page_of(client_of(None), chatty.bot_id)
    table = page.split("Against each opponent", 1)[1].split("</table>", 1)[0]
    row = next(r for r in table.split("<tr>") if ">greedy</a>" in r)
    cells = re.findall(r'<td class="num">(.*?)</td>', row, re.S)
    record = [int(c) for c in cells[:4]]
    assert record == [1, outcome == "won", outcome == "drawn", outcome == "lost"]
    assert f"{share * 100:.0f}%" in cells[4]
    assert f"({low * 100:.0f}%–{high * 100:.0f}%)" in cells[4]
    assert f">{chance * 100:.0f}%</span>" in cells[5]


def test_its_recent_series_are_paginated(ladder: dict[str, Any], client_of: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(bot_views, "SERIES_PER_PAGE", 1)
    chatty = ladder["versions"]["chatty"]
    newest, older = ladder["series"][2], ladder["series"][0]  # chatty played series 1 and 3
    first = page_of(client_of(None), chatty.bot_id).split("Recent series", 1)[1]
    second = page_of(client_of(None), chatty.bot_id, page=2).split("Recent series", 1)[1]
    assert f"#{newest.pk}<" in first
    assert f"#{older.pk}<" not in first
    assert f"#{older.pk}<" in second
    assert "Page 2 of 2" in second
    bad = page_of(client_of(None), chatty.bot_id, page="7")
    assert "There is no page 7" in bad


def test_an_unknown_bot_is_a_404(db: None, client_of: Any) -> None:
    assert client_of(None).get(reverse("bot", args=[424242])).status_code == 404


def test_it_shows_the_most_played_opponents_and_links_to_all(
    ladder: dict[str, Any], client_of: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr(bot_views, "OPPONENTS_SHOWN", 1)
    chatty = ladder["versions"]["chatty"]
    table = page_of(client_of(None), chatty.bot_id).split("Against each opponent", 1)[1].split("</section>", 1)[0]
    assert table.count("<tr>") == 2  # the heading row and one opponent
    assert '1 more: <a href="?opponents=all#h2h-heading">show all</a>' in table
    every = page_of(client_of(None), chatty.bot_id, opponents="all").split("Against each opponent", 1)[1]
    assert every.split("</section>", 1)[0].count("<tr>") == 3
    assert "show all" not in every.split("</section>", 1)[0]


def test_a_chart_marks_each_version_once_where_its_ratings_start_even_when_two_versions_take_turns() -> None:
    from datetime import UTC, datetime, timedelta

    from arena.web.charts import RatingPoint, rating_chart

    start = datetime(2026, 1, 1, tzinfo=UTC)
    # v1 and v2 of one bot both active in a season: their ratings alternate in time.
    history = [
        RatingPoint(start + timedelta(minutes=i), 25.0 + i % 3, 8.0 - i / 100, 1 if i < 3 else 1 + i % 2, 0.0)
        for i in range(300)
    ]
    chart = rating_chart(history)
    assert chart is not None
    assert [marker.label for marker in chart.markers] == ["v1", "v2"]
    assert chart.markers[0].x < chart.markers[1].x


def test_each_version_says_what_it_is_doing_and_a_retired_ones_series_are_not_counted(
    season: Any, make_version: Callable[..., Any]
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from arena.bots.models import BotVersion
    from arena.seasons.models import Season, SeasonEntry
    from arena.series.models import Series, SeriesState
    from arena.web.version_state import version_states

    season.transition(Season.Status.RUNNING)
    old, new, rival = make_version("ann"), make_version("ann"), make_version("bob")
    BotVersion.objects.filter(pk=old.pk).update(status=BotVersion.Status.RETIRED)
    old.refresh_from_db()
    SeasonEntry.objects.create(season=season, version=new)
    finished = timezone.now().replace(year=2026, month=1, day=2, hour=3, minute=4)
    for seed, (first, state) in enumerate(
        [(old, SeriesState.DONE), (new, SeriesState.QUEUED), (new, SeriesState.DONE), (new, SeriesState.FAILED)]
    ):
        series = Series.objects.create(season=season, seed=seed, state=state)
        if state in (SeriesState.DONE, SeriesState.FAILED):  # the failed one later: not a finished series
            Series.objects.filter(pk=series.pk).update(finished_at=finished.replace(day=2 + seed))
        series.seats.create(seat=0, version=first)
        series.seats.create(seat=1, version=rival)
    with CaptureQueriesContext(connection) as queries:
        states = version_states([new, old])
    assert states[old.pk] == ["Retired: a newer version plays in its place."]
    assert states[new.pk][:2] == ["Active in Spring.", "1 series queued or being played now."]
    assert states[new.pk][2] == "Last series finished 2026-01-04 03:04 UTC."
    counted = [q["sql"] for q in queries.captured_queries if "COUNT" in q["sql"]]
    assert len(counted) == 1
    (read,) = re.findall(r'"version_id" IN \(([^)]*)\)', counted[0])
    assert read.split(", ") == [str(new.pk)]
