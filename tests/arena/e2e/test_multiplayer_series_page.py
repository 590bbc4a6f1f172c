"""A series of more than two players in a real browser: the Watch race's four seats, its games and its score."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_shows_every_seat_of_a_four_player_series(
    page: Page, site: str, race_season: Any, play_rounds: Callable[..., list[Any]]
) -> None:
    from arena.series.models import SeriesState

    (series,) = play_rounds(race_season.season, rounds=1, slots=1)
    series.refresh_from_db()
    assert series.state == SeriesState.DONE, series.failure_reason
    seats = list(series.seats.order_by("seat").select_related("version__bot"))
    assert len(seats) == 4

    page.goto(f"{site}/series/{series.pk}/")
    expect(page.get_by_role("heading", name=f"Series {series.pk}", level=1)).to_be_visible()
    players = page.get_by_role("region", name="Players").locator("tbody tr")
    expect(players).to_have_count(4)
    for row, seat in zip(range(4), seats, strict=True):
        expect(players.nth(row)).to_contain_text(f"{seat.version.bot.name} v{seat.version.number}")
        expect(players.nth(row).locator("td").nth(5)).to_have_text(re.compile(r"^[1-4]$"))  # place
    games = page.get_by_role("region", name="Games").locator("article.game")
    expect(games).to_have_count(len(series.result["games"]))
    expect(games.first.locator("table").first.locator("tbody tr")).to_have_count(4)  # one row per seat
    expect(games.first.get_by_role("heading", name="Moves")).to_be_visible()
