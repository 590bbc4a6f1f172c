"""``manage.py arena_status``: queue depths from real Redis, workers that answer, and counts from real rows."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
import redis
from django.core.management import call_command
from django.utils import timezone

from arena.bots.models import BotVersion
from arena.ops.status import collect_status
from arena.seasons.models import Season, SeasonEntry
from arena.series.models import Series, SeriesState

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
#: kombu's list for priority step 3 of a queue (kombu.transport.redis: "<queue>\x06\x16<step>").
PRIORITY_3 = "\x06\x163"


def run(*args: str) -> str:
    out = StringIO()
    call_command("arena_status", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def test_broker(own_redis_server: str) -> str:
    """Database 14 of the run's own Redis server (tests/conftest.py)."""
    return f"{own_redis_server}/14"


@pytest.fixture
def broker(settings: Any, test_broker: str) -> Iterator[redis.Redis]:
    """Point the platform at the test broker, emptied before and after."""
    settings.CELERY_BROKER_URL = test_broker
    client = redis.Redis.from_url(test_broker)
    client.flushdb()
    yield client
    client.flushdb()
    client.close()


def test_without_a_broker_it_says_tasks_run_in_process(settings: Any) -> None:
    settings.CELERY_BROKER_URL = ""
    text = run()
    assert "queues: in-process (no broker)" in text
    assert "workers: in-process (no broker)" in text
    status = json.loads(run("--json"))
    assert status["queues"] == {"note": "in-process (no broker)"}


def test_it_reads_queue_depths_from_redis(broker: redis.Redis) -> None:
    broker.rpush("matches", *[b"fake"] * 3)
    broker.rpush(f"matches{PRIORITY_3}", b"fake")  # a message sent with a priority sits in its own list
    broker.rpush("platform", *[b"fake"] * 2)
    broker.xadd("arena:results", {"outcome": "{}"})  # a result a match worker appended, not yet drained
    assert json.loads(run("--json"))["queues"] == {"matches": 4, "platform": 2, "results": 1}
    assert "queues: matches 4 waiting, platform 2 waiting, results 1 waiting" in run()


def test_an_unreachable_broker_is_reported_without_its_password(settings: Any) -> None:
    settings.CELERY_BROKER_URL = "redis://:hunter2@127.0.0.1:1/0"  # nothing listens on port 1
    text = run()
    assert "queues: the broker did not answer" in text
    assert "is Redis running at redis://:**@127.0.0.1:1/0?" in text
    assert "workers: could not ask the workers" in text
    assert "hunter2" not in text


@pytest.fixture
def match_worker(broker: redis.Redis, test_broker: str) -> Iterator[str]:
    """A real match worker (workers.celery_app, queue "matches") on the test broker; yields its name."""
    name = f"w3-status-{os.getpid()}@localhost"
    environment = {**os.environ, "ARENA_BROKER_URL": test_broker, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker", "-Q", "matches"]
    process = subprocess.Popen(
        [*command, "--pool", "solo", "-n", name, "--without-mingle", "--without-gossip", "-l", "warning"],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        yield name
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def test_it_lists_the_workers_that_answer_with_their_queues(match_worker: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        workers = collect_status()["workers"]["workers"]
        if workers:
            break
    assert {"name": match_worker, "queues": ["matches"]} in workers
    assert f"  {match_worker}: matches" in run()


@pytest.fixture
def busy_season(
    running_season: Season, pair: list[BotVersion], make_series: Callable[..., Series], make_version: Callable[..., Any]
) -> dict[str, Any]:
    """A running season with series in every state, and one version still validating."""
    now = timezone.now()
    made: dict[str, Any] = {"season": running_season}
    for minutes_ago in (1, 3, 30, 90):  # two in the last 5 minutes, three in the last hour
        series = make_series(pair, SeriesState.DONE)
        Series.objects.filter(pk=series.pk).update(finished_at=now - timedelta(minutes=minutes_ago))
    old = make_series(pair, SeriesState.RUNNING)
    Series.objects.filter(pk=old.pk).update(
        created=now - timedelta(minutes=45), deadline=now - timedelta(minutes=15), attempts=2
    )
    made["oldest"] = old
    make_series(pair)  # queued, newer
    failed = make_series(pair, SeriesState.FAILED)  # the sweeper's way: no finished_at, deadline passed
    Series.objects.filter(pk=failed.pk).update(deadline=now - timedelta(hours=2), failure_reason="swept 3 times")
    long_ago = make_series(pair, SeriesState.FAILED)
    Series.objects.filter(pk=long_ago.pk).update(deadline=now - timedelta(days=3))
    made["failed"] = failed
    waiting = make_version("gamma", status=BotVersion.Status.VALIDATING)
    BotVersion.objects.filter(pk=waiting.pk).update(uploaded_at=now - timedelta(minutes=7))
    SeasonEntry.objects.create(season=running_season, version=make_version("delta"), active=False)
    Season.objects.create(name="Not started", game="watch")
    return made


def test_it_counts_throughput_stuck_and_failed_series_validations_and_seasons(busy_season: dict[str, Any]) -> None:
    status = json.loads(run("--json"))
    assert status["throughput"] == {"last_5_minutes": 2 / 5, "last_60_minutes": 3 / 60}
    oldest = status["oldest_outstanding"]
    assert (oldest["id"], oldest["state"], oldest["season"]) == (busy_season["oldest"].pk, "running", "Spring")
    assert 45 * 60 - 5 <= oldest["age_seconds"] <= 45 * 60 + 60
    assert (oldest["overdue"], oldest["attempts"]) == (True, 2)
    assert status["failed_last_day"]["count"] == 1
    assert status["failed_last_day"]["latest"][0]["id"] == busy_season["failed"].pk
    assert status["failed_last_day"]["latest"][0]["reason"] == "swept 3 times"
    assert status["awaiting_validation"]["count"] == 1
    assert 7 * 60 - 5 <= status["awaiting_validation"]["oldest_seconds"] <= 7 * 60 + 60
    assert status["running_seasons"] == [
        {
            "id": busy_season["season"].pk,
            "name": "Spring",
            "game": "watch",
            "entries": 2,
            "series_done": 4,
            "series_queued": 1,
            "series_running": 1,
        }
    ]


def test_its_text_says_the_same(busy_season: dict[str, Any]) -> None:
    text = run()
    assert "series per minute: 0.40 (last 5 min), 0.05 (last 60 min)" in text
    assert f"oldest queued/running series: {busy_season['oldest'].pk} (running, Spring), age 45m" in text
    assert "OVERDUE, attempts 2" in text
    assert "failed series in the last day: 1" in text
    assert "swept 3 times" in text
    assert "versions awaiting validation: 1, oldest waiting 7m" in text
    assert "  Spring (watch): 2 entries, 4 series done, 1 queued, 1 running" in text
    assert "Not started" not in text


def test_with_nothing_going_on_it_says_so(db: None) -> None:
    text = run()
    assert "oldest queued/running series: none" in text
    assert "failed series in the last day: 0" in text
    assert "versions awaiting validation: 0\n" in text
    assert "running seasons: 0" in text


def test_it_says_what_the_matchmaker_sees_and_how_long_series_waited(
    broker: redis.Redis, settings: Any, season: Season
) -> None:
    from workers import health

    settings.ARENA_MATCHMAKER_DEPTH_PER_PROCESS = 2
    monitor = health.Monitor()
    monitor.worker, monitor.broker_url, monitor.concurrency = "match1@h", settings.CELERY_BROKER_URL, 2
    monitor.publish()
    now = timezone.now()
    for waited in (1, 3):
        series = Series.objects.create(season=season, seed=waited, state=SeriesState.DONE, finished_at=now)
        Series.objects.filter(pk=series.pk).update(created=now - timedelta(seconds=10), started_at=now - timedelta(
            seconds=10 - waited))  # fmt: skip
    text = run()
    assert "matchmaker: capacity 2 processes on 1 workers, keeps 4 series queued or running" in text
    assert "queue wait (series recorded in the last 5 min): p50 1.0 s, p95 3.0 s, max 3.0 s over 2 series" in text
    settings.CELERY_BROKER_URL = ""
    assert "matchmaker: fixed slots per season at each beat (in-process (no broker))" in run()
