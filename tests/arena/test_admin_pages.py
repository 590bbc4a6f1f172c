"""The admin: every platform model has a working list, and immutable rows cannot be edited there."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from arena.bots.models import BotVersion
from arena.ratings.models import Rating, RatingHistory
from arena.seasons.models import Season, SeasonEntry
from arena.series.models import GameRecord, Series, SeriesResultLog, SeriesSeat

pytestmark = pytest.mark.django_db


@pytest.fixture
def ladder(season: Season, make_version: Callable[..., Any]) -> dict[str, Any]:
    alpha, beta = make_version("alpha"), make_version("beta")
    series = Series.objects.create(season=season, seed=7, state=Series.State.DONE)
    for seat, version in enumerate((alpha, beta)):
        SeasonEntry.objects.create(season=season, version=version)
        SeriesSeat.objects.create(series=series, seat=seat, version=version)
        Rating.objects.create(season=season, version=version, mu=25 + seat, sigma=8)
        RatingHistory.objects.create(season=season, version=version, series=series, mu=25 + seat, sigma=8)
    GameRecord.objects.create(series=series, index=0, winner=alpha, reason="capture", moves=[10, 9])
    SeriesResultLog.objects.create(series=series, result={"games": []})
    return {"season": season, "alpha": alpha, "series": series}


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("bots_bot", "alpha"),
        ("bots_botversion", "alice/alpha v1"),
        ("seasons_season", "Spring"),
        ("seasons_seasonentry", "alice/beta v1"),
        ("series_series", "series "),
        ("series_seriesresultlog", "result of series"),
        ("ratings_rating", "alice/alpha v1"),
        ("ratings_ratinghistory", "alice/beta v1"),
    ],
)
def test_it_lists_every_model(admin_client: Client, ladder: dict[str, Any], model: str, expected: str) -> None:
    response = admin_client.get(reverse(f"admin:{model}_changelist"))
    assert response.status_code == 200
    assert expected in response.content.decode()


def test_it_filters_versions_by_status(admin_client: Client, ladder: dict[str, Any]) -> None:
    BotVersion.objects.filter(pk=ladder["alpha"].pk).update(status=BotVersion.Status.DISABLED)
    page = admin_client.get(reverse("admin:bots_botversion_changelist"), {"status__exact": "disabled"}).content.decode()
    assert "alice/alpha v1" in page
    assert "alice/beta v1" not in page


def test_it_shows_a_series_with_its_seats_and_games(admin_client: Client, ladder: dict[str, Any]) -> None:
    response = admin_client.get(reverse("admin:series_series_change", args=[ladder["series"].pk]))
    assert response.status_code == 200
    assert "capture" in response.content.decode()


def test_it_edits_only_the_status_of_a_version(admin_client: Client, ladder: dict[str, Any]) -> None:
    url = reverse("admin:bots_botversion_change", args=[ladder["alpha"].pk])
    response = admin_client.post(url, {"status": "disabled", "status_reason": "spams stderr", "entry": "evil.py"})
    assert response.status_code == 302
    version = BotVersion.objects.get(pk=ladder["alpha"].pk)
    assert (version.status, version.status_reason, version.entry) == ("disabled", "spams stderr", "main.py")
    assert admin_client.get(reverse("admin:bots_botversion_add")).status_code == 403


def test_it_refuses_a_season_move_off_the_lifecycle(admin_client: Client, ladder: dict[str, Any]) -> None:
    season = ladder["season"]
    url = reverse("admin:seasons_season_change", args=[season.pk])
    form = {
        "name": season.name,
        "game": "watch",
        "rules_version": "1",
        "config": "{}",
        "decision_ms": 2000,
        "bank_ms": 60000,
        "increment_ms": 0,
        "games_per_series": 2,
        "players_per_series": 2,
        "status": "finished",
    }
    response = admin_client.post(url, form)
    assert response.status_code == 200  # the form again, with the error
    assert "cannot go from created to finished" in response.content.decode()
    assert Season.objects.get().status == "created"
    response = admin_client.post(url, {**form, "status": "running"})
    assert response.status_code == 302
    assert Season.objects.get().status == "running"


def test_it_keeps_the_result_log_read_only(admin_client: Client, ladder: dict[str, Any]) -> None:
    log = SeriesResultLog.objects.get()
    assert admin_client.get(reverse("admin:series_seriesresultlog_change", args=[log.pk])).status_code == 200
    assert admin_client.post(reverse("admin:series_seriesresultlog_delete", args=[log.pk])).status_code == 403
    assert SeriesResultLog.objects.count() == 1


def test_its_inlines_of_rows_written_elsewhere_are_read_only(admin_client: Client, ladder: dict[str, Any]) -> None:
    """A bot's versions and a series' games are shown, but no row can be added, deleted or edited there."""
    bot_page = admin_client.get(reverse("admin:bots_bot_change", args=[ladder["alpha"].bot_id])).content.decode()
    assert 'name="versions-INITIAL_FORMS" value="1"' in bot_page
    assert 'name="versions-MAX_NUM_FORMS" value="0"' in bot_page  # no form to add a row
    assert 'name="versions-0-DELETE"' not in bot_page
    assert 'name="versions-0-status"' not in bot_page
    series_page = admin_client.get(reverse("admin:series_series_change", args=[ladder["series"].pk])).content.decode()
    assert 'name="games-INITIAL_FORMS" value="1"' in series_page
    assert 'name="games-MAX_NUM_FORMS" value="0"' in series_page
    assert 'name="games-0-DELETE"' not in series_page
    assert 'name="games-0-winner"' not in series_page
    assert 'name="seats-0-DELETE"' in series_page  # the seats inline is editable: the page has such inputs
