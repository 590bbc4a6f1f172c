"""``manage.py demo``, the README's main job: the reference bots validated, a season played, the results printed."""

from __future__ import annotations

import os
import re
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


def test_it_plays_a_season_of_the_reference_bots_and_prints_the_leaderboard(settings, tmp_path: Path) -> None:
    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    out = StringIO()
    call_command("demo", "--rounds", "3", "--quiet", "--no-serve", stdout=out)
    season = Season.objects.get(game="watch")
    assert season.status == Season.Status.RUNNING
    assert Series.objects.filter(season=season, state=SeriesState.DONE).count() == 3
    assert set(
        BotVersion.objects.filter(bot__name__in=["greedy", "random", "solver"]).values_list("bot__name", "status")
    ) == {("greedy", "active"), ("random", "active"), ("solver", "active")}
    text = out.getvalue()
    assert f"{season.name}: 3 series played" in text
    board = text.split("series played\n")[1].strip().splitlines()
    assert board[0].split()[:3] == ["#", "bot", "owner"]
    assert len([line for line in board[1:] if line.strip()[:1].isdigit()]) >= 2  # everyone who has played
    first = Series.objects.filter(season=season).order_by("id").first()
    assert f"Series {first.pk}: " in text
    # The series as the CLI prints it: a row per game, then the score worked out step by step.
    assert re.search(r"#\s+White \(seat 0\)\s+Winner\s+Reason", text)
    assert "White move totals (the lower scores)" in text
    assert "  How:" in text
    assert "http://127.0.0.1:8000/ (staff: user admin, password " in text
    admin = get_user_model().objects.get(username="admin")
    password = text.split("password ")[1].split(",")[0]
    assert admin.is_staff
    assert admin.check_password(password)


def test_it_plays_a_race_season_of_four_player_series(settings, tmp_path: Path) -> None:
    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    out = StringIO()
    call_command("demo", "--rounds", "2", "--quiet", "--no-serve", stdout=out)
    season = Season.objects.get(game="watch_race")
    assert (season.players_per_series, season.games_per_series) == (4, 4)
    done = Series.objects.filter(season=season, state=SeriesState.DONE)
    assert done.count() == 2
    for series in done:
        bots = list(series.seats.values_list("version__bot_id", flat=True))
        assert len(bots) == len(set(bots)) == 4  # never two versions of one bot
        assert len(series.result["games"]) == 4
    race_bots = BotVersion.objects.filter(bot__name__startswith="race-", status="active")
    assert sorted(race_bots.values_list("bot__owner__username", "bot__name")) == [
        (f"demo-{name}-{n}", f"race-{name}-{n}") for name in ("heuristic", "random") for n in (1, 2, 3)
    ]
    text = out.getvalue()
    assert f"{season.name}: 2 series played" in text
    first = done.order_by("id").first()
    assert f"Series {first.pk}: " in text
    # The race's series as the CLI prints it: the table of games and the points.
    assert re.search(r"#\s+Starts \(seat 0\)\s+Winner\s+Reason\s+Moves by player\s+Time ms by player\s+Forfeit", text)
    assert "Series score: " in text
    assert "player 1" not in text.split(f"Series {first.pk}: ")[1]  # the steps name the bots


def test_it_plays_a_factory_race_season_of_three_player_series(settings, tmp_path: Path) -> None:
    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    out = StringIO()
    call_command("demo", "--rounds", "1", "--quiet", "--no-serve", stdout=out)
    season = Season.objects.get(game="factory_race")
    assert (season.players_per_series, season.games_per_series) == (3, 3)
    done = Series.objects.filter(season=season, state=SeriesState.DONE)
    assert done.count() >= 1
    for series in done:
        bots = list(series.seats.values_list("version__bot_id", flat=True))
        assert len(bots) == len(set(bots)) == 3  # never two versions of one bot
        assert len(series.result["games"]) == 3
    factory_bots = BotVersion.objects.filter(bot__name__startswith="factory-", status="active")
    assert sorted(factory_bots.values_list("bot__name", flat=True)) == [
        f"factory-{name}-{n}" for name in ("heuristic", "random") for n in (1, 2)
    ]
    text = out.getvalue()
    first = done.order_by("id").first()
    section = text.split(f"Series {first.pk}: ")[1]
    # The series as the CLI prints it: each game's winner and how it ended, then the points.
    assert re.search(r"#\s+Starts \(seat 0\)\s+Winner\s+Reason\s+Moves by player", section)
    assert "a factory assembled its batch first" in section or "tie-break" in section
    assert "Series score: " in section
    assert "player 1" not in section.split("Series winner")[0]  # the steps name the bots


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
        [sys.executable, "manage.py", "demo", "--rounds", "2", "--quiet", "--port", str(port)],
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
    # Every game's demo season (two rounds), and each solo ladder (its two versions' series).
    assert output.count(": 2 series played") == len(ladders())
    assert "Serving it until Ctrl-C." in output
