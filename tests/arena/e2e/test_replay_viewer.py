"""The series page's replay viewer in a real browser: stepping with the keyboard and jumping from the move list.

The series is a real one, played in the sandbox by the reference bots; the
moves the page should highlight are read from its recorded result document.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.django_db(transaction=True)


def ply_counter(viewer: Locator) -> Locator:
    return viewer.locator(".replay-ply output")


def highlighted_move(viewer: Locator) -> Locator:
    return viewer.locator('.moves [aria-current="step"]')


def expect_at(viewer: Locator, ply: int, notations: list[str]) -> None:
    """Expect the viewer to show position ``ply``: counter, board title, and the move that led there highlighted."""
    expect(ply_counter(viewer)).to_have_text(str(ply))
    expect(viewer.locator("svg.board title")).to_have_text(f"Watch board at ply {ply}")
    if ply == 0:
        expect(highlighted_move(viewer)).to_have_count(0)
    else:
        expect(highlighted_move(viewer)).to_have_count(1)
        expect(highlighted_move(viewer)).to_have_text(notations[ply - 1])
        expect(highlighted_move(viewer)).to_have_class(re.compile(r"\bcurrent\b"))


def test_it_steps_through_a_replay_with_the_keyboard_and_the_move_list(
    page: Page, site: str, played_season: Any, screenshot: Callable[[Page, str], Path]
) -> None:
    series = played_season.done_series()[0]
    first_game = series.result["games"][0]
    notations = [action["notation"] for action in first_game["actions"]]
    assert len(notations) > 30, "a Watch game has 27 dressing plies and then pawn moves"

    page.goto(f"{site}/series/{series.pk}/")
    expect(page.get_by_role("heading", name=f"Series {series.pk}", level=1)).to_be_visible()
    viewer = page.get_by_label(re.compile(r"^Replay of game 1\b"))
    expect(viewer.locator(".replay-ply")).to_have_text(f"Ply 0 of {len(notations)}")
    expect_at(viewer, 0, notations)

    viewer.focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    expect_at(viewer, 5, notations)
    page.keyboard.press("ArrowLeft")
    expect_at(viewer, 4, notations)
    page.keyboard.press("End")
    expect_at(viewer, len(notations), notations)
    page.keyboard.press("ArrowRight")  # stays on the last position
    expect_at(viewer, len(notations), notations)
    page.keyboard.press("Home")
    expect_at(viewer, 0, notations)
    page.keyboard.press("ArrowLeft")  # stays on the first
    expect_at(viewer, 0, notations)

    # The 30th ply is a pawn move; clicking it in the move list jumps there.
    viewer.locator(".moves .move").nth(29).click()
    expect_at(viewer, 30, notations)
    expect(viewer.locator(".replay-status")).not_to_be_empty()
    screenshot(page, "replay-viewer")

    # Stepping the second game's viewer leaves the first one where it was.
    second = page.get_by_label(re.compile(r"^Replay of game 2\b"))
    second.focus()
    page.keyboard.press("ArrowRight")
    expect(ply_counter(second)).to_have_text("1")
    expect_at(viewer, 30, notations)


def test_it_keeps_the_bots_logs_from_anonymous_visitors_and_other_users(
    page: Page, site: str, played_season: Any, django_user_model: Any
) -> None:
    series = played_season.done_series()[0]
    page.goto(f"{site}/series/{series.pk}/")
    expect(page.get_by_role("heading", name="Players")).to_be_visible()
    expect(page.get_by_text("Logs (stderr)")).to_have_count(0)
    page.goto(f"{site}/series/{series.pk}/log/0/")
    expect(page).to_have_url(f"{site}/account/login/?next=/series/{series.pk}/log/0/")

    django_user_model.objects.create_user("dave", password="daves-password-1")
    page.get_by_label("Username").fill("dave")
    page.get_by_label("Password").fill("daves-password-1")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Not allowed")).to_be_visible()  # back to the log, refused
    expect(page.get_by_text("Only the owner of this seat's bot and staff can read its log.")).to_be_visible()
    page.goto(f"{site}/series/{series.pk}/")
    expect(page.get_by_text("Logs (stderr)")).to_have_count(0)
