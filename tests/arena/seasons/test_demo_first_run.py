"""``manage.py demo``'s first run, once: every game's season played, the leaderboards and series printed.

The demo validates every reference bot in the sandbox and plays a round of
every game's season per ``--rounds``: the tests here read what one run of
``demo --rounds 3`` left, so it runs once for the module (test_demo.py has the
tests that run it themselves). ``manage.py test`` runs a file's tests on one
pytest-xdist worker (``--dist loadfile``), so that is once a run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import override_settings

from arena.bots.models import BotVersion
from arena.seasons.models import Season
from arena.series.models import Series, SeriesState

# Each test only reads the first run's database, inside a transaction rolled back at its end.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@pytest.fixture(scope="module")
def three_rounds(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """Return the output of one ``demo --rounds 3``, its database left for this module's tests to read.

    It runs outside any test's transaction, as the real command does (validation runs on
    commit); the database is emptied again afterwards, as a transactional test leaves it.
    """
    out = StringIO()
    with django_db_blocker.unblock(), override_settings(ARENA_ARTIFACT_DIR=tmp_path_factory.mktemp("artifacts")):
        try:
            call_command("demo", "--rounds", "3", "--quiet", "--no-serve", stdout=out)
            yield out.getvalue()
        finally:
            call_command("flush", "--no-input", verbosity=0)


def test_it_plays_a_season_of_the_reference_bots_and_prints_the_leaderboard(three_rounds: str) -> None:
    season = Season.objects.get(game="watch")
    assert season.status == Season.Status.RUNNING
    assert Series.objects.filter(season=season, state=SeriesState.DONE).count() == 3
    assert set(
        BotVersion.objects.filter(bot__name__in=["greedy", "random", "solver"]).values_list("bot__name", "status")
    ) == {("greedy", "active"), ("random", "active"), ("solver", "active")}
    text = three_rounds
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


def test_it_plays_a_race_season_of_four_player_series(three_rounds: str) -> None:
    season = Season.objects.get(game="watch_race")
    assert (season.players_per_series, season.games_per_series) == (4, 4)
    done = Series.objects.filter(season=season, state=SeriesState.DONE)
    assert done.count() == 3
    for series in done:
        bots = list(series.seats.values_list("version__bot_id", flat=True))
        assert len(bots) == len(set(bots)) == 4  # never two versions of one bot
        assert len(series.result["games"]) == 4
    race_bots = BotVersion.objects.filter(bot__name__startswith="race-", status="active")
    assert sorted(race_bots.values_list("bot__owner__username", "bot__name")) == [
        (f"demo-{name}-{n}", f"race-{name}-{n}") for name in ("heuristic", "random") for n in (1, 2, 3)
    ]
    text = three_rounds
    assert f"{season.name}: 3 series played" in text
    first = done.order_by("id").first()
    assert f"Series {first.pk}: " in text
    # The race's series as the CLI prints it: the table of games and the points.
    assert re.search(r"#\s+Starts \(seat 0\)\s+Winner\s+Reason\s+Moves by player\s+Time ms by player\s+Forfeit", text)
    assert "Series score: " in text
    assert "player 1" not in text.split(f"Series {first.pk}: ")[1]  # the steps name the bots


def test_it_plays_a_factory_race_season_of_three_player_series(three_rounds: str) -> None:
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
    text = three_rounds
    first = done.order_by("id").first()
    section = text.split(f"Series {first.pk}: ")[1]
    # The series as the CLI prints it: each game's winner and how it ended, then the points.
    assert re.search(r"#\s+Starts \(seat 0\)\s+Winner\s+Reason\s+Moves by player", section)
    assert "a factory assembled its batch first" in section or "tie-break" in section
    assert "Series score: " in section
    assert "player 1" not in section.split("Series winner")[0]  # the steps name the bots
