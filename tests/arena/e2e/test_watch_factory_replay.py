"""A Watch factory season in a real browser: a three-player series and the replay of its factory board.

The demo's own Watch factory season (three-player series of the reference
bots, validated and played in the sandbox), as the factory race's browser
test plays its own. The replay viewer draws the board as a watch face with
its eight action spots and the workers on them, the majority tracks, each
player's rubles, gears and crates, and the final score; what the table keeps
face down (documents in hand, watch cards before their reveal) stays hidden
from an anonymous visitor, and the owner of a seat's bot, logged in, sees that
seat's hand of documents (and no other seat's) marked "only you see this".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest
from playwright.sync_api import Page, expect

from engines.watch_factory import data
from engines.watch_factory.game import DRAW_DOC, PLACE, WatchFactoryState

pytestmark = pytest.mark.django_db(transaction=True)

GAME = "watch_factory"
OWNER_PASSWORD = "owner's own passphrase"


@pytest.fixture
def factory_season(site: str) -> Any:
    from tests.arena.e2e.conftest import start_reference_season

    return start_reference_season(GAME)


def replayed(document: dict[str, Any], game: dict[str, Any]) -> list[WatchFactoryState]:
    """Return the states of a recorded game, rebuilt as the series page rebuilds them."""
    from arena.web.replays import replay_state

    states = replay_state(
        GAME,
        document.get("config") or {},
        len(game["seats"]),
        [action["action"] for action in game["actions"]],
    )
    return cast(list[WatchFactoryState], states)


def test_it_draws_the_factory_board_the_workers_the_tracks_and_the_final_score(
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
    document = series.result
    game = document["games"][0]
    assert game["forfeit"] is None, game["forfeit"]
    actions = [action["action"] for action in game["actions"]]
    states = replayed(document, game)
    final = states[-1]
    assert final.is_terminal()

    # Plies to visit: a worker placed on a spot, a document dealt face down, a token on a track.
    place = next(ply for ply, a in enumerate(actions, 1) if PLACE <= a < PLACE + data.NUM_SPOTS)
    placer, spot = states[place - 1].to_move, actions[place - 1] - PLACE
    dealt = next(ply for ply, a in enumerate(actions, 1) if DRAW_DOC <= a < DRAW_DOC + len(data.DOCUMENTS))
    tracked = next(
        ply for ply, state in enumerate(states) if any(owner >= 0 for line in state.tracks for owner in line)
    )
    track, owner = next((t, o) for t, line in enumerate(states[tracked].tracks) for o in line if o >= 0)

    page.goto(f"{site}/series/{series.pk}/")
    expect(page.get_by_role("heading", name=f"Series {series.pk}", level=1)).to_be_visible()
    expect(page.get_by_role("region", name="Players").locator("tbody tr")).to_have_count(3)
    viewer = page.get_by_label(re.compile(r"^Replay of game 1\b"))
    spots = viewer.locator("g.wf-spot")
    expect(spots).to_have_count(8)
    for name in data.SPOTS:
        expect(viewer.locator(f'g.wf-spot[data-spot="{name}"] .wf-spot-name')).to_have_text(name)
    expect(viewer.locator("g.wf-spot.risky")).to_have_count(4)
    expect(viewer.locator(".wf-section-name")).to_have_count(4)
    expect(viewer.locator("figure.wf-player")).to_have_count(3)
    expect(viewer.locator(".wf-round")).to_have_text(re.compile(r"^Round 1 of 12"))
    # Each player starts with 3 rubles and 2 gears.
    for seat in range(3):
        player = viewer.locator(f'figure.wf-player[data-seat="{seat}"]')
        expect(player.locator(".wf-rubles")).to_have_text("3 rubles")
        expect(player.locator(".wf-gears")).to_have_text("2 gears")

    # A document dealt face down: the move says so without naming the card, and the hand is a count.
    viewer.locator(".moves .move").nth(dealt - 1).click()
    expect(viewer.locator(".replay-ply output")).to_have_text(str(dealt))
    expect(viewer.locator(".wf-move")).to_contain_text("draws a document (face down)")
    expect(viewer.locator(".wf-move")).not_to_contain_text("draw doc")
    expect(viewer.locator(".wf-hand-count").first).to_contain_text("in hand (face down)")

    # A worker placed: its token stands on the spot it chose.
    viewer.locator(".moves .move").nth(place - 1).click()
    expect(viewer.locator(".replay-ply output")).to_have_text(str(place))
    worker = viewer.locator(f'g.wf-spot[data-spot="{data.SPOTS[spot]}"] .wf-worker')
    expect(worker).to_have_count(1)
    expect(worker).to_have_attribute("data-worker", f"P{placer}")
    expect(viewer.locator(".wf-move")).to_contain_text(f"place {data.SPOTS[spot]}")

    # A token on a majority track, in its owner's name, and the players' rubles at that point.
    viewer.locator(".moves .move").nth(tracked - 1).click()
    expect(viewer.locator(".replay-ply output")).to_have_text(str(tracked))
    row = viewer.locator(f'tr[data-track="{data.TRACKS[track]}"]')
    expect(row.locator(f'.wf-track-token[data-owner="P{owner}"]').first).to_be_visible()
    for seat in range(3):
        rubles = states[tracked].players[seat].rubles
        expect(viewer.locator(f'figure.wf-player[data-seat="{seat}"] .wf-rubles')).to_have_text(f"{rubles} rubles")
    screenshot(page, "watch-factory-replay")

    # The end: each player's score line by line, the totals the engine gives, the winner in words.
    viewer.focus()
    page.keyboard.press("End")
    expect(viewer.locator(".replay-ply output")).to_have_text(str(len(actions)))
    scores = viewer.locator("table.wf-scores")
    expect(scores).to_be_visible()
    totals = scores.locator("tr.wf-total td")
    expect(totals).to_have_text([str(final.score(seat)["total"]) for seat in range(3)])
    expect(scores.locator("tbody th")).to_contain_text(["crates", "board", "sets"])
    for seat in range(3):
        rubles = final.players[seat].rubles
        expect(viewer.locator(f'figure.wf-player[data-seat="{seat}"] .wf-rubles')).to_have_text(f"{rubles} rubles")
    expect(viewer.locator(".replay-status")).to_have_text(re.compile(r" wins?: "))
    screenshot(page, "watch-factory-replay-final")

    # Hidden hands: nobody's cards for an anonymous visitor, at a ply where seat 0 holds documents.
    held = max(range(1, len(states)), key=lambda ply: len(states[ply].players[0].hand))
    hand = sorted(states[held].players[0].hand)
    assert hand, "seat 0 never held a document"
    viewer.locator(".moves .move").nth(held - 1).click()
    expect(viewer.locator(".replay-ply output")).to_have_text(str(held))
    expect(viewer.locator(".wf-private")).to_have_count(0)
    expect(viewer.locator(".wf-secret-doc")).to_have_count(0)
    expect(viewer.locator(".moves")).not_to_contain_text("draw doc")

    # The owner of seat 0's bot (series player 0 sits in seat 0 in game 1), logged in: its hand, no other's.
    owner = series.seats.get(seat=game["seats"][0]).version.bot.owner
    owner.set_password(OWNER_PASSWORD)
    owner.save()
    page.goto(f"{site}/account/login/")
    page.get_by_label("Username").fill(owner.get_username())
    page.get_by_label("Password").fill(OWNER_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="My bots", level=1)).to_be_visible()
    page.goto(f"{site}/series/{series.pk}/#replay-1-ply-{held}")
    viewer = page.get_by_label(re.compile(r"^Replay of game 1\b"))
    expect(viewer.locator(".replay-ply output")).to_have_text(str(held))
    mine = viewer.locator('figure.wf-player[data-seat="0"] .wf-private')
    expect(mine).to_be_visible()
    expect(mine.locator(".wf-private-note")).to_contain_text("Only you see this")
    expect(mine.locator(".wf-secret-doc")).to_have_count(len(hand))
    expect(mine.locator(".wf-secret-doc").first).to_have_attribute("data-card", str(hand[0]))  # sorted
    colour, _kind = data.DOCUMENTS[hand[0]]
    expect(mine.locator(".wf-secret-doc").first).to_contain_text(data.DOC_COLOURS[colour])
    expect(viewer.locator(".wf-private")).to_have_count(1)  # no other seat's
    expect(viewer.locator(".moves")).not_to_contain_text("draw doc")
    screenshot(page, "watch-factory-replay-owner")
