"""The ladder's pace: the matchmaker keeps the series outstanding at twice the match workers' capacity.

The capacity is read from the records the match workers keep in Redis (written
here by the workers' own :class:`workers.health.Monitor`), on a database of the
run's own Redis server (tests/conftest.py); series are created in PostgreSQL
and never sent (``enqueue`` is replaced by a list), since no worker plays them.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest
import redis
from django.contrib.auth import get_user_model

from arena.matchmaking import pace, scheduling
from arena.matchmaking.pace import Capacity, SeasonLoad
from arena.ops import tasks
from arena.results.recording import record_series_result
from arena.seasons.models import Season, SeasonEntry
from arena.series.models import Series, SeriesSeat, SeriesState
from tests.results import result_document
from workers import health

pytestmark = pytest.mark.django_db


@pytest.fixture
def broker(settings: Any, own_redis_server: str) -> Iterator[redis.Redis]:
    """The platform's broker setting on a database of this run's own Redis, emptied before and after."""
    url = f"{own_redis_server}/5"
    client = redis.Redis.from_url(url)
    client.flushdb()
    settings.CELERY_BROKER_URL = url
    settings.ARENA_MATCHMAKER_DEPTH_PER_PROCESS = 2
    yield client
    client.flushdb()
    client.close()


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The series the matchmaker sent to the match workers (nothing is sent for real)."""
    ids: list[int] = []
    monkeypatch.setattr(scheduling, "enqueue", lambda series: ids.append(series.pk))
    return ids


def report(client: redis.Redis, name: str, concurrency: int, out: bool = False, heartbeat_age_s: float = 0) -> None:
    """Write match worker ``name``'s health record as its main process does."""
    monitor = health.Monitor()
    monitor.worker = name
    monitor.broker_url = _url(client)
    monitor.concurrency = concurrency
    monitor.out = health.Out("its cache has 0.0 MB free", time.time(), None) if out else None
    monitor.publish()
    if heartbeat_age_s:
        client.hset(health.record_key(name), "heartbeat", time.time() - heartbeat_age_s)


def _url(client: redis.Redis) -> str:
    kwargs = client.connection_pool.connection_kwargs
    return f"redis://{kwargs['host']}:{kwargs['port']}/{kwargs['db']}"


def make_season(name: str, size: int, make_version: Callable[..., Any]) -> Season:
    """A running Watch season of ``size`` versions, each of its own bot and owner."""
    season = Season.objects.create(name=name, game="watch", games_per_series=2)
    season.transition(Season.Status.RUNNING)
    for number in range(size):
        owner = get_user_model().objects.create_user(f"{name}-{number}")
        SeasonEntry.objects.create(season=season, version=make_version(f"{name}-bot-{number}", owner=owner))
    return season


def outstanding(season: Season) -> int:
    return Series.objects.filter(season=season, state__in=[SeriesState.QUEUED, SeriesState.RUNNING]).count()


def result_of(series: Series) -> dict[str, Any]:
    """A two-game Watch result in which seat 0 wins both, as a match worker sends it."""
    seats = list(SeriesSeat.objects.filter(series=series).order_by("seat").select_related("version__bot"))
    game = {"winners": [0], "reason": "capture", "forfeit": None, "stats": {"0": {"moves": 9}, "1": {"moves": 8}}}
    return result_document(
        players=[{"name": s.version.bot.name, "sha256": s.version.archive_sha256} for s in seats],
        games=[{**game, "index": index, "seats": [index, 1 - index], "actions": []} for index in range(2)],
        score={"winner": 0, "points": [2.0, 0.0], "game_wins": [2, 0]},
        started_at=time.time() - 1.5,
    )


def test_it_counts_the_processes_of_the_workers_in_service_only(broker: redis.Redis) -> None:
    report(broker, "two@a", 2)
    report(broker, "three@b", 3)
    report(broker, "sick@c", 4, out=True)  # took itself out: contributes nothing
    report(broker, "frozen@d", 8, heartbeat_age_s=3 * health.PROBE_INTERVAL_S)  # no fresh heartbeat
    broker.hincrby(health.record_key("gone@e"), "series_played", 1)  # a pool process's note after its worker stopped
    assert pace.read_capacity(broker) == Capacity(processes=5, workers=2)


def test_a_worker_that_stops_withdraws_its_record(broker: redis.Redis) -> None:
    monitor = health.Monitor()
    monitor.worker, monitor.broker_url, monitor.concurrency = "leaving@a", _url(broker), 2
    monitor.publish()
    assert pace.read_capacity(broker).processes == 2
    monitor.stop()
    assert pace.read_capacity(broker) == Capacity(processes=0, workers=0)


def test_the_record_says_how_many_series_the_worker_runs_at_once(broker: redis.Redis) -> None:
    consumer = SimpleNamespace(controller=SimpleNamespace(concurrency=3))
    assert health.pool_size(consumer) == 3
    assert health.pool_size(SimpleNamespace(controller=None)) == 1
    report(broker, "w@a", health.pool_size(consumer))
    record = broker.hgetall(health.record_key("w@a"))
    assert record[b"concurrency"] == b"3"
    assert float(record[b"probe_s"]) == health.PROBE_INTERVAL_S


def test_the_target_is_two_series_per_process() -> None:
    assert pace.target_depth(Capacity(processes=4, workers=2), 2) == 8
    assert pace.target_depth(Capacity(processes=0, workers=0), 2) == 0
    with pytest.raises(ValueError, match="depth_per_process"):
        pace.target_depth(Capacity(processes=4, workers=2), 0)


def test_the_split_serves_every_season_before_any_gets_a_second_slot() -> None:
    big, small, empty = SeasonLoad(1, 150.0, 0), SeasonLoad(2, 1.0, 0), SeasonLoad(3, 0.0, 0)
    assert pace.split(2, [big, small, empty]) == {1: 1, 2: 1}
    shares = pace.split(100, [big, small])
    assert sum(shares.values()) == 100
    assert shares[2] == 1  # its one slot against 150 to 1, not none
    # 6 outstanding for 6 of weight against none for 2: the second catches up first, then they alternate.
    assert pace.split(4, [SeasonLoad(1, 6.0, 6), SeasonLoad(2, 2.0, 0)]) == {2: 3, 1: 1}


def test_the_matchmaker_fills_to_the_target_and_no_further(
    broker: redis.Redis, make_version: Callable[..., Any], sent: list[int]
) -> None:
    big, small = make_season("big", 20, make_version), make_season("small", 2, make_version)
    report(broker, "w@a", 3)
    assert tasks.matchmake_task(slots_per_season=4) == 6  # 3 processes x 2, not 4 per season
    assert outstanding(big) + outstanding(small) == 6
    assert outstanding(small) >= 1
    assert tasks.matchmake_task(slots_per_season=4) == 0
    report(broker, "v@b", 2)  # a second worker comes: 5 processes
    assert tasks.matchmake_task(slots_per_season=4) == 4
    assert outstanding(big) + outstanding(small) == 10


def test_no_worker_in_service_means_nothing_queued(
    broker: redis.Redis, make_version: Callable[..., Any], sent: list[int]
) -> None:
    make_season("big", 6, make_version)
    report(broker, "sick@a", 2, out=True)
    assert tasks.matchmake_task(slots_per_season=4) == 0
    assert sent == []


def test_two_seasons_of_very_different_sizes_both_play_and_every_version_plays(
    broker: redis.Redis, make_version: Callable[..., Any], sent: list[int]
) -> None:
    big, small = make_season("big", 30, make_version), make_season("small", 2, make_version)
    report(broker, "w@a", 4)  # a target of 8
    for _ in range(12):
        scheduling.top_up(4, 2)
        for series in Series.objects.filter(state=SeriesState.QUEUED):
            assert record_series_result(series.pk, result_of(series))
    played = Counter(Series.objects.filter(state=SeriesState.DONE).values_list("season__name", flat=True))
    assert played["big"] + played["small"] == 12 * 8
    # Small's one pair can play every round, never more than its two versions allow; big takes the rest.
    assert 12 <= played["small"] <= 24
    per_version = Counter(
        SeriesSeat.objects.filter(series__season=big, series__state=SeriesState.DONE).values_list(
            "version_id", flat=True
        )
    )
    assert len(per_version) == 30  # no version of the big season starved
    assert max(per_version.values()) - min(per_version.values()) <= 3  # least played first
    small_seats = SeriesSeat.objects.filter(series__season=small, series__state=SeriesState.DONE)
    assert small_seats.values("version_id").distinct().count() == 2


def test_a_recorded_result_tops_the_queue_up_at_once(
    broker: redis.Redis,
    make_version: Callable[..., Any],
    sent: list[int],
    django_capture_on_commit_callbacks: Any,
) -> None:
    big = make_season("big", 8, make_version)
    report(broker, "w@a", 2)
    assert scheduling.top_up(4, 2) == 4
    finished = Series.objects.filter(season=big).order_by("pk").first()
    assert finished is not None
    with django_capture_on_commit_callbacks(execute=True):
        assert record_series_result(finished.pk, result_of(finished))
    assert outstanding(big) == 4  # the one recorded replaced at once, no beat needed
    assert len(sent) == 1  # and the replacement sent to the workers on commit
    finished.refresh_from_db()
    assert finished.started_at is not None
    assert finished.started_at < finished.finished_at


def test_only_one_top_up_waits_at_a_time(
    broker: redis.Redis, make_version: Callable[..., Any], sent: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    make_season("big", 8, make_version)
    report(broker, "w@a", 2)
    queued: list[Any] = []
    monkeypatch.setattr(tasks.tasking, "send", queued.append)
    assert tasks.request_top_up(season_id=1, series_ids=[1])
    assert not tasks.request_top_up(season_id=1, series_ids=[2])  # the first is still queued: it counts both
    assert len(queued) == 1
    assert broker.ttl(tasks.TOP_UP_MARK) > 0  # a lost task costs one mark's life, then the next recording asks
    tasks.top_up_task()  # drops the mark as it starts: a recording from now on asks for the next one
    assert tasks.request_top_up(season_id=1, series_ids=[3])
    assert len(queued) == 2


def test_the_embedded_default_queues_its_fixed_slots_and_tops_up_at_the_beat_only(
    settings: Any,
    make_version: Callable[..., Any],
    sent: list[int],
    django_capture_on_commit_callbacks: Any,
) -> None:
    settings.CELERY_BROKER_URL = ""  # the embedded default: no Redis, no worker records
    big, small = make_season("big", 8, make_version), make_season("small", 4, make_version)
    assert pace.worker_capacity(scheduling.broker_redis()) is None
    assert tasks.matchmake_task(slots_per_season=2) == 4  # 2 per running season at each beat, as ever
    assert (outstanding(big), outstanding(small)) == (2, 2)
    finished = Series.objects.filter(season=big).order_by("pk").first()
    assert finished is not None
    with django_capture_on_commit_callbacks(execute=True):
        assert record_series_result(finished.pk, result_of(finished))
    assert (outstanding(big), outstanding(small)) == (1, 2)  # no top-up on a result: the next beat's
    assert not tasks.request_top_up(season_id=big.pk, series_ids=[finished.pk])
    assert tasks.matchmake_task(slots_per_season=2) == 4
