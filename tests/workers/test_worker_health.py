"""A match worker that fails series for reasons of its own takes itself out, says why, and loses no series.

Real Celery match workers (``workers.celery_app``) on a Redis server of the
test's own, their caches on small tmpfs mounts the test fills and frees (the
machine's disk is never filled). The test talks to them only through Redis:
the ``matches`` queue, the results stream, and the record each worker keeps of
its own health (workers/health.py).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from celery import Celery

from tests.arena.services import MatchWorker, OwnRedis, service_environment
from tests.workers.test_match_worker import spec_for
from workers.celery_app import configure
from workers.delivery import RESULTS_STREAM, outbox_dir

REPO = Path(__file__).resolve().parents[2]
PACKAGES = REPO / "bots" / "watch" / "packages"
SLOW = REPO / "tests" / "workers" / "hostile" / "polite_slow"


@contextlib.contextmanager
def small_disk(path: Path, size: str = "1m") -> Iterator[Path]:
    """Mount a tmpfs of ``size`` at ``path`` for the block (root only); unmount it after."""
    if os.geteuid() != 0:
        pytest.fail("these tests mount a small tmpfs: run them as root")
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "arena-test-disk", str(path)], check=True)
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def fill(disk: Path) -> Path:
    """Write one file until ``disk`` has no space left; return it (delete it to free the disk)."""
    filler = disk / "filler"
    with filler.open("wb") as out:
        try:
            while True:
                out.write(b"\0" * 65536)
                out.flush()
        except OSError as exc:
            full = exc
    assert full.errno == errno.ENOSPC, full
    with contextlib.suppress(OSError), filler.open("ab") as out:  # what the last partial write left
        out.write(b"\0" * 4096)
    return filler


def out_of_service(server: redis.Redis, worker: MatchWorker, field: str = "reason") -> Callable[[], Any]:
    """A condition: the worker's record says it took itself out and has ``field``; its value is the record."""

    def check() -> dict[str, str] | None:
        found = record(server, worker)
        return found if found.get("state") == "out" and found.get(field) else None

    return check


def wait_for(condition: Callable[[], Any], timeout_s: float, explain: Callable[[], str]) -> Any:
    deadline = time.monotonic() + timeout_s
    while not (value := condition()):
        if time.monotonic() > deadline:
            pytest.fail(f"not within {timeout_s:.0f} s:\n{explain()[-6000:]}")
        time.sleep(0.1)
    return value


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    server = OwnRedis()
    server.start()
    yield server
    server.remove()


@pytest.fixture
def start_worker(own_redis: OwnRedis, tmp_path: Path) -> Iterator[Callable[..., MatchWorker]]:
    """Start match workers on this test's Redis: ``start_worker(name, cache, **environment)``."""
    started: list[MatchWorker] = []

    def start(name: str, cache: Path, **settings: str) -> MatchWorker:
        env = service_environment(ARENA_BROKER_URL=own_redis.url, ARENA_WORKER_CACHE=str(cache), **settings)
        worker = MatchWorker(name, env, tmp_path / f"{name}.log")
        started.append(worker)
        worker.wait_ready()
        return worker

    yield start
    for worker in started:
        worker.stop()


def send(url: str, spec: dict[str, Any], task_id: str) -> None:
    configure(Celery("health-test-client", set_as_current=False), url).send_task(
        "arena.run_series", args=[dict(spec, deliver=True)], queue="matches", task_id=task_id
    )


def record(server: redis.Redis, worker: MatchWorker) -> dict[str, str]:
    """The worker's health record, as the platform reads it."""
    return {k.decode(): v.decode() for k, v in server.hgetall(f"arena:worker:{worker.name}").items()}


def queued(server: redis.Redis) -> list[str]:
    return [json.loads(raw)["headers"]["id"] for raw in server.lrange("matches", 0, -1)]


def stream(server: redis.Redis) -> list[dict[str, str]]:
    return [{k.decode(): v.decode() for k, v in fields.items()} for _, fields in server.xrange(RESULTS_STREAM)]


def test_a_worker_on_a_full_disk_takes_itself_out_and_comes_back_when_it_is_freed(
    own_redis: OwnRedis, start_worker: Callable[..., MatchWorker], tmp_path: Path
) -> None:
    server = redis.Redis.from_url(own_redis.url)
    with small_disk(tmp_path / "disk") as disk:
        filler = fill(disk)
        # Its first probe comes 3 s after it started: the series it takes first is what finds the disk full.
        worker = start_worker("sick", disk / "cache", ARENA_WORKER_PROBE_S="3", ARENA_WORKER_MIN_FREE_MB="0")
        spec = spec_for(tmp_path, [PACKAGES / "random", PACKAGES / "greedy"], series_id=31)
        send(own_redis.url, spec, "series-31-first")
        # Out: the record says why, the consumer is stopped, the series waits in the queue for another worker.
        out = wait_for(out_of_service(server, worker), 30, worker.output)
        assert "No space left on device" in out["reason"], out
        assert out["infrastructure_failures"] == "1", out
        wait_for(lambda: queued(server) == ["series-31-first"], 30, worker.output)
        inspector = configure(Celery("health-test-inspect", set_as_current=False), own_redis.url).control.inspect(
            destination=[worker.name], timeout=2
        )
        assert inspector.active_queues() == {worker.name: []}
        time.sleep(4)  # probes later: still out, the series still waiting, nothing played
        assert (record(server, worker)["state"], queued(server), stream(server)) == ("out", ["series-31-first"], [])
        assert "takes itself out of the matches queue" in worker.output()
        # Freed: the probe passes, the worker takes series again and plays that one, once.
        filler.unlink()
        wait_for(lambda: stream(server), 60, worker.output)
        ((entry),) = stream(server)
        assert entry["series"] == "31"
        assert json.loads(entry["result"])["games"]
        assert record(server, worker)["state"] == "ok"
        wait_for(lambda: record(server, worker).get("series_played") == "1", 10, worker.output)  # noted after
        assert queued(server) == []
        assert not server.exists("arena:series-tries:31")  # the worker's own fault cost the series no try
        assert "takes series again" in worker.output()


def test_a_result_that_can_be_neither_published_nor_kept_is_played_again(
    own_redis: OwnRedis, start_worker: Callable[..., MatchWorker], tmp_path: Path
) -> None:
    server = redis.Redis.from_url(own_redis.url)
    with small_disk(tmp_path / "disk") as disk:
        worker = start_worker("outbox", disk / "cache", ARENA_WORKER_PROBE_S="1", ARENA_WORKER_MIN_FREE_MB="0")
        spec = spec_for(tmp_path, [SLOW, SLOW], series_id=41)
        send(own_redis.url, spec, "series-41-warm")  # unpacks both bots into the worker's memory
        wait_for(lambda: len(stream(server)) == 1, 60, worker.output)
        server.delete(RESULTS_STREAM)
        # Redis will refuse the worker's result (no XADD for anyone), and while it plays its disk fills up.
        server.execute_command("ACL", "SETUSER", "default", "-xadd")
        send(own_redis.url, spec, "series-41-again")
        wait_for(lambda: server.exists("arena:lease:series:41"), 30, worker.output)
        filler = fill(disk)
        out = wait_for(out_of_service(server, worker, "last_failure"), 60, worker.output)
        assert "No space left on device" in out["reason"], out
        assert out["last_failure"].startswith("UndeliveredResult: series 41: the broker refused its result"), out
        assert "the outbox could not keep it ([Errno 28] No space left on device" in out["last_failure"], out
        # Not thrown away: the series is back in the queue, and no half-written file stays behind.
        wait_for(lambda: queued(server) == ["series-41-again"], 30, worker.output)
        assert list(outbox_dir(disk / "cache").iterdir()) == []
        server.execute_command("ACL", "SETUSER", "default", "+xadd")
        filler.unlink()
        wait_for(lambda: stream(server), 60, worker.output)
        assert [entry["series"] for entry in stream(server)] == ["41"]
        assert queued(server) == []


def test_a_series_that_fails_on_every_try_is_given_up_and_reported_failed(
    own_redis: OwnRedis, start_worker: Callable[..., MatchWorker], tmp_path: Path
) -> None:
    server = redis.Redis.from_url(own_redis.url)
    worker = start_worker("healthy", tmp_path / "cache")
    spec = spec_for(tmp_path, [PACKAGES / "random", PACKAGES / "random"], series_id=51)
    spec["rules_version"] = "99"  # no worker has these rules: the spec's fault, not the worker's
    send(own_redis.url, spec, "series-51-x")
    failure = wait_for(lambda: stream(server), 60, worker.output)
    assert failure == [
        {
            "series": "51",
            "failure": "failed 3 times on the match workers; the last, on "
            f"{worker.name}: SpecError: watch rules version '99' asked, this worker has '1'",
        }
    ]
    time.sleep(1)
    assert queued(server) == []  # acknowledged: never sent round again
    assert record(server, worker)["state"] == "ok"
    assert record(server, worker).get("infrastructure_failures", "0") == "0"
    assert server.get("arena:stats:series-retried") == b"2"
    assert server.get("arena:stats:series-given-up") == b"1"


def test_failures_the_probe_cannot_see_take_a_worker_out_for_a_cool_down(
    own_redis: OwnRedis, start_worker: Callable[..., MatchWorker], tmp_path: Path
) -> None:
    server = redis.Redis.from_url(own_redis.url)
    worker = start_worker("unlucky", tmp_path / "cache", ARENA_WORKER_COOLDOWN_S="3", ARENA_WORKER_PROBE_S="1")
    closed = f"http://127.0.0.1:{free_port()}/artifacts/bots/aa/x.tar.gz"  # nothing listens: the store is unreachable
    for series_id in (61, 62, 63):
        spec = spec_for(tmp_path, [PACKAGES / "random", PACKAGES / "random"], series_id=series_id)
        spec["seats"][0]["archive"] = closed
        send(own_redis.url, spec, f"series-{series_id}-x")
    out = wait_for(out_of_service(server, worker), 60, worker.output)
    assert out["reason"].startswith("3 series in a row failed on it; the last: ArtifactError: fetching bot"), out
    assert out["back_at"], out  # a cool-down, not "when fixed": nothing it can check says when
    wait_for(lambda: sorted(queued(server)) == ["series-61-x", "series-62-x", "series-63-x"], 3, worker.output)
    wait_for(lambda: record(server, worker).get("state") == "ok", 30, worker.output)  # back to try again
    assert "takes series again" in worker.output()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_outbox_on_a_full_disk_raises_and_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from workers import delivery

    monkeypatch.setitem(delivery.PUBLISH_RETRY_POLICY, "interval_start", 0.05)
    monkeypatch.setitem(delivery.PUBLISH_RETRY_POLICY, "interval_max", 0.05)
    app = configure(Celery("outbox-test", set_as_current=False), "redis://127.0.0.1:1/0")  # nothing listens
    delivery._STREAM_CLIENTS.pop("redis://127.0.0.1:1/0", None)
    outcome = {"series_id": 9, "result": {"game": "watch", "games": [{"actions": ["x"] * 5000}]}}
    with small_disk(tmp_path / "disk", "256k") as disk:
        outbox_dir(disk).mkdir()
        filler = fill(disk)
        with pytest.raises(delivery.UndeliveredResult, match=r"outbox could not keep it .*No space left on device"):
            delivery.deliver(app, outcome, disk)
        assert list(outbox_dir(disk).iterdir()) == []
        # With room again it is kept whole, and what a killed worker left half-written is removed.
        filler.unlink()
        stale, fresh = outbox_dir(disk) / ".incoming-dead", outbox_dir(disk) / ".incoming-live"
        old = outbox_dir(disk) / "tmpk3x9.tmp"  # a NamedTemporaryFile of an earlier version
        for path in (stale, fresh, old):
            path.write_text('{"half": ')
        for path in (stale, old):
            os.utime(path, (time.time() - 600, time.time() - 600))
        assert delivery.deliver(app, outcome, disk) is False
        assert delivery.flush_outbox(app, disk) == 0  # the broker still refuses: the result waits
        assert sorted(p.name for p in outbox_dir(disk).iterdir()) == [".incoming-live", "series-9.json"]
        assert json.loads((outbox_dir(disk) / "series-9.json").read_text()) == outcome
        shutil.rmtree(outbox_dir(disk))


def test_the_lease_is_held_until_the_result_is_in_the_stream(
    own_redis: OwnRedis, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The platform's inventory sends again a series it finds neither leased nor with its result in the
    # stream: the worker must not drop the lease before its result is there.
    from workers import delivery, tasks

    app = configure(Celery("lease-test", set_as_current=False), own_redis.url)
    server = redis.Redis.from_url(own_redis.url)
    monkeypatch.setattr(tasks, "CACHE_DIR", tmp_path / "cache")
    monkeypatch.setattr(tasks, "play", lambda spec: {"series_id": spec["series_id"], "result": {"games": []}})
    leased_while_appending = []
    append_result = delivery.append_result

    def append_and_look(client: Any, outcome: dict[str, Any]) -> None:
        leased_while_appending.append(bool(server.exists("arena:lease:series:71")))
        append_result(client, outcome)

    monkeypatch.setattr(delivery, "append_result", append_and_look)
    app.tasks["arena.run_series"].apply(args=[{"series_id": 71, "deliver": True}]).get()
    assert leased_while_appending == [True]
    assert [entry["series"] for entry in stream(server)] == ["71"]
    assert not server.exists("arena:lease:series:71")  # and dropped once it was
