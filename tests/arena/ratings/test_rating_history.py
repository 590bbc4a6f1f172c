"""Rating history: an append-only record of each version's rating after each series."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, transaction

from arena.ratings.models import RatingHistory
from arena.seasons.models import Season
from arena.series.models import AppendOnlyError, Series

pytestmark = pytest.mark.django_db


def test_it_records_a_rating_after_each_series(season: Season, make_version: Callable[..., Any]) -> None:
    version = make_version("alpha")
    seed = RatingHistory.objects.create(season=season, version=version, series=None, mu=25.0, sigma=8.0)
    first = Series.objects.create(season=season, seed=1)
    after = RatingHistory.objects.create(season=season, version=version, series=first, mu=27.0, sigma=7.0)
    history = list(RatingHistory.objects.filter(season=season, version=version))
    assert history == [seed, after]
    assert [row.conservative for row in history] == [pytest.approx(1.0), pytest.approx(6.0)]


def test_it_moves_a_rating_once_per_series(season: Season, make_version: Callable[..., Any]) -> None:
    version = make_version("alpha")
    series = Series.objects.create(season=season, seed=1)
    RatingHistory.objects.create(season=season, version=version, series=series, mu=27.0, sigma=7.0)
    with pytest.raises(IntegrityError, match="rating_history_once_per_series"), transaction.atomic():
        RatingHistory.objects.create(season=season, version=version, series=series, mu=29.0, sigma=6.0)


def test_it_refuses_to_change_a_recorded_rating(season: Season, make_version: Callable[..., Any]) -> None:
    row = RatingHistory.objects.create(season=season, version=make_version("alpha"), mu=25.0, sigma=8.0)
    row.mu = 99.0
    with pytest.raises(AppendOnlyError, match="is append-only"):
        row.save()
    row.refresh_from_db()
    assert row.mu == 25.0
