"""Ratings: one per version and season, the conservative rating always μ − 3σ, served by an index."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction

from arena.ratings.models import Rating
from arena.seasons.models import Season

pytestmark = pytest.mark.django_db


def test_it_computes_the_conservative_rating(season: Season, make_version: Callable[..., Any]) -> None:
    rating = Rating.objects.create(season=season, version=make_version("alpha"), mu=25.0, sigma=25 / 3)
    rating.refresh_from_db()
    assert rating.conservative == pytest.approx(0.0)
    assert (rating.series_played, rating.series_points, rating.provisional) == (0, Decimal("0.0"), True)


def test_it_keeps_the_conservative_rating_right_however_a_row_is_written(
    season: Season, make_version: Callable[..., Any]
) -> None:
    rating = Rating.objects.create(season=season, version=make_version("alpha"), mu=25.0, sigma=8.0)
    Rating.objects.filter(pk=rating.pk).update(mu=30.0, sigma=2.0)
    assert Rating.objects.get().conservative == pytest.approx(24.0)


def test_it_keeps_one_rating_per_version_and_season(season: Season, make_version: Callable[..., Any]) -> None:
    version = make_version("alpha")
    Rating.objects.create(season=season, version=version, mu=25.0, sigma=8.0)
    Rating.objects.create(season=Season.objects.create(name="Summer", game="watch"), version=version, mu=25, sigma=8)
    with pytest.raises(IntegrityError, match="rating_unique_per_season"), transaction.atomic():
        Rating.objects.create(season=season, version=version, mu=20.0, sigma=8.0)


def test_it_refuses_a_sigma_that_is_not_positive(season: Season, make_version: Callable[..., Any]) -> None:
    with pytest.raises(IntegrityError, match="rating_sigma_positive"), transaction.atomic():
        Rating.objects.create(season=season, version=make_version("alpha"), mu=25.0, sigma=0.0)


def test_it_stores_series_points_in_halves(season: Season, make_version: Callable[..., Any]) -> None:
    Rating.objects.create(season=season, version=make_version("alpha"), mu=25, sigma=8, series_points=Decimal("3.5"))
    assert Rating.objects.get().series_points == Decimal("3.5")


def test_it_lists_the_leaderboard_by_conservative_rating(season: Season, make_version: Callable[..., Any]) -> None:
    for name, mu, sigma in [("steady", 26.0, 1.0), ("lucky", 40.0, 6.0), ("new", 25.0, 8.333)]:
        Rating.objects.create(season=season, version=make_version(name), mu=mu, sigma=sigma)
    board = [r.version.bot.name for r in Rating.objects.filter(season=season).select_related("version__bot")]
    assert board == ["steady", "lucky", "new"]  # 23, 22, 0: a high but uncertain μ ranks lower


def test_it_indexes_the_leaderboard() -> None:
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, "ratings_rating")
    index = constraints["rating_leaderboard"]
    assert index["columns"] == ["season_id", "conservative"]
    assert index["orders"] == ["ASC", "DESC"]
