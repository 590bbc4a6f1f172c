"""The series result log: one row per series, never changed, the input of a season's recompute."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from arena.seasons.models import Season
from arena.series.models import AppendOnlyError, Series, SeriesResultLog

pytestmark = pytest.mark.django_db

RESULT = {"games": [], "score": {"points": [1.5, 0.5], "winner": 0}}


@pytest.fixture
def logged(season: Season) -> SeriesResultLog:
    return SeriesResultLog.objects.create(series=Series.objects.create(season=season, seed=1), result=RESULT)


def test_it_records_a_series_result_once(logged: SeriesResultLog) -> None:
    with pytest.raises(IntegrityError, match="series_id"), transaction.atomic():
        SeriesResultLog.objects.create(series=logged.series, result={"games": [], "score": {}})
    assert SeriesResultLog.objects.get().result == RESULT


def test_it_refuses_to_change_a_logged_result(logged: SeriesResultLog) -> None:
    logged.result = {"tampered": True}
    with pytest.raises(AppendOnlyError, match=f"result of series {logged.series_id} is in the append-only result log"):
        logged.save()
    assert SeriesResultLog.objects.get().result == RESULT


def test_it_refuses_to_delete_a_logged_result(logged: SeriesResultLog) -> None:
    with pytest.raises(AppendOnlyError, match="cannot be deleted"):
        logged.delete()
    with pytest.raises(ProtectedError):
        logged.series.delete()  # nor through its series
    assert SeriesResultLog.objects.count() == 1


def test_it_replays_in_the_order_results_were_recorded(season: Season, logged: SeriesResultLog) -> None:
    later = SeriesResultLog.objects.create(series=Series.objects.create(season=season, seed=2), result={"n": 2})
    assert list(SeriesResultLog.objects.filter(series__season=season)) == [logged, later]
