"""A real Celery match worker on real Redis runs sandboxed series from self-contained specs.

The worker is a separate ``celery worker`` process consuming the ``matches``
queue, exactly as deployed; the test talks to it only through Redis.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
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

import engines
from workers import chance
from workers.celery_app import configure

REPO = Path(__file__).resolve().parents[2]


def make_archive(source: Path, target: Path) -> tuple[str, str]:
    """Return (location, sha256) of a tar.gz of the bot directory ``source``."""
    path = shutil.make_archive(str(target), "gztar", root_dir=source)
    return path, hashlib.sha256(Path(path).read_bytes()).hexdigest()


def spec_for(tmp_path: Path, bots: list[Path], games: int = 2, series_id: int = 1) -> dict:
    seats = []
    for index, bot in enumerate(bots):
        location, sha = make_archive(bot, tmp_path / f"archive-{series_id}-{index}")
        seats.append({"version_id": index + 1, "name": bot.name, "archive": f"file://{location}", "sha256": sha})
    return {
        "series_id": series_id,
        "game": "watch",
        "rules_version": engines.get("watch").info.rules_version,
        "config": {},
        "chance": chance.local_secret(series_id).hex(),  # the series' chance secret, as the platform sends it
        "games": games,
        "time_control": {"decision_ms": 5000, "bank_ms": 120000},
        "seats": seats,
    }


@pytest.fixture
def redis_url(own_redis_server: str) -> str:
    """This module's database of the run's own Redis server (tests/conftest.py), emptied first."""
    url = f"{own_redis_server}/13"
    redis.Redis.from_url(url).flushdb()
    return url


@pytest.fixture
def worker(tmp_path: Path, redis_url: str) -> Iterator[subprocess.Popen[str]]:
    env = {
        **os.environ,
        "ARENA_BROKER_URL": redis_url,
        "ARENA_RESULT_BACKEND": redis_url,
        "ARENA_WORKER_CACHE": str(tmp_path / "cache"),
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker", "-Q", "matches", "-c", "1",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "info"],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    assert process.stdout is not None
    deadline = time.monotonic() + 60
    log = []
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        log.append(line)
        if " ready." in line:
            break
        if not line and process.poll() is not None:
            pytest.fail("the worker did not start:\n" + "".join(log))
    else:
        pytest.fail("the worker was not ready within 60 s:\n" + "".join(log))
    os.set_blocking(process.stdout.fileno(), False)
    yield process
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def client(redis_url: str) -> Celery:
    return configure(Celery("test-client", set_as_current=False), redis_url, redis_url)


def pool_children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as handle:
        return [int(child) for child in handle.read().split()]


def bot_uids_under(pid: int) -> set[int]:
    """Return the uids of the live, unprivileged processes descending from ``pid``: its series' bots.

    The slot (so the uids) a pool process's referee runs its bots at is leased
    host-wide when the series starts (workers/slots.py), so it is read from /proc.
    """
    uids, stack = set(), [pid]
    while stack:
        with contextlib.suppress(OSError, ValueError):
            process = stack.pop()
            stack += pool_children(process)
            with open(f"/proc/{process}/status") as handle:
                fields = dict(line.split(":", 1) for line in handle if ":" in line)
            uid = int(fields["Uid"].split()[0])
            if uid != 0 and not fields["State"].strip().startswith(("Z", "X")):
                uids.add(uid)
    return uids


def processes_of_uids(uids: set[int]) -> list[int]:
    """Return the live (not zombie) processes running as any of ``uids``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/status") as handle:
                    fields = dict(line.split(":", 1) for line in handle if ":" in line)
            except OSError:
                continue
            # A zombie is dead, only waiting for its parent; when an earlier test made this
            # pytest process a child subreaper (the referee does, as root), the killed
            # worker's bubblewrap processes wait here to be reaped.
            if int(fields["Uid"].split()[0]) in uids and not fields["State"].strip().startswith("Z"):
                found.append(int(entry))
    return found


def test_it_runs_a_series_from_a_spec_and_returns_the_result_document(worker, redis_url: str, tmp_path: Path) -> None:
    packages = REPO / "bots" / "watch" / "packages"
    spec = spec_for(tmp_path, [packages / "greedy", packages / "random"])
    outcome = client(redis_url).send_task("arena.run_series", args=[spec], queue="matches").get(timeout=120)
    document = outcome["result"]
    assert outcome["series_id"] == 1
    assert document["sandbox"] == "bwrap"
    assert [p["sha256"] for p in document["players"]] == [seat["sha256"] for seat in spec["seats"]]
    assert len(document["games"]) == 2
    assert sum(document["score"]["points"]) in (0, 2)
    assert outcome["result"]["games"][0]["actions"]  # the replay travels in the result


def test_a_series_whose_worker_process_is_killed_runs_again_to_the_end(worker, redis_url: str, tmp_path: Path) -> None:
    slow = REPO / "tests" / "workers" / "hostile" / "polite_slow"  # 40 ms a move: the series takes seconds
    spec = spec_for(tmp_path, [slow, slow], games=4, series_id=7)
    result = client(redis_url).send_task("arena.run_series", args=[spec], queue="matches")
    # Wait until the pool process is refereeing (its bots exist), then kill it mid-series.
    deadline = time.monotonic() + 30
    victim, uids = None, set()
    while time.monotonic() < deadline and len(uids) < 2:
        for child in pool_children(worker.pid):
            if len(found := bot_uids_under(child)) == 2:  # both bots have started
                victim, uids = child, found
        time.sleep(0.05)
    assert victim is not None, "the series never started"
    time.sleep(0.5)
    os.kill(victim, signal.SIGKILL)
    outcome = result.get(timeout=180)  # acks_late + reject_on_worker_lost: the series went back to the queue
    assert outcome["series_id"] == 7
    assert len(outcome["result"]["games"]) == 4
    assert not any(g["forfeit"] for g in outcome["result"]["games"])
    # bubblewrap's --die-with-parent took the killed referee's bots with it.
    assert processes_of_uids(uids) == []


def test_it_refuses_a_spec_for_rules_it_does_not_have(worker, redis_url: str, tmp_path: Path) -> None:
    packages = REPO / "bots" / "watch" / "packages"
    spec = spec_for(tmp_path, [packages / "random", packages / "random"])
    spec["rules_version"] = "99"
    with pytest.raises(Exception, match="rules version '99' asked, this worker has '1'"):
        client(redis_url).send_task("arena.run_series", args=[spec], queue="matches").get(timeout=60)


def test_it_retries_and_then_fails_on_an_archive_that_does_not_match_its_hash(tmp_path: Path) -> None:
    # In-process (eager): the same task code, no worker needed to see the check.
    from workers.tasks import ArtifactError, fetch_package

    location, _ = make_archive(REPO / "bots" / "watch" / "packages" / "random", tmp_path / "random")
    with pytest.raises(ArtifactError, match="not the expected"):
        fetch_package(location, "0" * 64)


def test_the_match_worker_loads_neither_django_settings_nor_the_platform() -> None:
    # kombu borrows one helper class from django.utils when Django is installed;
    # what must never load is the settings, the ORM or the platform's code.
    code = (
        "import sys, workers.tasks, workers.celery_app; "
        "print(sorted(m for m in sys.modules if m.startswith(('django.conf', 'django.db', 'arena'))))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "arena.settings"}
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
