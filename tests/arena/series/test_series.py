"""Series, their seats and game records: each seat and game once, each version once per series."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction

from arena.seasons.models import Season
from arena.series.models import GameRecord, Series, SeriesSeat

pytestmark = pytest.mark.django_db


@pytest.fixture
def series(season: Season) -> Series:
    return Series.objects.create(season=season, seed=2001)


def test_it_queues_a_new_series(series: Series) -> None:
    assert (series.state, series.attempts, series.result, series.replay_location) == ("queued", 0, None, "")


def test_it_refuses_an_unknown_state(series: Series) -> None:
    with pytest.raises(IntegrityError, match="series_state"), transaction.atomic():
        Series.objects.filter(pk=series.pk).update(state="lost")


def test_it_seats_each_seat_once(series: Series, make_version: Callable[..., Any]) -> None:
    SeriesSeat.objects.create(series=series, seat=0, version=make_version("alpha"))
    with pytest.raises(IntegrityError, match="series_seat_unique"), transaction.atomic():
        SeriesSeat.objects.create(series=series, seat=0, version=make_version("beta"))


def test_it_never_seats_a_version_against_itself(series: Series, make_version: Callable[..., Any]) -> None:
    version = make_version("alpha")
    SeriesSeat.objects.create(series=series, seat=0, version=version)
    with pytest.raises(IntegrityError, match="series_seat_version_once"), transaction.atomic():
        SeriesSeat.objects.create(series=series, seat=1, version=version)


def test_it_records_each_game_once(series: Series, make_version: Callable[..., Any]) -> None:
    winner = make_version("alpha")
    GameRecord.objects.create(series=series, index=0, winner=winner, reason="capture", moves=[12, 11])
    GameRecord.objects.create(series=series, index=1, winner=None, reason="colour", moves=[9, 9])
    with pytest.raises(IntegrityError, match="game_record_unique"), transaction.atomic():
        GameRecord.objects.create(series=series, index=1, reason="capture", moves=[1, 0])
    assert [(g.index, g.winner) for g in series.games.all()] == [(0, winner), (1, None)]


def test_it_finds_a_versions_series_through_its_seats(season: Season, make_version: Callable[..., Any]) -> None:
    alpha, beta, gamma = make_version("alpha"), make_version("beta"), make_version("gamma")
    played = []
    for opponent in (beta, gamma):
        series = Series.objects.create(season=season, seed=len(played))
        SeriesSeat.objects.create(series=series, seat=0, version=alpha)
        SeriesSeat.objects.create(series=series, seat=1, version=opponent)
        played.append(series)
    assert list(Series.objects.filter(seats__version=alpha).order_by("pk")) == played
    assert list(Series.objects.filter(seats__version=beta)) == [played[0]]


def index_columns(table: str) -> dict[str, tuple[list[str], list[str]]]:
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, table)
    return {name: (c["columns"], c.get("orders") or []) for name, c in found.items() if c["index"]}


def test_it_indexes_match_lists_and_a_versions_series() -> None:
    assert index_columns("series_series")["series_season_state_created"][0] == ["season_id", "state", "created"]
    assert index_columns("series_seriesseat")["series_seat_version_series"][0] == ["version_id", "series_id"]
