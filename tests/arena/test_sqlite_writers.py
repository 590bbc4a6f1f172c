"""SQLite under concurrent writers: parallel uploads while the served site's ladder validates and records.

The embedded default is one SQLite file written by the threaded web server and
by the embedded ladder's worker threads at once. Before WAL, immediate
transactions and a busy timeout, three parallel uploads gave two answers of
500 "database is locked". Here ``manage.py serve`` runs on a fresh SQLite
database with a running Watch season; eight uploads go in at once through the
API while the ladder validates and plays. Every upload must be accepted, every
version validated, series played and recorded, and the server's log must hold
no "database is locked" and no traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from workers.apiclient import ArenaClient, ClientError, pack_directory

REPO = Path(__file__).resolve().parents[2]
STARTER = REPO / "bots" / "starter" / "watch-python"
USERS = 4
UPLOADS_PER_USER = 2

SETUP = """
import json
from django.contrib.auth import get_user_model
from arena.api.tokens import issue_token
from arena.seasons.models import Season
season = Season.objects.create(name="Writers", game="watch", games_per_series=2, players_per_series=2)
season.transition(Season.Status.RUNNING)
keys = []
for number in range({users}):
    user = get_user_model().objects.create_user(f"writer{{number}}", password="correct-horse-battery-7")
    keys.append(issue_token(user, "test")[1])
print(json.dumps(keys))
"""


def manage(var_dir: Path, *args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=environment(var_dir),
        text=True,
        capture_output=True,
        **kwargs,
    )


def environment(var_dir: Path) -> dict[str, str]:
    """The embedded default in ``var_dir``: no database URL, no broker, this interpreter as it is."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("ARENA_", "DJANGO_"))}
    env.update(
        ARENA_VAR_DIR=str(var_dir),
        ARENA_NO_BOOTSTRAP="1",
        ARENA_MATCHMAKER_INTERVAL_S="1",
        PYTHONFAULTHANDLER="1",
        PYTHONUNBUFFERED="1",
    )
    return env


def test_parallel_uploads_while_the_ladder_records_never_meet_a_locked_database(tmp_path: Path) -> None:
    from tests.arena.e2e.test_main_command import interrupt
    from tests.arena.services import free_port

    var_dir = tmp_path / "var"
    assert manage(var_dir, "migrate", "--verbosity", "0", check=True).returncode == 0
    setup = manage(var_dir, "shell", "-c", SETUP.format(users=USERS), check=True)
    keys = json.loads(setup.stdout.strip().splitlines()[-1])
    port = free_port()
    log = tmp_path / "serve.log"
    server = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port), "--workers", "2"],
        cwd=REPO,
        env=environment(var_dir),
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        clients = [ArenaClient(f"http://127.0.0.1:{port}", key) for key in keys]
        wait_for(lambda: answers(clients[0]), 60, "the server to answer", log)
        archive = pack_directory(STARTER)
        jobs = [(client, f"bot{index}") for client in clients for index in range(UPLOADS_PER_USER)]
        with ThreadPoolExecutor(len(jobs)) as pool:
            outcomes = list(pool.map(lambda job: try_upload(*job, archive), jobs))
        refused = [outcome for outcome in outcomes if isinstance(outcome, str)]
        assert not refused, refused
        versions = [(clients[i // UPLOADS_PER_USER], outcome["id"]) for i, outcome in enumerate(outcomes)]

        def all_validated() -> bool:
            return all(client.version(version_id)["status"] == "active" for client, version_id in versions)

        wait_for(all_validated, 180, "every upload to be validated", log)

        def series_recorded() -> bool:
            season = clients[0].request("GET", "/api/seasons/")["results"][0]
            board = clients[0].request("GET", f"/api/seasons/{season['id']}/leaderboard/")["results"]
            return sum(row["series_played"] for row in board) >= 2 * 10  # ten two-seat series recorded

        wait_for(series_recorded, 180, "ten series to be recorded", log)
    finally:
        interrupt(server, log)
    output = log.read_text(errors="replace")
    assert "database is locked" not in output, output[-4000:]
    assert "Traceback" not in output, output[-4000:]
    assert "Stopped; every series played was recorded." in output, output[-2000:]


def try_upload(client: ArenaClient, bot: str, archive: bytes) -> dict[str, object] | str:
    """Upload ``archive`` as ``bot``: the new version's document, or the error as text."""
    try:
        return client.upload(bot, f"{bot}.tar.gz", archive)
    except ClientError as exc:
        return f"{bot}: {exc}"


def answers(client: ArenaClient) -> bool:
    try:
        client.request("GET", "/api/me/")
        return True
    except (ClientError, OSError):
        return False


def wait_for(condition: object, timeout_s: float, what: str, log: Path) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            pytest.fail(f"waited {timeout_s:.0f} s for {what}; the server said:\n{log.read_text()[-4000:]}")
        time.sleep(0.5)
