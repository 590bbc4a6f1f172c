"""A match worker on "another host": its file system shares nothing with the platform's.

The match worker (a real Celery worker process, ``workers.celery_app``) runs in
a mount namespace of its own in which the platform's directory (the artifact
store, the platform worker's files) is covered by an empty tmpfs, and it has
neither database credentials nor the platform's settings. The platform serves
archives over HTTP (this test's live server, the real Django view) and puts a
signed URL in every spec. Two uploads are validated and a season plays two
series through Redis, the remote worker and the platform worker into
PostgreSQL, as in production across hosts.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from celery import Celery
from django.contrib.auth import get_user_model
from django.db import connection

from arena.bots.models import BotVersion
from arena.bots.submissions import submit_version
from arena.bots.validation import reference_archive
from arena.matchmaking.pairing import MatchmakingPolicy
from arena.matchmaking.scheduling import schedule_round
from arena.seasons.models import Season, SeasonEntry
from arena.series.models import Series, SeriesState
from tests.arena.test_pipeline_integration import Worker, environ_of, stop, wait_ready
from tests.arena.test_pipeline_integration import platform_app as platform_app  # the fixture, re-exported

REPO = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture
def redis_url(own_redis_server: str) -> str:
    """This module's database of the run's own Redis server (tests/conftest.py), emptied first.

    The platform_app fixture (tests/arena/test_pipeline_integration.py) sends through it too.
    """
    url = f"{own_redis_server}/8"
    redis.Redis.from_url(url).flushdb()
    return url


def start(name: str, command: list[str], env: dict[str, str], log: Path) -> Worker:
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    return Worker(name, process, log)


def celery(app: str, queue: str, name: str) -> list[str]:
    return [sys.executable, "-m", "celery", "-A", app, "worker", "-Q", queue, "-c", "1", "-n", f"{name}@%h",
            "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "info"]  # fmt: skip


@pytest.fixture
def hosts(
    transactional_db: None, settings: Any, live_server: Any, tmp_path: Path, redis_url: str
) -> Iterator[dict[str, Any]]:
    if not shutil.which("unshare") or os.geteuid() != 0:
        pytest.fail("this test needs root and util-linux's unshare (a mount namespace for the remote worker)")
    platform_dir = tmp_path / "platform"
    remote_dir = tmp_path / "remote"
    platform_dir.mkdir()
    remote_dir.mkdir()
    settings.ARENA_ARTIFACT_DIR = platform_dir / "artifacts"
    settings.ARENA_ARTIFACT_BASE_URL = live_server.url
    database = connection.settings_dict
    database_url = (
        f"postgres://{database['USER'] or 'postgres'}@{database['HOST'] or '127.0.0.1'}:"
        f"{database['PORT'] or 5432}/{database['NAME']}"
    )
    base = {
        key: value
        for key, value in os.environ.items()
        if not (key.startswith(("ARENA_", "PG", "CELERY")) or "DATABASE" in key or key == "DJANGO_SETTINGS_MODULE")
    }
    base.update(ARENA_BROKER_URL=redis_url, PYTHONPATH=os.pathsep.join([str(REPO), str(REPO / "platform")]))
    platform_env = {
        **base,
        "DJANGO_SETTINGS_MODULE": "arena.settings",
        "ARENA_DATABASE_URL": database_url,
        "ARENA_ARTIFACT_DIR": str(settings.ARENA_ARTIFACT_DIR),
        "ARENA_ARTIFACT_BASE_URL": live_server.url,
        # The test counts exactly the series it queues: no top-up after a recording (and no beat runs).
        "ARENA_MATCHMAKER_DEPTH_PER_PROCESS": "0",
    }
    # The remote host: a private mount namespace where the platform's directory (and the
    # embedded default's var/, when there is one) is an empty tmpfs.
    hidden = [str(platform_dir)] + [str(REPO / "var")] * (REPO / "var").is_dir()
    mounts = " && ".join(f'mount -t tmpfs -o size=1m,mode=0755 elsewhere "{path}"' for path in hidden)
    remote = ["unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", f'{mounts} && exec "$@"', "sh"]
    remote_env = {**base, "ARENA_WORKER_CACHE": str(remote_dir / "cache")}
    workers = []
    try:
        workers.append(
            start("platform", celery("arena.celeryconf", "platform", "platform"), platform_env, tmp_path / "p.log")
        )
        workers.append(
            start("remote", remote + celery("workers.celery_app", "matches", "remote"), remote_env, tmp_path / "r.log")
        )
        wait_ready(workers)
        yield {"platform": workers[0], "remote": workers[1], "platform_dir": platform_dir, "remote_dir": remote_dir}
    finally:
        stop(workers)


def logs(hosts: dict[str, Any]) -> str:
    return "\n".join(f"===== {hosts[n].name}\n{hosts[n].text()[-5000:]}" for n in ("platform", "remote"))


def test_a_match_worker_sharing_no_files_with_the_platform_validates_and_plays(
    hosts: dict[str, Any], platform_app: Celery, settings: Any
) -> None:
    remote = hosts["remote"].process.pid
    # The remote worker's view of the platform's directory is empty; it holds no credentials.
    assert os.listdir(f"/proc/{remote}/root{hosts['platform_dir']}") == []
    environment = environ_of(remote)
    assert not [k for k in environment if "DATABASE" in k or k.startswith("PG") or k == "DJANGO_SETTINGS_MODULE"]

    users = get_user_model().objects
    packages = REPO / "bots" / "watch" / "packages"
    versions = [
        submit_version(users.create_user(owner), name, packages / name)
        for owner, name in (("ann", "greedy"), ("bob", "random"))
    ]
    # Stored here, and not there.
    assert any(Path(settings.ARENA_ARTIFACT_DIR).rglob("*.tar.gz"))
    assert not Path(f"/proc/{remote}/root{settings.ARENA_ARTIFACT_DIR}").exists()
    deadline = time.monotonic() + 90
    while BotVersion.objects.filter(pk__in=[v.pk for v in versions], status=BotVersion.Status.VALIDATING).exists():
        if time.monotonic() > deadline:
            pytest.fail("the uploads were not validated by the remote worker in time:\n" + logs(hosts))
        time.sleep(0.2)
    for version in versions:
        version.refresh_from_db()
        assert version.status == BotVersion.Status.ACTIVE, (version.status, logs(hosts))

    season = Season.objects.create(name="Two hosts", game="watch", games_per_series=2, decision_ms=5000)
    for version in versions:
        SeasonEntry.objects.create(season=season, version=version)
    season.transition(Season.Status.RUNNING)
    created = schedule_round(season, 2, policy=MatchmakingPolicy(max_concurrent_per_version=2), rng=random.Random(5))
    assert len(created) == 2
    deadline = time.monotonic() + 90
    while Series.objects.filter(season=season).exclude(state=SeriesState.DONE).exists():
        if time.monotonic() > deadline:
            states = list(Series.objects.filter(season=season).values_list("pk", "state", "failure_reason"))
            pytest.fail(f"series not done in time: {states}\n" + logs(hosts))
        time.sleep(0.2)
    for series in Series.objects.filter(season=season):
        assert series.result["sandbox"] == "bwrap"
        assert len(series.result["games"]) == 2

    # Everything came over HTTP into the remote worker's own cache, named by sha256: both
    # versions and the reference bot of the validation series (here the same files as the
    # uploaded random bot, so the same archive), each fetched once.
    cached = sorted(p.name for p in (hosts["remote_dir"] / "cache" / "archives").iterdir())
    expected = {f"{v.archive_sha256}.{v.archive_format}" for v in versions}
    assert set(cached) == expected | {f"{reference_archive('watch')[0]}.tar.gz"}, cached
