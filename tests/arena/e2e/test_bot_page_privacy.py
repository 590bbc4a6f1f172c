"""What others see of an author's bot in a real browser: no status reasons, no downloads, no upload form."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from arena.bots.models import BotVersion
from arena.bots.submissions import submit_version

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def carols_bot(site: str, random_bot_archive: Path) -> BotVersion:
    """Carol's bot, uploaded and validated (the validation series runs on commit, in this process)."""
    carol = get_user_model().objects.create_user("carol", password="carols-password-1")
    version = submit_version(carol, "carols-bot", random_bot_archive)
    version.refresh_from_db()
    assert version.status == BotVersion.Status.ACTIVE, version.status_reason
    return version


def expect_public_view(page: Page, site: str, version: BotVersion) -> None:
    page.goto(f"{site}/bots/{version.bot_id}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("carols-bot")
    expect(page.get_by_role("region", name="Versions")).to_contain_text("active")
    expect(page.get_by_text("passed the validation series")).to_have_count(0)
    expect(page.get_by_role("link", name="Download .tar.gz")).to_have_count(0)
    expect(page.get_by_role("link", name="Upload a new version")).to_have_count(0)


def test_it_shows_an_anonymous_visitor_only_the_public_bot_page(page: Page, site: str, carols_bot: BotVersion) -> None:
    expect_public_view(page, site, carols_bot)
    page.goto(f"{site}/bots/{carols_bot.bot_id}/versions/1/download/")
    expect(page).to_have_url(f"{site}/account/login/?next=/bots/{carols_bot.bot_id}/versions/1/download/")
    page.goto(f"{site}/account/upload/")
    expect(page).to_have_url(f"{site}/account/login/?next=/account/upload/")


def test_it_shows_another_author_only_the_public_bot_page(
    page: Page, site: str, carols_bot: BotVersion, django_user_model: Any
) -> None:
    django_user_model.objects.create_user("dave", password="daves-password-1")
    page.goto(f"{site}/account/login/")
    page.get_by_label("Username").fill("dave")
    page.get_by_label("Password").fill("daves-password-1")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="My bots", level=1)).to_be_visible()
    expect_public_view(page, site, carols_bot)
    response = page.goto(f"{site}/bots/{carols_bot.bot_id}/versions/1/download/")
    assert response is not None
    assert response.status == 403
    expect(page.get_by_text("Only the bot's owner and staff can download its archives.")).to_be_visible()
