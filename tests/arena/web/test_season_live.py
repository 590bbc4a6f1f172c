"""A season page's live part: the series queued and being played, and the latest results, also served alone."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from arena.seasons.models import Season
from arena.series.models import Series, SeriesSeat, SeriesState

pytestmark = pytest.mark.django_db


def queue(season: Any, versions: list[Any], state: str = SeriesState.QUEUED) -> Series:
    series = Series.objects.create(season=season, seed=5, state=state)
    for seat, version in enumerate(versions):
        SeriesSeat.objects.create(series=series, seat=seat, version=version)
    return series


def test_the_season_page_shows_its_queue_and_latest_results(ladder: dict[str, Any]) -> None:
    versions = ladder["versions"]
    waiting = queue(ladder["season"], [versions["chatty"], versions["random"]])
    playing = queue(ladder["season"], [versions["greedy"], versions["chatty"]], SeriesState.RUNNING)
    text = Client().get(f"/seasons/{ladder['season'].pk}/").content.decode()
    assert "Now playing" in text
    assert "1 series queued, 1 being played." in text
    assert f'href="/series/{waiting.pk}/"' in text
    assert f'href="/series/{playing.pk}/"' in text
    assert "Latest results" in text
    for done in ladder["series"]:
        assert f'href="/series/{done.pk}/"' in text
    assert f'data-live-url="/seasons/{ladder["season"].pk}/live/"' in text  # the page's script refreshes it
    assert "web/live.js" in text


def test_the_live_part_alone_is_a_fragment_not_cached(ladder: dict[str, Any]) -> None:
    queue(ladder["season"], [ladder["versions"]["chatty"], ladder["versions"]["random"]])
    response = Client().get(f"/seasons/{ladder['season'].pk}/live/")
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    text = response.content.decode()
    assert "<html" not in text
    assert "1 series queued." in text


def test_a_running_season_with_an_empty_queue_says_what_comes_next(ladder: dict[str, Any]) -> None:
    text = Client().get(f"/seasons/{ladder['season'].pk}/live/").content.decode()
    assert "Nothing queued: the matchmaker queues the next round in a few seconds." in text


def test_a_finished_season_does_not_refresh(ladder: dict[str, Any]) -> None:
    Season.objects.filter(pk=ladder["season"].pk).update(status=Season.Status.FINISHED)
    text = Client().get(f"/seasons/{ladder['season'].pk}/").content.decode()
    assert "data-live-url" not in text
    assert "nothing is queued" in text


@pytest.mark.parametrize("path", ["/seasons/999999/live/", "/seasons/abc/live/", "/seasons/1%00/live/"])
def test_a_live_part_of_no_season_is_a_404(path: str) -> None:
    assert Client().get(path).status_code == 404
