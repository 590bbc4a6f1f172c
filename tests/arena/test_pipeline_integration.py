"""The whole pipeline, as deployed: real Redis, real Celery workers, real PostgreSQL, a worker killed mid-series.

Two bots are uploaded (the platform worker plays their validation series), a
running season schedules six series, and two match
workers (``workers.celery_app``, no database credentials) run them in the
sandbox while one platform worker (``arena.celeryconf``) records each result.
One match worker's pool process is killed with SIGKILL while it referees a
series: ``acks_late`` with ``reject_on_worker_lost`` puts that series back on
the queue at once, another process runs it again, and every series still ends
recorded exactly once, with ratings equal to a recompute from the result log.

The workers are separate processes, so this test commits for real
(``transaction=True``) and hands them the very test database pytest-django
created. This process sends through the same broker: the platform app is
created eager (no ``ARENA_BROKER_URL`` in the test environment), so
:func:`platform_app` points its configuration at Redis for the test and drops
the connection and producer pools built from the old settings, then puts both
back.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import kombu.pools
import pytest
import redis
from celery import Celery
from django.contrib.auth import get_user_model
from django.db import connection

from arena.bots.models import BotVersion
from arena.bots.submissions import submit_version
from arena.matchmaking.pairing import MatchmakingPolicy
from arena.matchmaking.scheduling import schedule_round
from arena.ratings.models import Rating, RatingHistory
from arena.results.recording import recompute_season
from arena.seasons.models import Season, SeasonEntry
from arena.series.models import GameRecord, Series, SeriesResultLog, SeriesSeat, SeriesState
from workers.slots import preferred_slot

REPO = Path(__file__).resolve().parents[2]
SERIES = 6
GAMES = 2
#: A pool process's referee runs its bots as UID_BASE + slot * 8 + player, at the slot it leases host-wide
#: for the series (workers/slots.py): preferred_slot(pid) unless another series holds that one.
UID_BASE = 100000

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def pool_children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(child) for child in handle.read().split()]
    except OSError:
        return []


def running_bot_uids(pool_pid: int) -> set[int]:
    """Return the uids of the live, unprivileged processes under a pool process: its series' bots."""
    uids, stack = set(), pool_children(pool_pid)
    while stack:
        process = stack.pop()
        stack += pool_children(process)
        try:
            with open(f"/proc/{process}/status") as handle:
                fields = dict(line.split(":", 1) for line in handle if ":" in line)
        except OSError:
            continue
        if not fields["State"].strip().startswith(("Z", "X")):
            uids |= {int(fields["Uid"].split()[0])} - {0}
    return uids


def slot_uids(pool_pid: int) -> set[int]:
    """Return the uids of a pool process's bots: the ones running under it now, and its preferred slot's."""
    slot = preferred_slot(pool_pid)
    return {UID_BASE + slot * 8, UID_BASE + slot * 8 + 1} | running_bot_uids(pool_pid)


def live_processes_of(uids: set[int]) -> list[int]:
    """Return the live (not zombie) processes running as any of ``uids``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/status") as handle:
                    fields = dict(line.split(":", 1) for line in handle if ":" in line)
            except OSError:
                continue
            if int(fields["Uid"].split()[0]) in uids and not fields["State"].strip().startswith(("Z", "X")):
                found.append(int(entry))
    return found


def environ_of(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/environ", "rb") as handle:
        pairs = [item.split(b"=", 1) for item in handle.read().split(b"\0") if b"=" in item]
    return {key.decode(): value.decode() for key, value in pairs}


@dataclass
class Worker:
    name: str
    process: subprocess.Popen[bytes]
    log: Path

    def text(self) -> str:
        return self.log.read_text(errors="replace")


@dataclass
class Cluster:
    platform: Worker
    matches: list[Worker]
    #: Every pool process of a match worker seen during the test: their bots' uids are checked at the end.
    pool_pids: set[int] = field(default_factory=set)
    bot_uids: set[int] = field(default_factory=set)

    def all(self) -> list[Worker]:
        return [self.platform, *self.matches]

    def logs(self) -> str:
        return "\n".join(f"===== {w.name}\n{w.text()[-6000:]}" for w in self.all())

    def note_pools(self) -> None:
        for worker in self.matches:
            for pool_pid in pool_children(worker.process.pid):
                self.pool_pids.add(pool_pid)
                self.bot_uids |= slot_uids(pool_pid)


def start_worker(name: str, app: str, queue: str, env: dict[str, str], log: Path) -> Worker:
    command = [sys.executable, "-m", "celery", "-A", app, "worker", "-Q", queue, "-c", "1", "-n", f"{name}@%h",
               "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "info"]  # fmt: skip
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    return Worker(name, process, log)


def wait_ready(workers: list[Worker], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    waiting = list(workers)
    while waiting and time.monotonic() < deadline:
        for worker in list(waiting):
            if " ready." in worker.text():
                waiting.remove(worker)
            elif worker.process.poll() is not None:
                pytest.fail(f"{worker.name} did not start:\n{worker.text()}")
        time.sleep(0.1)
    if waiting:
        pytest.fail(
            f"not ready within {timeout} s: {[w.name for w in waiting]}\n" + "\n".join(w.text() for w in waiting)
        )


def stop(workers: list[Worker]) -> None:
    """SIGTERM every worker's process group, then SIGKILL what is left after 20 s."""
    for worker in workers:
        if worker.process.poll() is None:
            os.killpg(worker.process.pid, signal.SIGTERM)
    deadline = time.monotonic() + 20
    for worker in workers:
        with contextlib.suppress(subprocess.TimeoutExpired):
            worker.process.wait(timeout=max(0.1, deadline - time.monotonic()))
    for worker in workers:
        with contextlib.suppress(ProcessLookupError):  # the group too: a pool process can outlive its parent
            os.killpg(worker.process.pid, signal.SIGKILL)
        worker.process.wait()


@pytest.fixture
def redis_url(own_redis_server: str) -> str:
    """This module's database of the run's own Redis server (tests/conftest.py), emptied first."""
    url = f"{own_redis_server}/12"
    redis.Redis.from_url(url).flushdb()
    return url


@pytest.fixture
def platform_app(redis_url: str) -> Iterator[Celery]:
    """The platform's Celery app of this process, sending through ``redis_url`` instead of running eagerly."""
    from arena.celeryconf import app

    changes = {"broker_url": redis_url, "result_backend": redis_url, "task_always_eager": False}
    saved = {key: app.conf.get(key) for key in changes}

    def reset_pools() -> None:
        # The connection pool and the producer pool are built once from the settings of the
        # time (as after a fork, Celery's own _after_fork): drop them so the next send uses ours.
        if app._pool is not None:
            app._pool.force_close_all()
        app._pool = None
        app.amqp._producer_pool = None
        app._backend_cache = None  # the result backend of the old settings, cached either here ...
        app._local.__dict__.pop("backend", None)  # ... or per thread
        # kombu's process-wide producer pools, keyed by connection URL, still hold the pools just
        # closed: the next eager task (memory://) would acquire from a closed pool.
        kombu.pools.reset()

    app.conf.update(changes)
    reset_pools()
    yield app
    reset_pools()
    app.conf.update(saved)


@pytest.fixture
def cluster(transactional_db: None, settings: Any, tmp_path: Path, redis_url: str) -> Iterator[Cluster]:
    """One platform worker and two match workers on this test's Redis database and test database."""
    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    database = connection.settings_dict
    assert database["NAME"].startswith("test_"), database["NAME"]
    database_url = (
        f"postgres://{database['USER'] or 'postgres'}@{database['HOST'] or '127.0.0.1'}:"
        f"{database['PORT'] or 5432}/{database['NAME']}"
    )
    base = {
        key: value
        for key, value in os.environ.items()
        if not (key.startswith(("ARENA_", "PG", "CELERY")) or "DATABASE" in key or key == "DJANGO_SETTINGS_MODULE")
    }
    base.update(
        ARENA_BROKER_URL=redis_url,
        ARENA_RESULT_BACKEND=redis_url,
        PYTHONPATH=os.pathsep.join([str(REPO), str(REPO / "platform")]),
    )
    platform_env = {
        **base,
        "DJANGO_SETTINGS_MODULE": "arena.settings",
        "ARENA_DATABASE_URL": database_url,
        "ARENA_ARTIFACT_DIR": str(settings.ARENA_ARTIFACT_DIR),
        # The test counts exactly the series it queues: no top-up after a recording (and no beat runs).
        "ARENA_MATCHMAKER_DEPTH_PER_PROCESS": "0",
    }
    workers = []
    try:
        workers.append(
            start_worker("platform", "arena.celeryconf", "platform", platform_env, tmp_path / "platform.log")
        )
        for index in range(2):
            env = {**base, "ARENA_WORKER_CACHE": str(tmp_path / f"cache-{index}")}
            workers.append(
                start_worker(f"matches{index}", "workers.celery_app", "matches", env, tmp_path / f"m{index}.log")
            )
        wait_ready(workers)
        cluster = Cluster(platform=workers[0], matches=workers[1:])
        cluster.note_pools()
        yield cluster
    finally:
        stop(workers)
    cluster.note_pools()
    # bubblewrap's --die-with-parent: no bot of any pool process seen outlives the workers.
    leftovers = live_processes_of(cluster.bot_uids)
    assert leftovers == [], f"bot processes survived the workers: {leftovers}"


def upload_two_bots(cluster: Cluster, timeout: float = 60) -> list[BotVersion]:
    """Upload greedy and a slow bot (40 ms a move: a series lasts long enough to be killed mid-way).

    Each submission sends its validation series to the platform worker on commit;
    wait until both versions are validated, as a season only takes active ones.
    """
    users = get_user_model().objects
    bots = (("ann", "greedy", REPO / "bots" / "watch" / "packages" / "greedy"),
            ("bob", "slow", REPO / "tests" / "workers" / "hostile" / "polite_slow"))  # fmt: skip
    versions = [submit_version(users.create_user(owner), name, package) for owner, name, package in bots]
    deadline = time.monotonic() + timeout
    while BotVersion.objects.filter(pk__in=[v.pk for v in versions], status=BotVersion.Status.VALIDATING).exists():
        if time.monotonic() > deadline:
            pytest.fail("the uploads were not validated within the timeout:\n" + cluster.logs())
        time.sleep(0.1)
    for version in versions:
        version.refresh_from_db()
        assert version.status == BotVersion.Status.ACTIVE, (version, version.status)
    return versions


def make_season(versions: list[BotVersion]) -> Season:
    season = Season.objects.create(name="Pipeline", game="watch", games_per_series=GAMES, decision_ms=5000)
    for version in versions:
        SeasonEntry.objects.create(season=season, version=version)
    season.transition(Season.Status.RUNNING)
    return season


def kill_a_pool_process_mid_series(cluster: Cluster, timeout: float = 30) -> tuple[Worker, int]:
    """SIGKILL the pool process of a match worker while its series' bots are running; return it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        cluster.note_pools()
        for worker in cluster.matches:
            for child in pool_children(worker.process.pid):
                if running_bot_uids(child):
                    time.sleep(0.5)  # well inside the series
                    os.kill(child, signal.SIGKILL)
                    return worker, child
        time.sleep(0.05)
    pytest.fail("no series started within the timeout:\n" + cluster.logs())


def ratings_snapshot(season: Season) -> list[tuple[Any, ...]]:
    return list(
        Rating.objects.filter(season=season)
        .order_by("version_id")
        .values_list("version_id", "mu", "sigma", "series_played", "won", "drawn", "lost", "series_points")
    )


def test_a_season_runs_through_redis_and_celery_workers_into_postgresql_exactly_once(
    cluster: Cluster, platform_app: Celery
) -> None:
    started = time.monotonic()
    for worker in cluster.matches:  # the match workers hold no database credentials
        environment = environ_of(worker.process.pid)
        assert not [k for k in environment if "DATABASE" in k or k.startswith("PG") or k == "DJANGO_SETTINGS_MODULE"]
    assert "ARENA_DATABASE_URL" in environ_of(cluster.platform.process.pid)

    season = make_season(upload_two_bots(cluster))
    # Two bots: let them play all six series at once, so both match workers are busy.
    policy = MatchmakingPolicy(max_concurrent_per_version=SERIES)
    created = schedule_round(season, SERIES, policy=policy, rng=random.Random(3))  # enqueued on commit
    assert len(created) == SERIES

    victim_worker, victim = kill_a_pool_process_mid_series(cluster)

    deadline = time.monotonic() + 120
    while Series.objects.filter(season=season).exclude(state=SeriesState.DONE).exists():
        cluster.note_pools()
        if time.monotonic() > deadline:
            states = list(Series.objects.filter(season=season).values_list("pk", "state"))
            pytest.fail(f"series not all done within the timeout: {states}\n" + cluster.logs())
        time.sleep(0.2)

    # The kill really happened mid-series and the series went back to the queue.
    assert "WorkerLostError" in victim_worker.text() or "signal 9" in victim_worker.text(), victim_worker.text()
    assert victim not in pool_children(victim_worker.process.pid)

    series = list(Series.objects.filter(season=season).order_by("pk"))
    for one in series:
        assert SeriesResultLog.objects.filter(series=one).count() == 1
        assert GameRecord.objects.filter(series=one).count() == GAMES
        assert one.result["sandbox"] == "bwrap"
        assert not any(game["forfeit"] for game in one.result["games"])
    assert SeriesResultLog.objects.filter(series__season=season).count() == SERIES
    ratings = {r.version_id: r for r in Rating.objects.filter(season=season)}
    seats = {}
    for version_id in SeriesSeat.objects.filter(series__season=season).values_list("version_id", flat=True):
        seats[version_id] = seats.get(version_id, 0) + 1
    assert {v: r.series_played for v, r in ratings.items()} == seats
    assert RatingHistory.objects.filter(season=season, series=None).count() == len(ratings)  # the seeds
    assert RatingHistory.objects.filter(season=season).count() == len(ratings) + 2 * SERIES
    assert recompute_season(season) == {v: (r.mu, r.sigma) for v, r in ratings.items()}  # exactly

    # A duplicate delivery, through the broker to the platform worker, changes nothing.
    before = ratings_snapshot(season)
    counts = (SeriesResultLog.objects.count(), GameRecord.objects.count(), RatingHistory.objects.count())
    again = platform_app.send_task(
        "arena.record_series_result", args=[{"series_id": series[0].pk, "result": series[0].result}], queue="platform"
    )
    assert again.get(timeout=30) is False
    assert ratings_snapshot(season) == before
    assert (SeriesResultLog.objects.count(), GameRecord.objects.count(), RatingHistory.objects.count()) == counts
    print(f"pipeline: {SERIES} series recorded in {time.monotonic() - started:.1f} s, pool process {victim} killed")
