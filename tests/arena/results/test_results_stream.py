"""The results stream: match workers append, the platform drains in batches, every result recorded exactly once.

Against real Redis (a database of the run's own server, tests/conftest.py) and the suite's database: the
worker's side is workers/delivery.py's ``publish``, the platform's
arena/results/inflow.py and the ``arena.drain_results`` task.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from celery import Celery

from arena.bots.models import BotVersion
from arena.ratings.models import Rating
from arena.results import inflow, recording
from arena.results.recording import deliver_many, recompute_season, record_many
from arena.seasons.models import Season
from arena.series.models import PendingResult, SeriesResultLog, SeriesState
from tests.arena.results.test_recording_inbox import document, new_series
from workers import delivery
from workers.celery_app import configure

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def redis_url(own_redis_server: str) -> str:
    return f"{own_redis_server}/7"


@pytest.fixture
def stream(settings: Any, redis_url: str) -> Iterator[redis.Redis]:
    """This test's Redis database, emptied before and after; the platform's broker points at it."""
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    settings.CELERY_BROKER_URL = redis_url
    yield client
    client.flushdb()
    delivery._STREAM_CLIENTS.clear()


@pytest.fixture
def worker_app(redis_url: str) -> Celery:
    """A match worker's Celery app on this test's Redis."""
    return configure(Celery("stream-test-worker", set_as_current=False), redis_url)


def outcomes(season: Season, field: list[BotVersion], count: int) -> list[dict[str, Any]]:
    """``count`` finished series of ``season`` between neighbours of ``field``, as a match worker reports them."""
    found = []
    for index in range(count):
        pair = [field[index % 4], field[(index + 1) % 4]]
        series = new_series(season, pair, seed=index)
        found.append({"series_id": series.pk, "result": document(pair, [2.0, 0.0] if index % 2 else [0.5, 1.5])})
    return found


def platform_queue(client: redis.Redis) -> list[str]:
    """The tasks waiting in the platform queue, oldest first (kombu pushes on the left)."""
    return [json.loads(raw)["headers"]["task"] for raw in reversed(client.lrange("platform", 0, -1))]


def test_a_workers_results_go_to_the_stream_and_wake_one_drain(
    stream: redis.Redis, worker_app: Celery, season: Season, field: list[BotVersion]
) -> None:
    sent = outcomes(season, field, 3)
    for outcome in sent:
        delivery.publish(worker_app, outcome)
    entries = stream.xrange(delivery.RESULTS_STREAM)
    assert [int(fields[b"series"]) for _, fields in entries] == [outcome["series_id"] for outcome in sent]
    assert [json.loads(fields[b"result"]) for _, fields in entries] == [outcome["result"] for outcome in sent]
    assert platform_queue(stream) == [delivery.DRAIN_TASK]  # one wake-up for the three
    # A validation's result is still a task of its own.
    delivery.publish(worker_app, {"series_id": None, "result": {}, "result_task": "arena.record_validation"})
    assert platform_queue(stream)[-1] == "arena.record_validation"
    assert stream.xlen(delivery.RESULTS_STREAM) == 3


def test_a_drain_records_every_result_once_in_batches(
    stream: redis.Redis, worker_app: Celery, season: Season, field: list[BotVersion], monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.results.tasks import drain_results_task

    sent = outcomes(season, field, 7)
    for outcome in [*sent, sent[2], sent[5]]:  # two results appended twice (an append whose reply was lost)
        delivery.publish(worker_app, outcome)
    monkeypatch.setattr(inflow, "BATCH", 3)
    monkeypatch.setattr(recording, "COPY_FROM_ROWS", 2)  # a batch of 2 or 3 goes by COPY, of 1 by INSERT
    assert drain_results_task.apply().get() == 7
    assert stream.xlen(delivery.RESULTS_STREAM) == 0
    assert not stream.exists(delivery.DRAIN_MARK)  # the next append wakes the next drain
    assert sorted(SeriesResultLog.objects.values_list("series_id", flat=True)) == [o["series_id"] for o in sent]
    assert set(season.series.values_list("state", flat=True)) == {SeriesState.DONE}
    assert not PendingResult.objects.exists()
    assert {r.version_id: (r.mu, r.sigma) for r in Rating.objects.filter(season=season)} == recompute_season(season)
    # The log keeps each document as the worker sent it, whether it went by COPY or by INSERT.
    assert {log.series_id: log.result for log in SeriesResultLog.objects.all()} == {
        outcome["series_id"]: outcome["result"] for outcome in sent
    }
    # Appended again after it was recorded: acknowledged, not recorded twice.
    delivery.publish(worker_app, sent[0])
    assert inflow.drain(stream) == (0, True)
    assert SeriesResultLog.objects.count() == 7


def test_a_drain_that_died_before_acknowledging_is_taken_over_without_doubling(
    stream: redis.Redis, worker_app: Celery, season: Season, field: list[BotVersion], monkeypatch: pytest.MonkeyPatch
) -> None:
    sent = outcomes(season, field, 4)
    for outcome in sent:
        delivery.publish(worker_app, outcome)
    inflow.ensure_group(stream)
    # A platform worker reads the batch and commits it to the inbox, then dies before its acknowledgement.
    ((_, entries),) = stream.xreadgroup(inflow.GROUP, "dead-worker", {delivery.RESULTS_STREAM: ">"})
    assert len(deliver_many([inflow.read(fields) for _, fields in entries])) == 4
    assert inflow.drain(stream, "live-worker") == (0, True)  # not idle long enough to be claimed yet
    assert stream.xpending(delivery.RESULTS_STREAM, inflow.GROUP)["pending"] == 4
    monkeypatch.setattr(inflow, "CLAIM_IDLE_MS", 0)
    assert inflow.drain(stream, "live-worker") == (4, True)  # claimed and recorded
    assert stream.xpending(delivery.RESULTS_STREAM, inflow.GROUP)["pending"] == 0
    assert stream.xlen(delivery.RESULTS_STREAM) == 0
    from arena.results.recording import apply_all_pending

    assert apply_all_pending() == 0  # the dead drain's copies in the inbox change nothing
    assert not PendingResult.objects.exists()
    assert SeriesResultLog.objects.count() == 4


def test_an_entry_naming_no_series_is_kept_for_an_operator_and_the_rest_recorded(
    stream: redis.Redis, worker_app: Celery, season: Season, field: list[BotVersion]
) -> None:
    (good,) = outcomes(season, field, 1)
    stream.xadd(delivery.RESULTS_STREAM, {"series": "1", "result": "{not json"})
    stream.xadd(delivery.RESULTS_STREAM, {"series": "x", "result": "{}"})
    stream.xadd(delivery.RESULTS_STREAM, {"series": "2", "result": json.dumps([1, 2])})
    stream.xadd(delivery.RESULTS_STREAM, {"series": "3", "result": json.dumps("x")})
    stream.xadd(delivery.RESULTS_STREAM, {"series": "4", "result": "[" * 100_000})
    stream.xadd(delivery.RESULTS_STREAM, {"series": str(2**70), "result": "{}"})
    stream.xadd(delivery.RESULTS_STREAM, {"series": "-3", "result": "{}"})
    stream.xadd(delivery.RESULTS_STREAM, {"series": "6"})
    stream.xadd(delivery.RESULTS_STREAM, {"nothing": "here"})
    delivery.publish(worker_app, good)
    assert inflow.drain(stream) == (1, True)
    assert stream.xlen(inflow.UNREADABLE) == 9
    assert stream.xlen(delivery.RESULTS_STREAM) == 0
    assert SeriesResultLog.objects.get().series_id == good["series_id"]


def test_results_of_unknown_or_cancelled_series_are_acknowledged_and_not_recorded(
    stream: redis.Redis, worker_app: Celery, season: Season, field: list[BotVersion]
) -> None:
    cancelled, recorded = outcomes(season, field, 2)
    season.series.filter(pk=cancelled["series_id"]).update(state=SeriesState.CANCELLED)
    for outcome in (cancelled, recorded, {**recorded, "series_id": 999_999}):
        delivery.publish(worker_app, outcome)
    assert inflow.drain(stream) == (1, True)
    assert stream.xlen(delivery.RESULTS_STREAM) == 0
    assert list(SeriesResultLog.objects.values_list("series_id", flat=True)) == [recorded["series_id"]]


def test_a_series_the_workers_gave_up_is_failed_with_their_reason_and_a_late_result_still_counts(
    stream: redis.Redis, worker_app: Celery, season: Season, field: list[BotVersion]
) -> None:
    from arena.series.models import Series

    given_up, played, late = outcomes(season, field, 3)
    reason = "failed 3 times on the match workers; the last, on m1@host: SpecError: no engine 'chess'"
    for outcome in (given_up, played, late):
        assert delivery.report_failure(worker_app, outcome["series_id"], reason)
    delivery.publish(worker_app, played)  # another message of it was played meanwhile: played wins
    stream.xadd(delivery.RESULTS_STREAM, {"series": "-1", "failure": "x"})  # names no series: kept aside
    assert inflow.drain(stream) == (1, True)
    states = dict(Series.objects.values_list("pk", "state"))
    assert [states[o["series_id"]] for o in (given_up, played, late)] == ["failed", "done", "failed"]
    assert Series.objects.get(pk=given_up["series_id"]).failure_reason == reason
    assert stream.xlen(inflow.UNREADABLE) == 1
    delivery.publish(worker_app, late)  # a result that comes after all is recorded, as for any failed series
    assert inflow.drain(stream) == (1, True)
    assert Series.objects.get(pk=late["series_id"]).state == SeriesState.DONE


def test_a_wiped_redis_has_no_group_and_the_drain_makes_one(stream: redis.Redis) -> None:
    assert inflow.drain(stream) == (0, True)
    stream.flushdb()  # Redis restarted without its data: stream and group gone
    assert inflow.drain(stream) == (0, True)
    assert stream.xinfo_groups(delivery.RESULTS_STREAM)[0]["name"] == inflow.GROUP.encode()


def test_without_redis_the_drain_task_does_nothing(settings: Any) -> None:
    from arena.results.tasks import drain_results_task

    settings.CELERY_BROKER_URL = ""
    assert drain_results_task.apply().get() == 0


def test_a_worker_whose_append_fails_keeps_the_result_in_its_outbox(
    worker_app: Celery, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(delivery.PUBLISH_RETRY_POLICY, "max_retries", 1)
    monkeypatch.setitem(delivery.PUBLISH_RETRY_POLICY, "interval_start", 0.01)
    dead = configure(Celery("stream-test-dead", set_as_current=False), "redis://127.0.0.1:1/0")
    outcome = {"series_id": 5, "result": {"score": {}}}
    assert delivery.deliver(dead, outcome, tmp_path) is False
    (kept,) = delivery.outbox_dir(tmp_path).iterdir()
    assert json.loads(kept.read_text()) == outcome


def test_a_drain_that_held_the_season_applies_what_others_put_in_the_inbox_meanwhile(
    season: Season, field: list[BotVersion]
) -> None:
    # Another drain found the season locked by this one and left its share in the inbox:
    # this one, the holder, applies it after its own commit.
    left, mine = outcomes(season, field, 2)
    PendingResult.objects.create(series_id=left["series_id"], season=season, result=left["result"])
    assert record_many([(mine["series_id"], mine["result"])]) == 2
    assert not PendingResult.objects.exists()
    assert SeriesResultLog.objects.count() == 2


def test_a_result_appended_while_the_drain_held_the_mark_is_taken_by_that_drain(
    stream: redis.Redis, worker_app: Celery, season: Season, field: list[BotVersion], monkeypatch: pytest.MonkeyPatch
) -> None:
    first, late = outcomes(season, field, 2)
    delivery.publish(worker_app, first)  # sets the mark and queues the drain
    drop_mark = stream.delete

    def append_first(*keys: Any) -> Any:
        # A worker appends just before the drain drops the mark: it sees the mark and wakes nobody.
        monkeypatch.setattr(stream, "delete", drop_mark)
        delivery.publish(worker_app, late)
        return drop_mark(*keys)

    monkeypatch.setattr(stream, "delete", append_first)
    assert inflow.drain(stream) == (2, True)
    assert platform_queue(stream) == [delivery.DRAIN_TASK]  # still the one wake-up
    assert not stream.exists(delivery.DRAIN_MARK)


def test_a_document_the_database_refuses_is_kept_aside_and_the_rest_of_its_batch_recorded(
    stream: redis.Redis, worker_app: Celery, season: Season, field: list[BotVersion]
) -> None:
    good, poisoned, later = outcomes(season, field, 3)
    poisoned["result"]["games"][0]["reason"] = "nul \x00 here"  # jsonb refuses \u0000: the batch would fail for ever
    for outcome in (good, poisoned, later):
        delivery.publish(worker_app, outcome)
    assert inflow.drain(stream) == (2, True)
    assert stream.xlen(delivery.RESULTS_STREAM) == 0
    assert sorted(SeriesResultLog.objects.values_list("series_id", flat=True)) == sorted(
        [good["series_id"], later["series_id"]]
    )
    ((_, kept),) = stream.xrange(inflow.UNREADABLE)
    assert kept[b"series"] == str(poisoned["series_id"]).encode()
    assert b"refused" in kept
    refused = season.series.get(pk=poisoned["series_id"])
    assert refused.state == SeriesState.FAILED  # not replayed into the same refusal by the inventory
    assert refused.failure_reason.startswith("result refused by the database: ")
