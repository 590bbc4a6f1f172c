"""Rating change per series, Δμ and Δ(μ − 3σ), on the series page and in the bot page's series list."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from arena.ratings.models import RatingHistory
from arena.web.deltas import rating_changes

pytestmark = pytest.mark.django_db


def expected(series: Any, version: Any) -> tuple[float, float]:
    """The change worked out from the history rows directly: this series' row minus the one before it."""
    rows = list(RatingHistory.objects.filter(season=series.season, version=version).order_by("recorded_at", "id"))
    index = next(i for i, row in enumerate(rows) if row.series_id == series.pk)
    return rows[index].mu - rows[index - 1].mu, rows[index].conservative - rows[index - 1].conservative


def shown(value: float) -> str:
    rounded = round(value, 2)
    return f"+{rounded:.2f}" if rounded > 0 else (f"−{-rounded:.2f}" if rounded < 0 else "0.00")


def test_the_changes_come_from_the_rating_history(ladder: dict[str, Any]) -> None:
    for series in ladder["series"]:
        seats = list(series.seats.all())
        changes = rating_changes([(series.pk, seat.version_id) for seat in seats])
        for seat in seats:
            mu, conservative = expected(series, seat.version)
            assert changes[series.pk, seat.version_id].mu == pytest.approx(mu)
            assert changes[series.pk, seat.version_id].conservative == pytest.approx(conservative)
        winner, loser = sorted(seats, key=lambda seat: seat.rank)
        if winner.rank != loser.rank:
            assert changes[series.pk, winner.version_id].mu > 0 > changes[series.pk, loser.version_id].mu


def test_the_series_page_shows_each_seats_change(ladder: dict[str, Any]) -> None:
    series = ladder["series"][2]  # each bot's second series: its change starts from a rated value, not the seed
    page = Client().get(f"/series/{series.pk}/").content.decode()
    assert '<th scope="col" class="num">Δμ</th>' in page
    for seat in series.seats.all():
        mu, conservative = expected(series, seat.version)
        assert f'<td class="num">{shown(mu)}</td>' in page
        assert f'<td class="num">{shown(conservative)}</td>' in page


def test_the_bot_page_shows_the_change_of_each_of_its_series(ladder: dict[str, Any]) -> None:
    greedy = ladder["versions"]["greedy"]
    page = Client().get(f"/bots/{greedy.bot_id}/").content.decode()
    recent = page.split('id="series-heading"')[1].split("</section>")[0]
    for series in ladder["series"][:2]:  # greedy played the first two
        mu, conservative = expected(series, greedy)
        row = re.search(rf"#{series.pk}</a>.*?</tr>", recent, re.S)
        assert row is not None
        assert f'<td class="num">{shown(mu)}</td>' in row.group(0)
        assert f'<td class="num">{shown(conservative)}</td>' in row.group(0)


def test_a_series_not_recorded_yet_shows_no_change(ladder: dict[str, Any]) -> None:
    from arena.series.models import Series, SeriesSeat

    queued = Series.objects.create(season=ladder["season"], seed=3)
    for seat, name in enumerate(("chatty", "random")):
        SeriesSeat.objects.create(series=queued, seat=seat, version=ladder["versions"][name])
    assert rating_changes([(queued.pk, ladder["versions"]["chatty"].pk)]) == {}
    page = Client().get(f"/series/{queued.pk}/").content.decode()
    assert page.count('<td class="num">–</td>') >= 4
