"""Watching Us season pages in a real browser: the player bots' and the GM bots' leaderboards.

A team game's season page shows two leaderboards. The demo season enters GM-role
bots beside the player bots (the reference ``random`` bot plays both roles), so
after a few series both boards have team ratings. A season whose entries all say
``roles = ["player"]`` is played against the built-in GM: its page says so, with
the GM's fixed rating, and ranks the player bots by their win rate against it, with
its interval, and the mean turns their team took to win.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.django_db(transaction=True)

GAME = "watching_us"
PACKAGES = Path(__file__).resolve().parents[3] / "bots" / "watching_us" / "packages"
RANDOM = PACKAGES / "random"
#: The reference player heuristic (its bot.toml says roles = ["player"]), which wins some games.
HEURISTIC = PACKAGES / "heuristic"


def board(page: Page, title: str) -> Any:
    return page.get_by_role("region", name=title)


def test_a_season_with_gm_bots_shows_both_leaderboards_with_team_ratings(
    page: Page, site: str, play_rounds: Callable[..., list[Any]], screenshot: Callable[[Page, str], Path]
) -> None:
    from arena.ratings.models import Rating
    from arena.series.models import SeriesState
    from tests.arena.e2e.conftest import start_reference_season

    played = start_reference_season(GAME)
    season = played.season
    assert any(not version.roles or "gm" in version.roles for version in played.versions)
    series = play_rounds(season, rounds=3, slots=1)
    for one in series:
        one.refresh_from_db()
        assert one.state == SeriesState.DONE, one.failure_reason
        assert one.result["config"]["gm"] == "seat"
    players = Rating.objects.filter(season=season, role="player").select_related("version__bot")
    gms = Rating.objects.filter(season=season, role="gm").select_related("version__bot")
    assert players.exists()
    assert gms.exists()

    page.goto(f"{site}/seasons/{season.pk}/")
    expect(page.get_by_role("heading", name=season.name, level=1)).to_be_visible()
    expect(page.locator(".lede")).to_contain_text("a team game: 2 player bots against a GM")
    expect(page.get_by_role("heading", name="Player bots", level=2)).to_be_visible()
    expect(page.get_by_role("heading", name="GM bots", level=2)).to_be_visible()
    for title, ratings in (("Player bots", players), ("GM bots", gms)):
        rows = board(page, title).locator("table.leaderboard tbody tr")
        expect(rows).to_have_count(ratings.count())
        best = ratings.order_by("-conservative", "-mu", "version_id").first()
        assert best is not None
        first = rows.first
        expect(first.locator("td").nth(1)).to_contain_text(best.version.bot.name)
        expect(first.locator("td").nth(4)).to_have_text(f"{best.conservative:.2f}")
        expect(first.locator("td").nth(7)).to_have_text(str(best.series_played))
    expect(page.locator("body")).not_to_contain_text("built-in GM sat")
    expect(board(page, "Player bots")).not_to_contain_text("Win rate")
    screenshot(page, "watching-us-season")


def test_a_season_without_gm_bots_shows_the_builtin_gm_its_win_rates_and_turns(
    page: Page,
    site: str,
    tmp_path: Path,
    play_rounds: Callable[..., list[Any]],
    screenshot: Callable[[Page, str], Path],
) -> None:
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from arena.bots.models import BotVersion
    from arena.bots.submissions import submit_version
    from arena.ratings.models import Rating
    from arena.ratings.team_boards import team_board
    from arena.seasons.models import Season, SeasonEntry
    from arena.series.models import SeriesState

    # The random bot, told to play the player seats only, and the player heuristic when it is there.
    package = tmp_path / "player-random"
    shutil.copytree(RANDOM, package)
    toml = package / "bot.toml"
    toml.write_text(toml.read_text() + 'roles = ["player"]\n')
    entries = [("ann", package), ("bob", package), ("cid", package)]
    if (HEURISTIC / "bot.toml").is_file() and 'roles = ["player"]' in (HEURISTIC / "bot.toml").read_text():
        entries = [("ann", package), ("bob", HEURISTIC), ("cid", HEURISTIC)]

    season = Season.objects.create(name="Players only", game=GAME, players_per_series=2, games_per_series=2)
    users = get_user_model().objects
    for owner, source in entries:
        with transaction.atomic():
            version = submit_version(users.create_user(owner), f"{owner}-{source.name}", source)
        version.refresh_from_db()
        assert version.status == BotVersion.Status.ACTIVE, version.status_reason
        assert version.roles == ["player"]
        SeasonEntry.objects.create(season=season, version=version)
    season.transition(Season.Status.RUNNING)
    series = play_rounds(season, rounds=4, slots=1)
    for one in series:
        one.refresh_from_db()
        assert one.state == SeriesState.DONE, one.failure_reason
        assert one.result["config"]["gm"] == "builtin"
        assert one.seats.count() == 2
    assert not Rating.objects.filter(season=season, role="gm").exists()
    rows = team_board(season, "player")
    assert rows
    # A team that won has its mean turns to win (the heuristic wins some games against the built-in GM).
    assert all((row.turns_to_win is not None) == bool(row.rating.game_wins) for row in rows)

    page.goto(f"{site}/seasons/{season.pk}/")
    expect(page.get_by_role("heading", name="Players only", level=1)).to_be_visible()
    expect(page.locator("p.hint.strong")).to_contain_text(
        "the built-in GM sat in the GM's seat at a fixed rating (μ 25.00, σ 1.00, never updated)"
    )
    players = board(page, "Player bots")
    for column in ("Games", "Win rate", "95 % interval", "Turns to win"):
        expect(players.get_by_role("columnheader", name=column)).to_be_visible()
    table_rows = players.locator("table.leaderboard tbody tr")
    expect(table_rows).to_have_count(len(rows))
    for index, row in enumerate(rows):
        cells = table_rows.nth(index).locator("td")
        expect(cells.nth(1)).to_contain_text(row.rating.version.bot.name)
        expect(cells.nth(12)).to_have_text(str(row.rating.games_played))
        assert row.win_rate is not None
        expect(cells.nth(13)).to_have_text(re.compile(r"^\d+(\.\d)? ?%$"))
        expect(cells.nth(14)).to_have_text(re.compile(r"^\d+(\.\d)? ?% to \d+(\.\d)? ?%$"))
        turns = "–" if row.turns_to_win is None else f"{row.turns_to_win:.2f}"
        expect(cells.nth(15)).to_have_text(turns)
    expect(board(page, "GM bots")).to_contain_text("No GM bot in this season: the built-in GM plays the GM.")
    screenshot(page, "watching-us-season-builtin")
