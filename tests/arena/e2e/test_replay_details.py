"""The replay viewer's details, in Debian's chromium: each move's time and bank, the last move marked, a capture seen.

On the reference season's recorded series: stepping through a game shows the
time the bot took for the move and the bank it had left (recorded by the
referee with each move), outlines the last move's squares on the Watch board,
and at a capture draws the captured pawn small beside the capturer, never
hidden under it.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.django_db(transaction=True)


def capture_game(played_season: Any) -> tuple[Any, int]:
    """Return a recorded series and the index of one of its games that ended by a capture."""
    for series in played_season.done_series():
        for game in series.result["games"]:
            if game["reason"] == "capture":
                return series, game["index"]
    pytest.fail("no game of the reference season ended by a capture; pick another seed")


def test_each_move_shows_its_time_and_bank_and_the_last_move_is_marked(
    page: Page, site: str, played_season: Any, screenshot: Any
) -> None:
    series, index = capture_game(played_season)
    page.goto(f"{site}/series/{series.pk}/")
    replay = page.locator(".replay").nth(index)
    replay.focus()
    clock = replay.locator(".replay-clock")
    expect(clock).to_have_text("")  # before the first move
    page.keyboard.press("ArrowRight")
    expect(clock).to_have_text(re.compile(r"^This move took [\d,.]+ ms; [\d,]+ ms left in its bank\.$"))
    page.keyboard.press("End")
    expect(replay.locator(".replay-status")).to_contain_text("wins: moved onto the opponent's tile")
    expect(replay.locator("rect.last-to")).to_have_count(1)
    expect(replay.locator("rect.last-from")).to_have_count(1)
    pawns = replay.locator("circle.pawn")
    expect(pawns).to_have_count(2)
    expect(replay.locator("circle.pawn.captured")).to_have_count(1)
    # The capturer is drawn last, so on top; its centre is the square's centre, the captured one is in a corner.
    classes = pawns.evaluate_all("nodes => nodes.map(node => node.getAttribute('class'))")
    assert "captured" in classes[0]
    assert "captured" not in classes[1]
    screenshot(page, "replay-capture")


def test_the_series_page_says_why_games_ended_in_words(page: Page, site: str, played_season: Any) -> None:
    series, index = capture_game(played_season)
    page.goto(f"{site}/series/{series.pk}/")
    game = page.locator("article.game").nth(index)
    expect(game).to_contain_text("won: moved onto the opponent's tile.")
    assert "(capture)" not in game.inner_text()


def test_an_address_opens_a_replay_at_its_end_where_a_forfeit_happened(
    page: Page, site: str, played_season: Any
) -> None:
    series, index = capture_game(played_season)
    moves = len(series.result["games"][index]["actions"])
    page.goto(f"{site}/series/{series.pk}/#replay-{index + 1}-ply-end")
    replay = page.locator(".replay").nth(index)
    expect(replay.locator(".replay-ply output")).to_have_text(str(moves))
    page.goto(f"{site}/")  # a new page load, not a jump within this one
    page.goto(f"{site}/series/{series.pk}/#replay-{index + 1}-ply-3")
    expect(page.locator(".replay").nth(index).locator(".replay-ply output")).to_have_text("3")
