"""``manage.py serve`` stops on SIGTERM exactly as on Ctrl-C: the series being played finish and are recorded.

A container runtime or a service manager stops a process with SIGTERM, not
Ctrl-C (SIGINT). Here a real ``manage.py serve`` runs on an embedded database
of the test's own with a running Watch season of two versions whose bot
thinks for a while before each move, so that a series is surely being played
when the signal comes: then the server must say it is stopping, let that
series finish, record it, exit 0, and leave a database SQLite's stock
integrity check passes.
"""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from tests.arena.embedded_db import DATABASE, REPO, environment, manage, stock_integrity_check
from tests.arena.services import descendants, free_port

STARTER = REPO / "bots" / "starter" / "watch-python"
#: Each decision of the test's bot waits this long, so a two-game series lasts a few seconds.
THINK_S = 0.05

SETUP = """
from django.contrib.auth import get_user_model
from django.db import transaction
from arena.bots.submissions import mark_validation_result, submit_version
from arena.seasons.models import Season, SeasonEntry

season = Season.objects.create(name="Stopping", game="watch", games_per_series=2, players_per_series=2)
with transaction.atomic():  # marked valid before the validation queued on commit runs: it finds them decided
    for owner in ("ann", "bob"):
        version = submit_version(get_user_model().objects.create_user(owner), "thinker", {package!r})
        version = mark_validation_result(version, True, "the test's own bot")
        SeasonEntry.objects.get_or_create(season=season, version=version)
season.transition(Season.Status.RUNNING)
"""


def thinking_bot(folder: Path) -> Path:
    """Write the starter Watch bot, waiting THINK_S before each decision, as a package in ``folder``."""
    folder.mkdir()
    (folder / "bot.toml").write_text('name = "thinker"\nentry = "main.py"\ngames = ["watch"]\n')
    starter = (STARTER / "main.py").read_text().split('if __name__ == "__main__":')[0]
    (folder / "main.py").write_text(
        starter
        + f"""
import time


class ThinkingPolicy(StarterPolicy):
    def choose(self, observation: dict, legal_actions: list[int]) -> int:
        time.sleep({THINK_S})
        return super().choose(observation, legal_actions)


if __name__ == "__main__":
    run(ThinkingPolicy)
"""
    )
    return folder


def series_states(database: Path) -> list[tuple[int, str]]:
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30)
    try:
        return list(connection.execute("SELECT id, state FROM series_series ORDER BY id"))
    finally:
        connection.close()


def logged_results(database: Path) -> int:
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30)
    try:
        return connection.execute("SELECT count(*) FROM series_seriesresultlog").fetchone()[0]
    finally:
        connection.close()


def test_sigterm_lets_the_series_being_played_finish_and_be_recorded(embedded_var: Path, tmp_path: Path) -> None:
    manage(embedded_var, "shell", "-c", SETUP.format(package=str(thinking_bot(tmp_path / "thinker"))))
    database = embedded_var / DATABASE
    log = tmp_path / "serve.log"
    server = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(free_port()), "--workers", "1"],
        cwd=REPO,
        env=environment(embedded_var, ARENA_MATCHMAKER_INTERVAL_S="1"),
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        # The first series is being played: queued by the matchmaker, none done yet, and its bots' processes up.
        deadline = time.monotonic() + 120
        while not (series_states(database) and descendants(server.pid)):
            assert server.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, f"no series started within 120 s:\n{log.read_text()[-3000:]}"
            time.sleep(0.05)
        playing = series_states(database)
        assert [state for _, state in playing] == ["queued"] * len(playing), playing
        server.send_signal(signal.SIGTERM)
        returncode = server.wait(120)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    output = log.read_text()
    assert returncode == 0, output[-3000:]
    assert "Stopping: letting 1 task(s) being run finish" in output, output[-3000:]
    assert "Stopped; every series played was recorded." in output, output[-3000:]
    assert "Traceback" not in output, output[-3000:]
    states = dict(series_states(database))
    first = playing[0][0]
    assert states[first] == "done", states  # the series being played when the signal came
    assert set(states.values()) <= {"done", "queued"}, states  # the rest wait for the next start
    assert logged_results(database) == list(states.values()).count("done")
    assert stock_integrity_check(database) == ["ok", "ok"]
