"""``manage.py demo``, the README's main job: the reference bots validated, a season played, the results printed."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from arena.bots.models import BotVersion
from arena.ops.management.commands.demo import ladders
from arena.seasons.models import Season
from arena.series.models import Series, SeriesState

# transaction=True: validation runs on commit, as it does for the real command.
pytestmark = pytest.mark.django_db(transaction=True)


def test_a_second_run_goes_on_with_the_running_seasons_and_the_demo_bots(settings, tmp_path: Path) -> None:
    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    call_command("demo", "--rounds", "1", "--quiet", "--no-serve", stdout=StringIO())
    out = StringIO()
    call_command("demo", "--rounds", "1", "--quiet", "--no-serve", stdout=out)
    rated = [ladder for ladder in ladders() if ladder.demo.players > 1]
    solo = [ladder for ladder in ladders() if ladder.demo.players == 1]
    # Each game's reference bots, entered by as many demo users as each demo season asks: not again.
    entered = [len(ladder.packages) * ladder.demo.owners_per_bot for ladder in ladders()]
    assert BotVersion.objects.count() == sum(entered)
    assert sorted(Season.objects.values_list("game", "status")) == sorted(
        (ladder.game, "running") for ladder in ladders()
    )
    # One series a round, per rated season, per run; a solo season's one series per version, in the first.
    solo_series = sum(entered[len(rated) :])
    assert Series.objects.filter(state=SeriesState.DONE).count() == 2 * len(rated) + solo_series
    assert out.getvalue().count(": 2 series played") == len(rated) + len(solo)
    assert get_user_model().objects.filter(username="admin").count() == 1


def test_a_finished_demo_season_is_followed_by_a_new_one(settings, tmp_path: Path) -> None:
    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    call_command("demo", "--rounds", "0", "--quiet", "--no-serve", stdout=StringIO())
    Season.objects.filter(game="watch").update(status=Season.Status.FINISHED)
    call_command("demo", "--rounds", "0", "--quiet", "--no-serve", stdout=StringIO())
    assert list(Season.objects.filter(game="watch").order_by("pk").values_list("status", flat=True)) == [
        "finished",
        "running",
    ]
    assert Season.objects.filter(game="watch", status="running").get().name.startswith("Demo season 2 ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rounds", "-1"], "--rounds must be 0 or more"),
        (["--slots", "0"], "--slots positive"),
        (["--port", "70000"], "--port 70000: give a port from 1 to 65535"),
        (["--workers", "0"], "--workers must be positive"),
    ],
)
def test_it_refuses_bad_numbers_before_doing_anything(args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        call_command("demo", *args)
    assert not Season.objects.exists()


def test_it_serves_the_populated_site_on_the_embedded_default(tmp_path: Path) -> None:
    # The README's command as a new user runs it: SQLite in a fresh var/, tasks in-process, then the site.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "ARENA_NO_BOOTSTRAP": "1", "ARENA_VAR_DIR": str(tmp_path / "var")}
    env.pop("ARENA_DATABASE_URL", None)
    repo = Path(__file__).resolve().parents[3]
    demo = subprocess.Popen(
        [sys.executable, "manage.py", "demo", "--rounds", "1", "--quiet", "--port", str(port)],
        cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/admin/login/", timeout=2) as page:
                    body = page.read().decode()
                break
            except OSError:
                assert demo.poll() is None, demo.stdout.read() if demo.stdout else ""
                assert time.monotonic() < deadline, "the demo did not serve the site within 2 minutes"
                time.sleep(0.5)
        assert "Django administration" in body
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/static/admin/css/base.css", timeout=2) as css:
            assert css.status == 200
        assert (tmp_path / "var" / "arena.sqlite3").exists()
    finally:
        demo.terminate()
        output = demo.communicate(timeout=20)[0]
    # Every game's demo season and each solo ladder: one round, one series.
    assert output.count(": 1 series played") == len(ladders())
    assert "Serving it until Ctrl-C." in output
