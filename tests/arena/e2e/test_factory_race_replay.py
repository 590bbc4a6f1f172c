"""A factory race season in a real browser: its leaderboard, a three-player series and the replay of its factories.

The demo's own factory race season (three-player series of the random and
heuristic bots, validated and played in the sandbox); the replay
viewer draws each factory and keeps the simultaneous placements hidden until
every seat has placed, then reveals them together.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

import engines
from engines.factory_race.game import PLACE

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def factory_season(site: str) -> Any:
    from tests.arena.e2e.conftest import start_reference_season

    return start_reference_season("factory_race")


def placement_plies(game: dict[str, Any], config: dict[str, Any], num_players: int) -> tuple[int, int]:
    """Return (a ply that placed a worker in secret, the ply that ended round 1's placements)."""
    state = engines.get("factory_race").new_initial_state(seed=game.get("seed"), config=config, num_players=num_players)
    secret = None
    for ply, action in enumerate(game["actions"], start=1):
        before = state.phase
        placer = state.current_player()
        state.apply_checked(action["action"])
        if before == PLACE and placer >= 0 and action["notation"] != "done" and secret is None:
            secret = ply
        if before == PLACE and state.phase != PLACE:
            assert secret is not None
            return secret, ply
    raise AssertionError("round 1 never left the placement phase")


def test_it_shows_the_factories_and_reveals_the_placements_together(
    page: Page,
    site: str,
    factory_season: Any,
    play_rounds: Callable[..., list[Any]],
    screenshot: Callable[[Page, str], Path],
) -> None:
    from arena.series.models import SeriesState

    (series,) = play_rounds(factory_season.season, rounds=1, slots=1)
    series.refresh_from_db()
    assert series.state == SeriesState.DONE, series.failure_reason
    first_game = series.result["games"][0]
    secret, reveal = placement_plies(first_game, series.season.config or {}, 3)

    page.goto(f"{site}/series/{series.pk}/")
    expect(page.get_by_role("heading", name=f"Series {series.pk}", level=1)).to_be_visible()
    expect(page.get_by_role("region", name="Players").locator("tbody tr")).to_have_count(3)
    viewer = page.get_by_label(re.compile(r"^Replay of game 1\b"))
    factories = viewer.locator("figure.fr-factory")
    expect(factories).to_have_count(3)
    expect(factories.first.locator("figcaption")).to_contain_text("tanks factory")
    expect(viewer.locator(".fr-round")).to_have_text(re.compile(r"^Round 1 — placing workers"))

    # A worker placed in secret: the frame says only that the seat placed one.
    viewer.locator(".moves .move").nth(secret - 1).click()
    expect(viewer.locator(".replay-ply output")).to_have_text(str(secret))
    expect(viewer.locator(".fr-move")).to_contain_text("places a worker (hidden)")
    expect(viewer.locator(".fr-banner.reveal")).to_have_count(0)
    expect(viewer.get_by_text("placing in secret").first).to_be_visible()

    # The last seat's "done": every seat's placements shown at once.
    viewer.locator(".moves .move").nth(reveal - 1).click()
    expect(viewer.locator(".fr-banner.reveal")).to_contain_text("Placements revealed together")
    screenshot(page, "factory-race-replay")

    # The end: the winner (or the round limit) in words.
    viewer.focus()
    page.keyboard.press("End")
    expect(viewer.locator(".replay-status")).to_have_text(re.compile(r"(wins?:|No winner:)"))

    # The season's leaderboard rates the three bots of the series.
    page.goto(f"{site}/seasons/{factory_season.season.pk}/")
    rows = page.locator("table.leaderboard tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.first).to_contain_text("factory-")
