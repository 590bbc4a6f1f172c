"""At 390 × 844 (a phone) no page scrolls sideways, the navigation fits, and the leaderboard's bot column shows.

Every page type is visited in Debian's chromium at that size, signed in where
the page needs it, on a season of the reference bots with series played.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.arena.e2e.test_upload_to_leaderboard import sign_up

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}


def assert_fits(page: Page, url: str) -> None:
    page.goto(url)
    widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"{url} scrolls sideways: {widths[0]} px of content in {widths[1]} px"
    nav = page.get_by_role("navigation", name="Main")
    expect(nav).to_be_visible()
    box = nav.bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= widths[1], f"{url}: the navigation is wider than the screen"


def test_no_page_scrolls_sideways_on_a_phone(page: Page, site: str, played_season: Any, screenshot: Any) -> None:
    page.set_viewport_size(PHONE)
    season = played_season.season
    series = played_season.done_series()[0]
    version = played_season.versions[0]
    bot = version.bot
    public = [
        "/",
        "/games/",
        "/games/watch/",
        "/games/watch/rules/",
        "/seasons/",
        f"/seasons/{season.pk}/",
        "/bots/",
        f"/bots/{bot.pk}/",
        f"/bots/{bot.pk}/versions/{version.number}/validation/",
        f"/bots/{bot.pk}/versions/{version.number}/forfeits/",
        "/series/",
        f"/series/{series.pk}/",
        f"/users/{bot.owner.get_username()}/",
        "/account/login/",
        "/account/signup/",
        "/no/such/page/",
    ]
    for path in public:
        assert_fits(page, site + path)
    page.goto(f"{site}/seasons/{season.pk}/")
    expect(page.locator("table.leaderboard tbody tr").first.get_by_role("link").first).to_be_in_viewport()
    screenshot(page, "phone-leaderboard")

    sign_up(page, site, "pat")
    for path in ("/account/bots/", "/account/upload/", "/account/notices/", "/account/tokens/"):
        assert_fits(page, site + path)
