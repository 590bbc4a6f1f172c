"""A Watching Us season in a real browser: a series of the reference bots and the replay of its table.

The demo's own Watching Us season (the reference bots, player bots against a GM bot,
validated and played in the sandbox). The replay viewer draws the Time Tracker, the
monster line (the Adversary with its HP left and To Hit), the Locations, each
Character with its HP and Items, the turn's Ritual with the dice rolled and the
damage they did, and at the end who won and why. The cards dealt before the choice
stay hidden from an anonymous visitor: the move list says "dealt a card (face down)".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest
from playwright.sync_api import Locator, Page, expect

from engines.watching_us import viewer as wu_viewer
from engines.watching_us.data import TIMES
from engines.watching_us.game import WatchingUsState

pytestmark = pytest.mark.django_db(transaction=True)

GAME = "watching_us"


@pytest.fixture
def watching_us_season(site: str) -> Any:
    from tests.arena.e2e.conftest import start_reference_season

    return start_reference_season(GAME)


def replayed(document: dict[str, Any], game: dict[str, Any]) -> list[WatchingUsState]:
    """Return the states of a recorded game, rebuilt as the series page rebuilds them."""
    from arena.web.replays import replay_state

    states = replay_state(
        GAME,
        document.get("config") or {},
        len(game["seats"]),
        [action["action"] for action in game["actions"]],
    )
    return cast(list[WatchingUsState], states)


def go_to(viewer: Locator, ply: int) -> None:
    viewer.locator(".moves .move").nth(ply - 1).click()
    expect(viewer.locator(".replay-ply output")).to_have_text(str(ply))


def test_it_draws_the_characters_the_monsters_the_time_a_ritual_and_the_result(
    page: Page,
    site: str,
    watching_us_season: Any,
    play_rounds: Callable[..., list[Any]],
    screenshot: Callable[[Page, str], Path],
) -> None:
    from arena.series.models import SeriesState

    # A series whose games include a Ritual that rolled its dice at a Monster (most do; a few more if not).
    found = None
    for attempt in range(4):
        (series,) = play_rounds(watching_us_season.season, rounds=1, slots=1, seed=7 + attempt)
        series.refresh_from_db()
        assert series.state == SeriesState.DONE, series.failure_reason
        document = series.result
        assert document["config"]["gm"] == "seat"
        for game in document["games"]:
            assert game["forfeit"] is None, game["forfeit"]
            states = replayed(document, game)
            actions = [action["action"] for action in game["actions"]]
            frames = wu_viewer.frames(states, actions)
            rolled = [
                ply
                for ply, frame in enumerate(frames)
                if frame["ritual"] and frame["ritual"]["done"] and frame["ritual"]["rolled"]
                if frames[ply - 1]["ritual"] != frame["ritual"]
            ]
            if rolled:
                found = (series, document, game, states, actions, frames, rolled[0])
                break
        if found:
            break
    assert found, "no Ritual rolled its dice in four series"
    series, document, game, states, actions, frames, roll_ply = found
    number = game["index"] + 1
    seats = len(game["seats"])
    players = seats - 1
    final = states[-1]
    assert final.is_terminal()

    page.goto(f"{site}/series/{series.pk}/")
    expect(page.get_by_role("heading", name=f"Series {series.pk}", level=1)).to_be_visible()
    viewer = page.get_by_label(re.compile(rf"^Replay of game {number}\b"))
    expect(viewer.locator(".wu-gm")).to_have_text(re.compile(rf"^GM: P{seats - 1} \("))
    expect(viewer.locator(".wu-time-step")).to_have_text(list(TIMES))
    expect(viewer.locator(".wu-character:not(.wu-gm-seat)")).to_have_count(players)

    # The first turn: the Characters with their HP, the Adversary with HP left and To Hit, the Location, Morning.
    start = next(ply for ply, state in enumerate(states) if state.turn >= 1)
    go_to(viewer, start)
    state = states[start]
    expect(viewer.locator(".wu-time-step.now")).to_have_text(TIMES[state.time])
    expect(viewer.locator(".wu-turn")).to_contain_text("Turn 1 of at most")
    for seat in range(players):
        card = viewer.locator(f'figure.wu-character[data-seat="{seat}"]')
        expect(card.locator(".wu-hp")).to_have_text(f"{state.hp[seat]}/{state.max_hp(seat)} HP")
        expect(card.locator(".wu-character-name")).to_have_text(frames[start]["characters"][seat]["character"])
    adversary = frames[start]["adversaries"][0]
    monster = viewer.locator(".wu-monster.adversary").first
    expect(monster.locator(".wu-monster-name")).to_have_text(f"Adversary: {adversary['name']}")
    expect(monster.locator(".wu-monster-hp")).to_contain_text(f"{adversary['hp']}/{adversary['max_hp']} HP left")
    expect(monster.locator(".wu-to-hit")).to_have_text(f"To Hit {adversary['to_hit']}")
    expect(viewer.locator(".wu-location-name").first).to_have_text(frames[start]["locations"][0]["name"])

    # A Ritual's dice: the two drawn, the one performed, its result, each die and the damage it did.
    go_to(viewer, roll_ply)
    ritual = frames[roll_ply]["ritual"]
    part = viewer.locator(".wu-ritual")
    expect(part.locator(".wu-ritual-result")).to_have_text(
        re.compile("^Success" if ritual["result"] == "success" else "^Failure")
    )
    expect(part.locator(".wu-ritual-chosen")).to_contain_text(f"Ritual {ritual['chosen'] + 1}/30")
    expect(part.locator(".wu-die")).to_have_count(len(ritual["rolled"]))
    for index, face in enumerate(ritual["rolled"]):
        expect(part.locator(".wu-die").nth(index)).to_have_attribute("data-face", str(face))
    expect(part.locator(".wu-dice")).to_contain_text(f"Rolled {ritual['dice']} at {ritual['target']}")
    expect(part.locator(".wu-damage")).to_have_text(
        re.compile(rf"^{ritual['damage']} damage") if ritual["damage"] else re.compile("^no damage$")
    )
    expect(viewer.locator(".wu-time-step.now")).to_have_text(TIMES[states[roll_ply].time])
    screenshot(page, "watching-us-replay")

    # Hidden from an anonymous visitor: the dealt cards (a count and words), anyone's private layer.
    expect(viewer.locator(".wu-private")).to_have_count(0)
    expect(viewer.locator(".moves")).to_contain_text("is dealt a card (face down)")
    dealt = [
        ply
        for ply, state in enumerate(states[:-1], 1)
        if state.need and state.need[0] == "chance" and state.step == "char"
    ]
    assert dealt
    recorded = game["actions"][dealt[0] - 1]["notation"]  # "card 12 Nurse": the card itself
    assert re.match(r"^card \d+ ", recorded), recorded
    expect(viewer.locator(".moves .move").nth(dealt[0] - 1)).to_have_text(
        re.compile(r"^P\d is dealt a card \(face down\)")
    )
    expect(viewer.locator(".moves")).not_to_contain_text(recorded)
    go_to(viewer, dealt[0])
    expect(viewer.locator(".wu-dealt").first).to_contain_text("dealt (face down)")

    # The end: who won and why, the dead marked.
    viewer.focus()
    page.keyboard.press("End")
    expect(viewer.locator(".replay-ply output")).to_have_text(str(len(actions)))
    result = frames[-1]["result"]
    head = viewer.locator(".wu-result-head")
    expect(head).to_have_text(re.compile("^The players win" if result["players_won"] else rf"^The GM \(P{seats - 1} "))
    expect(viewer.locator(".wu-result-why")).to_contain_text(result["why"])
    expect(viewer.locator(".replay-status")).to_have_text(re.compile(r" wins?: "))
    dead = [seat for seat in range(players) if not final.alive[seat]]
    expect(viewer.locator("figure.wu-character.dead")).to_have_count(len(dead))
    for seat in dead:
        expect(viewer.locator(f'figure.wu-character[data-seat="{seat}"] .wu-character-name')).to_contain_text("dead")
    screenshot(page, "watching-us-replay-final")
