"""Chaos: a match worker on a full file system beside a healthy one, and the ladder keeps its pace.

The operator's report: a worker whose cache disk was full failed every series
in 40 ms, acknowledged it, and won the race for messages against the healthy
worker beside it (7 series in 2 minutes instead of about 90 a minute), while
the inventory resent the same series every 40 s for ever. Here two real match
workers (``workers.celery_app``) run against a Redis server of the test's
own and the test's PostgreSQL, the archives served over HTTP by this test's
live server (so each worker downloads them into its own cache, as across
hosts). The platform's side (the matchmaker, the results stream's drain, the
inventory) runs in the test's own loop, the same functions the beat's tasks
call.

The same test measures the series recorded in a fixed window with the
healthy worker alone, then in a window of the same length with the sick one
beside it (its cache on a small tmpfs the test filled); the second must be at
least 80 % of the first. The bots take the first legal action after 25 ms
(tests/arena/packages/steady): every series is the same games, mostly
waiting, so the pace depends little on the machine's load.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kombu.pools
import pytest
import redis
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from arena.bots.submissions import mark_validation_result, submit_version
from arena.matchmaking.inventory import resend_lost
from arena.matchmaking.pairing import MatchmakingPolicy
from arena.matchmaking.scheduling import schedule_round
from arena.results import inflow
from arena.seasons.models import Season, SeasonEntry
from arena.series.models import Series, SeriesResultLog, SeriesState
from tests.arena.services import MatchWorker, OwnRedis, service_environment
from tests.workers.test_worker_health import fill, small_disk

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]
STEADY = REPO / "tests" / "arena" / "packages" / "steady"
#: Each window of the comparison, seconds.
WINDOW_S = 35
#: The pace beside the sick worker, against the healthy worker alone, must be at least this.
PACE_KEPT = 0.8


@pytest.fixture
def ladder(settings: Any, live_server: Any, tmp_path: Path) -> Iterator[dict[str, Any]]:
    """This test's Redis as the platform's broker, archives served by the live server, a running season."""
    from arena.celeryconf import app

    server = OwnRedis()
    server.start()
    changes = {"broker_url": server.url, "result_backend": None, "task_always_eager": False}
    saved = {key: app.conf.get(key) for key in changes}

    def reset_pools() -> None:  # as tests/arena/test_pipeline_integration.py's platform_app
        if app._pool is not None:
            app._pool.force_close_all()
        app._pool = None
        app.amqp._producer_pool = None
        kombu.pools.reset()

    app.conf.update(changes)
    reset_pools()
    settings.CELERY_BROKER_URL = server.url
    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    settings.ARENA_ARTIFACT_BASE_URL = live_server.url
    settings.ARENA_METRICS_TOKEN = "chaos"
    season = Season.objects.create(name="Sick worker", game="watch", games_per_series=2, decision_ms=3000)
    for owner in ("ann", "bob", "cy", "dee"):
        version = submit_version(get_user_model().objects.create_user(owner), "steady", STEADY)
        # Marked valid here: the test is about the match workers, not validation.
        SeasonEntry.objects.get_or_create(season=season, version=mark_validation_result(version, True, "test"))
    season.transition(Season.Status.RUNNING)
    workers: list[MatchWorker] = []
    try:
        yield {"redis": server, "season": season, "workers": workers}
    finally:
        for worker in workers:
            worker.stop()
        reset_pools()
        app.conf.update(saved)
        reset_pools()
        server.remove()


def run_platform(season: Season, client: redis.Redis, seconds: float, rng: random.Random) -> None:
    """Do what the beat does, for ``seconds``: pair, drain the results stream, look for lost series."""
    policy = MatchmakingPolicy(max_concurrent_per_version=2)
    end = time.monotonic() + seconds
    next_inventory = time.monotonic()
    while time.monotonic() < end:
        season.refresh_from_db()
        schedule_round(season, 2, policy=policy, rng=rng)
        inflow.drain(client)
        if time.monotonic() >= next_inventory:
            resend_lost()
            next_inventory = time.monotonic() + 5
        time.sleep(0.3)


def recorded_between(season: Season, start: Any, end: Any) -> int:
    done = Series.objects.filter(season=season, state=SeriesState.DONE)
    return done.filter(finished_at__gte=start, finished_at__lt=end).count()


def test_a_worker_on_a_full_disk_takes_itself_out_and_the_ladder_keeps_its_pace(
    ladder: dict[str, Any], tmp_path: Path
) -> None:
    season, server = ladder["season"], ladder["redis"]
    client = redis.Redis.from_url(server.url)
    rng = random.Random(25)
    base = service_environment(ARENA_BROKER_URL=server.url)
    healthy = MatchWorker("healthy", {**base, "ARENA_WORKER_CACHE": str(tmp_path / "cache")}, tmp_path / "h.log")
    ladder["workers"].append(healthy)
    healthy.wait_ready()
    # Warm: the healthy worker has its bots, and a series recorded.
    deadline = time.monotonic() + 90
    while not Series.objects.filter(season=season, state=SeriesState.DONE).exists():
        assert time.monotonic() < deadline, healthy.output()[-4000:]
        run_platform(season, client, 1, rng)
    started = timezone.now()
    run_platform(season, client, WINDOW_S, rng)
    alone = recorded_between(season, started, timezone.now())

    with small_disk(tmp_path / "disk") as disk:
        fill(disk)
        # Its probe would find the disk full by itself; 600 s keeps it quiet, so that what takes the worker
        # out is what an operator saw: the series it took failing on the disk.
        env = {**base, "ARENA_WORKER_CACHE": str(disk / "cache"), "ARENA_WORKER_PROBE_S": "600"}
        sick = MatchWorker("sick", env, tmp_path / "s.log")
        ladder["workers"].append(sick)
        while " ready." not in sick.output():
            assert sick.process.poll() is None, sick.output()
            run_platform(season, client, 0.3, rng)
        started = timezone.now()
        run_platform(season, client, WINDOW_S, rng)
        beside = recorded_between(season, started, timezone.now())

        assert beside >= PACE_KEPT * alone, (alone, beside, sick.output()[-4000:])
        # The sick worker took one series, failed it on its disk, and took no other.
        assert sick.output().count("] received") == 1, sick.output()[-4000:]
        assert sick.output().count("] reject requeue=True") == 1
        assert "No space left on device" in sick.output()
        # The metrics name it, with the reason.
        metrics = Client().get("/ops/metrics", HTTP_AUTHORIZATION="Bearer chaos").content.decode()
        assert f'arena_worker_up{{worker="{sick.name}"}} 0' in metrics
        assert f'arena_worker_up{{worker="{healthy.name}"}} 1' in metrics
        assert f'arena_worker_infrastructure_failures_total{{worker="{sick.name}"}} 1' in metrics
        assert f'arena_worker_out_info{{worker="{sick.name}",reason="its cache {disk / "cache"}' in metrics

        # Every series is recorded, once; none failed, none resent.
        season.transition(Season.Status.PAUSED)
        deadline = time.monotonic() + 120
        while Series.objects.filter(season=season, state__in=[SeriesState.QUEUED, SeriesState.RUNNING]).exists():
            assert time.monotonic() < deadline, healthy.output()[-4000:]
            run_platform(season, client, 1, rng)
    states = set(Series.objects.filter(season=season).values_list("state", flat=True))
    assert states == {SeriesState.DONE}
    assert SeriesResultLog.objects.filter(series__season=season).count() == Series.objects.filter(season=season).count()
    assert not Series.objects.filter(season=season, resends__gt=0).exists()
    print(f"series recorded in {WINDOW_S} s: {alone} with the healthy worker alone, {beside} beside the sick one")
