"""A new author's first day, in a real browser: sign up, log in, upload a bot, see it validated, then ranked.

The upload is the reference random bot packed as .tar.gz, as an author packs
one. Its validation series runs in the sandbox inside the upload request
(Celery runs in-process without a broker); the bot page is reloaded until it
says the version is active. Then a round of the reference season is played
(the reference bots belong to other users) and the new bot shows up on the
season's leaderboard.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct-horse-battery-7"


def sign_up(page: Page, site: str, username: str) -> None:
    page.goto(f"{site}/account/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create the account").click()
    expect(page.get_by_role("status")).to_contain_text(f"Welcome, {username}")


def log_in(page: Page, site: str, username: str) -> None:
    page.goto(f"{site}/account/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="My bots", level=1)).to_be_visible()


def upload(page: Page, bot_name: str, archive: Path) -> None:
    page.get_by_role("link", name="Upload a bot").click()
    page.get_by_label("Bot name").fill(bot_name)
    page.get_by_label("Archive").set_input_files(str(archive))
    page.get_by_role("button", name="Upload").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(bot_name)


def version_status(page: Page) -> str:
    """Return the status shown for v1 in the bot page's Versions table."""
    row = page.get_by_role("region", name="Versions").get_by_role("row").filter(has_text="v1")
    return row.locator(".status").inner_text().strip()


def test_it_takes_a_new_author_from_sign_up_to_the_leaderboard(
    page: Page,
    site: str,
    random_bot_archive: Path,
    reference_season: Any,
    play_rounds: Callable[..., list[Any]],
    reload_until: Callable[..., None],
    screenshot: Callable[[Page, str], Path],
) -> None:
    from arena.bots.models import BotVersion
    from arena.seasons.models import SeasonEntry
    from arena.series.models import SeriesState

    sign_up(page, site, "carol")
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    log_in(page, site, "carol")
    expect(page.get_by_text("You have no bots yet")).to_be_visible()

    upload(page, "carols-bot", random_bot_archive)
    expect(page.get_by_role("status")).to_contain_text("Uploaded carols-bot version 1")
    reload_until(page, lambda: version_status(page) != "validating", "the validation series of carols-bot v1")
    assert version_status(page) == "active"
    expect(page.get_by_text("passed the validation series")).to_be_visible()  # the owner sees why

    # A bot's first active version joins every running season of its game by itself.
    version = BotVersion.objects.get(bot__owner__username="carol", bot__name="carols-bot")
    assert SeasonEntry.objects.filter(season=reference_season.season, version=version, active=True).exists()
    played = play_rounds(reference_season.season, rounds=1, slots=2)  # four entries: everybody plays once
    assert len(played) == 2
    for series in played:
        series.refresh_from_db()
        assert series.state == SeriesState.DONE, series.failure_reason

    page.goto(f"{site}/seasons/{reference_season.season.pk}/")
    board = page.locator("table.leaderboard")
    row = board.get_by_role("row").filter(has=page.get_by_role("link", name="carols-bot", exact=True))
    expect(row).to_have_count(1)
    expect(row.get_by_role("cell").nth(2)).to_have_text("carol")  # the owner column
    expect(row.get_by_role("cell").nth(3)).to_have_text("v1")
    expect(row.get_by_role("cell").nth(7)).to_have_text("1")  # series played
    rank = int(row.get_by_role("cell").first.inner_text())
    assert 1 <= rank <= 4
    screenshot(page, "leaderboard")

    row.get_by_role("link", name="carols-bot", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("carols-bot")
    ratings = page.get_by_role("region", name="Ratings")
    rating = ratings.get_by_role("row").filter(has=page.get_by_role("link", name=reference_season.season.name))
    expect(rating.get_by_role("cell").nth(1)).to_contain_text("v1")
    expect(rating.get_by_role("cell").nth(5)).to_have_text("1")  # series played
    expect(
        page.get_by_role("region", name="Recent series").get_by_role("link", name=re.compile(r"^#\d+$"))
    ).to_have_count(1)
    screenshot(page, "bot-page")

    # The owner can download exactly the archive uploaded.
    with page.expect_download() as download:
        page.get_by_role("link", name="Download .tar.gz").click()
    assert Path(download.value.path()).read_bytes() == random_bot_archive.read_bytes()
    assert download.value.suggested_filename == "carols-bot-v1.tar.gz"
