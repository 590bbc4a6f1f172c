"""``manage.py demo_season``: the reference bots validated, a season played in-process, a leaderboard printed."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from arena.bots.models import BotVersion
from arena.seasons.models import Season
from arena.series.models import Series, SeriesState

# transaction=True: validation runs on commit, as it does for the real command.
pytestmark = pytest.mark.django_db(transaction=True)


def test_it_plays_a_season_of_the_reference_bots_and_prints_the_leaderboard(settings, tmp_path: Path) -> None:
    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    out = StringIO()
    call_command("demo_season", "--rounds", "3", "--quiet", stdout=out)
    season = Season.objects.get()
    assert season.status == Season.Status.RUNNING
    assert Series.objects.filter(season=season, state=SeriesState.DONE).count() == 3
    assert set(BotVersion.objects.values_list("bot__name", "status")) == {
        ("greedy", "active"),
        ("random", "active"),
        ("solver", "active"),
    }
    text = out.getvalue()
    assert f"{season.name}: 3 series played" in text
    board = text.split("series played\n")[1].strip().splitlines()
    assert board[0].split()[:3] == ["#", "bot", "owner"]
    assert len([line for line in board[1:] if line.strip()[:1].isdigit()]) >= 2  # everyone who has played
    assert "http://127.0.0.1:8000/admin/" in text


def test_it_reuses_the_demo_bots_on_a_second_run(settings, tmp_path: Path) -> None:
    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    call_command("demo_season", "--rounds", "1", "--quiet", stdout=StringIO())
    call_command("demo_season", "--rounds", "1", "--quiet", stdout=StringIO())
    assert BotVersion.objects.count() == 3
    assert Season.objects.count() == 2


def test_it_refuses_a_non_positive_number_of_rounds() -> None:
    with pytest.raises(CommandError, match="must be positive"):
        call_command("demo_season", "--rounds", "0")
