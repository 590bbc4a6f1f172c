"""The inventory: a queued series that Redis holds nowhere is sent again, with its seed, within a minute.

Against real Redis (a database of the run's own server, tests/conftest.py): series are sent as the platform
sends them with a broker, then lost the ways production loses them: the
queue emptied (Redis restarted without persistence), a message left in the
unacked hash by a worker that died, a lease that expired.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import kombu.pools
import pytest
import redis
from django.utils import timezone

from arena.matchmaking.inventory import LEASE_PREFIX, read_inventory, resend_lost, series_of
from arena.matchmaking.scheduling import SERIES_DEADLINE
from arena.series.models import Series, SeriesSeat, SeriesState

pytestmark = pytest.mark.django_db(transaction=True)

NO_GRACE = timedelta(0)


@pytest.fixture
def broker(settings: Any, own_redis_server: str) -> Iterator[redis.Redis]:
    """The platform's Celery app sending through this test's Redis database, emptied before and after."""
    from arena.celeryconf import app

    url = f"{own_redis_server}/10"
    client = redis.Redis.from_url(url)
    client.flushdb()
    changes = {"broker_url": url, "task_always_eager": False}
    saved = {key: app.conf.get(key) for key in changes}
    settings.CELERY_BROKER_URL = url

    def reset() -> None:
        if app._pool is not None:
            app._pool.force_close_all()
        app._pool = None
        app.amqp._producer_pool = None
        kombu.pools.reset()

    app.conf.update(changes)
    reset()
    yield client
    reset()
    app.conf.update(saved)
    client.flushdb()


def sent_series(make_version: Any, season: Any, minutes_ago: float = 5) -> Series:
    """A queued series as the matchmaker leaves it, sent ``minutes_ago`` (its deadline counts from then)."""
    from arena.matchmaking.scheduling import enqueue

    sent = timezone.now() - timedelta(minutes=minutes_ago)
    series = Series.objects.create(season=season, seed=77, deadline=sent + SERIES_DEADLINE)
    for seat, name in enumerate(("alpha", "beta")):
        SeriesSeat.objects.create(series=series, seat=seat, version=make_version(name))
    enqueue(series)
    return series


def queued_ids(client: redis.Redis) -> list[int]:
    return [series_of(raw) for raw in client.lrange("matches", 0, -1)]


def test_a_series_waiting_in_the_queue_is_left_alone(broker: redis.Redis, make_version: Any, season: Any) -> None:
    series = sent_series(make_version, season)
    assert queued_ids(broker) == [series.pk]
    assert resend_lost(grace=NO_GRACE) == []
    assert queued_ids(broker) == [series.pk]


def test_a_series_lost_with_the_queue_is_sent_again_with_its_seed(
    broker: redis.Redis, make_version: Any, season: Any
) -> None:
    series = sent_series(make_version, season)
    broker.delete("matches")  # Redis restarted without persistence
    assert resend_lost(grace=NO_GRACE) == [series.pk]
    (raw,) = broker.lrange("matches", 0, -1)
    assert series_of(raw) == series.pk
    series.refresh_from_db()
    assert series.state == SeriesState.QUEUED
    assert series.deadline > timezone.now() + SERIES_DEADLINE - timedelta(minutes=1)  # sent just now
    assert resend_lost(grace=timedelta(seconds=30)) == []  # held again: not sent a third time


def test_a_series_whose_result_waits_in_the_stream_is_recorded_not_sent_again(
    broker: redis.Redis, make_version: Any, season: Any
) -> None:
    from arena.series.models import SeriesResultLog
    from tests.arena.results.test_recording_inbox import document
    from workers.delivery import RESULTS_STREAM

    season.transition(season.Status.RUNNING)
    played, lost = sent_series(make_version, season), sent_series(make_version, season)
    broker.delete("matches")  # both left the queue; only one result reached the stream
    versions = [seat.version for seat in played.seats.order_by("seat")]
    outcome = {"series_id": played.pk, "result": document(versions, [2.0, 0.0])}
    broker.xadd(RESULTS_STREAM, {"series": str(played.pk), "result": json.dumps(outcome["result"])})
    assert resend_lost(grace=NO_GRACE) == [lost.pk]
    assert queued_ids(broker) == [lost.pk]
    played.refresh_from_db()
    assert played.state == SeriesState.DONE
    assert SeriesResultLog.objects.filter(series=played).count() == 1


def test_a_leased_series_is_being_played_and_left_alone(broker: redis.Redis, make_version: Any, season: Any) -> None:
    series = sent_series(make_version, season)
    broker.delete("matches")
    broker.set(f"{LEASE_PREFIX}{series.pk}", "worker-1:42", ex=45)  # a worker plays it
    assert resend_lost(grace=NO_GRACE) == []
    broker.delete(f"{LEASE_PREFIX}{series.pk}")  # the lease expired: the worker died
    assert resend_lost(grace=NO_GRACE) == [series.pk]


def test_a_message_a_dead_worker_left_unacknowledged_is_sent_again(
    broker: redis.Redis, make_version: Any, season: Any
) -> None:
    series = sent_series(make_version, season)
    raw = broker.lpop("matches")
    # As kombu's Redis QoS keeps a delivered message: [payload, exchange, routing key], indexed by time.
    broker.hset("unacked", "tag-1", json.dumps([json.loads(raw), "", "matches"]))
    broker.zadd("unacked_index", {"tag-1": timezone.now().timestamp() - 120})
    inventory = read_inventory(broker, grace_s=30)
    assert series.pk in inventory.taken
    assert resend_lost(grace=NO_GRACE) == [series.pk]


def test_a_message_taken_moments_ago_counts_as_waiting(broker: redis.Redis, make_version: Any, season: Any) -> None:
    series = sent_series(make_version, season)
    raw = broker.lpop("matches")
    broker.hset("unacked", "tag-2", json.dumps([json.loads(raw), "", "matches"]))
    broker.zadd("unacked_index", {"tag-2": timezone.now().timestamp()})
    assert series.pk in read_inventory(broker, grace_s=30).waiting
    assert resend_lost(grace=timedelta(seconds=30)) == []  # sent 5 minutes ago, taken just now


def test_a_series_sent_within_the_grace_is_left_alone(broker: redis.Redis, make_version: Any, season: Any) -> None:
    sent_series(make_version, season, minutes_ago=0)
    broker.delete("matches")
    assert resend_lost(grace=timedelta(seconds=30)) == []


def test_done_and_cancelled_series_are_never_sent(broker: redis.Redis, make_version: Any, season: Any) -> None:
    done = sent_series(make_version, season)
    Series.objects.filter(pk=done.pk).update(state=SeriesState.DONE)
    broker.delete("matches")
    assert resend_lost(grace=NO_GRACE) == []


def test_without_redis_there_is_nothing_to_lose(settings: Any) -> None:
    settings.CELERY_BROKER_URL = ""
    assert resend_lost(grace=NO_GRACE) == []


@pytest.mark.parametrize(
    "raw", [b"not json", b"{}", json.dumps({"headers": {"id": 5}}), json.dumps({"headers": {"id": "x-1-2"}})]
)
def test_foreign_or_broken_messages_name_no_series(raw: Any) -> None:
    assert series_of(raw) is None


def test_a_series_whose_result_a_concurrent_drain_is_recording_is_not_sent_again(
    broker: redis.Redis, make_version: Any, season: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    from django.db import connections

    from arena.results import inflow
    from tests.arena.results.test_recording_inbox import document
    from workers.delivery import RESULTS_STREAM

    season.transition(season.Status.RUNNING)
    series = sent_series(make_version, season)
    broker.delete("matches")  # a worker took it, played it, appended its result and dropped its lease
    versions = [seat.version for seat in series.seats.order_by("seat")]
    broker.xadd(RESULTS_STREAM, {"series": str(series.pk), "result": json.dumps(document(versions, [2.0, 0.0]))})
    # Another platform worker's drain reads the entry, then stops before its transaction commits.
    read, commit = threading.Event(), threading.Event()
    record_many = inflow.record_many

    def record_after_the_inventory(results: list[Any]) -> int:
        if threading.current_thread().name == "other-drain":
            read.set()
            assert commit.wait(30)
        return record_many(results)

    monkeypatch.setattr(inflow, "record_many", record_after_the_inventory)

    def other_drain() -> None:
        try:
            inflow.drain(redis.Redis(connection_pool=broker.connection_pool), consumer="other-platform-worker")
        finally:
            connections.close_all()

    thread = threading.Thread(target=other_drain, name="other-drain")
    thread.start()
    try:
        assert read.wait(30)
        assert resend_lost(grace=NO_GRACE) == []  # its result is on the way: not lost
        assert queued_ids(broker) == []
    finally:
        commit.set()
        thread.join(30)
    series.refresh_from_db()
    assert series.state == SeriesState.DONE
    assert series.resends == 0
    assert resend_lost(grace=NO_GRACE) == []


def test_a_series_whose_result_waits_in_the_inbox_is_not_sent_again(
    broker: redis.Redis, make_version: Any, season: Any
) -> None:
    from arena.series.models import PendingResult
    from tests.arena.results.test_recording_inbox import document

    series = sent_series(make_version, season)
    broker.delete("matches")
    versions = [seat.version for seat in series.seats.order_by("seat")]
    # A drain found the season locked and left the result for the lock's holder.
    PendingResult.objects.create(series=series, season=season, result=document(versions, [2.0, 0.0]))
    assert resend_lost(grace=NO_GRACE) == []


def test_a_series_lost_again_after_its_last_resend_is_failed_with_the_reason(
    broker: redis.Redis, make_version: Any, season: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.test import Client

    from arena.matchmaking import inventory

    monkeypatch.setattr(inventory, "MAX_RESENDS", 2)
    season.transition(season.Status.RUNNING)
    series = sent_series(make_version, season)
    # What the match workers said of it (workers/health.py), kept in Redis.
    broker.hset(f"arena:series-tries:{series.pk}", "last", "on m1@host: OSError: [Errno 28] No space left on device")
    deadlines = []
    for resends in (1, 2):
        broker.delete("matches")  # lost again
        assert resend_lost(grace=NO_GRACE) == [series.pk]
        series.refresh_from_db()
        assert (series.state, series.resends) == (SeriesState.QUEUED, resends)
        deadlines.append(series.deadline)
    broker.delete("matches")
    assert resend_lost(grace=NO_GRACE) == []
    series.refresh_from_db()
    assert series.state == SeriesState.FAILED
    assert series.deadline == deadlines[-1]  # not moved again
    assert series.failure_reason == (
        "lost 3 times between the platform and the match workers and sent again 2 times "
        "(ARENA_SERIES_MAX_RESENDS); not sent again; its last failure on a worker: "
        "on m1@host: OSError: [Errno 28] No space left on device"
    )
    assert queued_ids(broker) == []
    assert broker.get(inventory.RESENDS_COUNTER) == b"2"
    page = Client().get(f"/series/{series.pk}/").content.decode()
    assert "Failed: lost 3 times between the platform and the match workers" in page
