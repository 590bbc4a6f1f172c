"""The replay viewer in a real browser (Debian's chromium through Playwright): buttons, keys, the move list."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections
from playwright.sync_api import Page, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def page(monkeypatch: pytest.MonkeyPatch) -> Iterator[Page]:
    if not CHROMIUM.is_file():
        pytest.fail("the viewer test drives /usr/bin/chromium: run `sudo apt-get install chromium`", pytrace=False)
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop shares this thread with the ORM
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            yield browser.new_page()
        finally:
            browser.close()
            # While Playwright's loop runs, Django keeps this thread's connections in context-local
            # storage, out of pytest-django's reach: close them, or the test database cannot be dropped.
            connections.close_all()


def test_it_steps_with_buttons_keys_and_the_move_list(ladder: dict[str, Any], live_server: Any, page: Page) -> None:
    series = ladder["series"][0]
    game = series.result["games"][0]
    plies = len(game["actions"])
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/series/{series.pk}/")
    viewer = page.locator(".replay").first
    ply = viewer.locator(".replay-ply output")
    status = viewer.locator(".replay-status")
    assert ply.inner_text() == "0"
    assert "Dressing the board" in status.inner_text()
    assert viewer.locator("svg.board rect.square").count() == 25

    viewer.locator('[data-step="last"]').click()
    assert ply.inner_text() == str(plies)
    viewer.focus()
    page.keyboard.press("ArrowLeft")
    assert ply.inner_text() == str(plies - 1)
    page.keyboard.press("Home")
    assert ply.inner_text() == "0"
    page.keyboard.press("End")
    assert ply.inner_text() == str(plies)

    viewer.locator(".moves .move").nth(27).click()  # White's first pawn move
    assert ply.inner_text() == "28"
    current = viewer.locator('.move[aria-current="step"]')
    assert current.count() == 1
    assert current.inner_text() == game["actions"][27]["notation"]
    assert viewer.locator("svg.board rect.removed").count() == 1  # the tile White left
    assert viewer.locator("svg.board circle.pawn").count() == 2

    viewer.focus()
    page.keyboard.press("ArrowRight")
    assert ply.inner_text() == "29"
    page.keyboard.press("Home")
    page.keyboard.press(" ")
    assert viewer.locator('[data-step="play"]').get_attribute("aria-pressed") == "true"
    page.wait_for_function("el => el.textContent !== '0'", arg=ply.element_handle(), timeout=5000)
    page.keyboard.press(" ")
    assert viewer.locator('[data-step="play"]').get_attribute("aria-pressed") == "false"
    assert errors == []
