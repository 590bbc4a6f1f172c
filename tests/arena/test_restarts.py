"""Real restarts of PostgreSQL and Redis under real Celery workers: nobody needs an operator afterwards.

Each test runs its own servers (tests/arena/services.py) and the production
processes against them: a platform worker (``celery -A arena.celeryconf``)
and a match worker (``celery -A workers.celery_app``).
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from celery import Celery

from tests.arena.services import OwnPostgres, OwnRedis, service_environment
from tests.workers.test_match_worker import spec_for
from workers.celery_app import configure
from workers.delivery import DRAIN_TASK, RESULTS_STREAM

#: Long: run first, so the suite's workers overlap it with the rest (tests/conftest.py).
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
SLOW_BOT = REPO / "tests" / "workers" / "hostile" / "polite_slow"  # 40 ms a move


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    server = OwnRedis()
    server.start()
    yield server
    server.remove()


@pytest.fixture
def own_postgres() -> Iterator[OwnPostgres]:
    server = OwnPostgres()
    server.start()
    server.create_database()
    yield server
    server.stop()


class Worker:
    """A Celery worker process with its output in a file."""

    def __init__(self, app: str, queue: str, env: dict[str, str], log: Path) -> None:
        self.log = log
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", app, "worker", "-Q", queue, "-c", "1", "-l", "info",
             "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=REPO, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while " ready." not in self.output():
            assert self.process.poll() is None, f"the worker exited:\n{self.output()}"
            assert time.monotonic() < deadline, f"the worker was not ready in 60 s:\n{self.output()}"
            time.sleep(0.2)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def client(url: str) -> Celery:
    return configure(Celery("restart-test-client", set_as_current=False), url, url)


@pytest.mark.parametrize("mode", ["fast", "immediate"])
def test_the_platform_worker_survives_a_postgresql_restart(
    own_postgres: OwnPostgres, own_redis: OwnRedis, tmp_path: Path, mode: str
) -> None:
    env = service_environment(
        ARENA_DATABASE_URL=own_postgres.url,
        ARENA_BROKER_URL=own_redis.url,
        ARENA_RESULT_BACKEND=own_redis.url,
        ARENA_VAR_DIR=str(tmp_path / "var"),
        DJANGO_SETTINGS_MODULE="arena.settings",
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
        cwd=REPO, env={**env, "ARENA_NO_BOOTSTRAP": "1"}, check=True, timeout=300,
    )  # fmt: skip
    worker = Worker("arena.celeryconf", "platform", env, tmp_path / "platform-worker.log")
    try:
        app = client(own_redis.url)
        # A platform task that reads the database: every season's waiting results.
        assert app.send_task("arena.apply_pending_results", queue="platform").get(timeout=60) == 0
        own_postgres.restart(mode)
        answers = [app.send_task("arena.apply_pending_results", queue="platform").get(timeout=60) for _ in range(3)]
        assert answers == [0, 0, 0], worker.output()[-3000:]
        assert worker.alive()
    finally:
        worker.stop()
    assert "the connection is closed" not in worker.output()


def test_a_match_worker_survives_a_redis_restart_mid_series_and_delivers_the_result(
    own_redis: OwnRedis, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    env = service_environment(ARENA_BROKER_URL=own_redis.url, ARENA_WORKER_CACHE=str(cache))
    worker = Worker("workers.celery_app", "matches", env, tmp_path / "match-worker.log")
    try:
        spec = spec_for(tmp_path, [SLOW_BOT, SLOW_BOT], games=10, series_id=41)
        spec["deliver"] = True
        configure(Celery("restart-test-client", set_as_current=False), own_redis.url).send_task(
            "arena.run_series", args=[spec], queue="matches", task_id="series-41-test"
        )
        server = redis.Redis.from_url(own_redis.url)
        deadline = time.monotonic() + 60
        while not server.exists("arena:lease:series:41"):  # the worker is playing it
            assert time.monotonic() < deadline, worker.output()
            time.sleep(0.1)
        own_redis.restart()  # everything in Redis is gone, the worker's connection with it
        server = redis.Redis.from_url(own_redis.url)
        deadline = time.monotonic() + 180
        delivered = []
        while not delivered:
            assert worker.alive(), f"the match worker died:\n{worker.output()[-4000:]}"
            assert time.monotonic() < deadline, f"no result delivered:\n{worker.output()[-4000:]}"
            delivered = server.xrange(RESULTS_STREAM)
            time.sleep(0.5)
        ((_, fields),) = delivered
        assert fields[b"series"] == b"41"
        assert json.loads(fields[b"result"])["games"]
        (wake,) = server.lrange("platform", 0, -1)  # and the platform was told
        assert json.loads(wake)["headers"]["task"] == DRAIN_TASK
        time.sleep(3)
        assert worker.alive(), worker.output()[-4000:]
    finally:
        worker.stop()
    assert "Unrecoverable error" not in worker.output()


def test_a_result_the_broker_refuses_is_kept_and_published_when_it_is_back(
    own_redis: OwnRedis, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workers.delivery import PUBLISH_RETRY_POLICY, deliver, flush_outbox, outbox_dir

    app = configure(Celery("outbox-test", set_as_current=False), own_redis.url)
    app.conf.broker_connection_timeout = 1
    monkeypatch.setitem(PUBLISH_RETRY_POLICY, "interval_start", 0.1)
    own_redis.stop()
    outcome = {"series_id": 9, "result": {"game": "watch"}, "replay": None}
    assert deliver(app, outcome, tmp_path) is False
    (kept,) = outbox_dir(tmp_path).iterdir()
    assert json.loads(kept.read_text()) == outcome
    own_redis.start()
    assert flush_outbox(app, tmp_path) == 1
    assert list(outbox_dir(tmp_path).iterdir()) == []
    ((_, fields),) = redis.Redis.from_url(own_redis.url).xrange(RESULTS_STREAM)
    assert (fields[b"series"], json.loads(fields[b"result"])) == (b"9", outcome["result"])
    shutil.rmtree(outbox_dir(tmp_path))
