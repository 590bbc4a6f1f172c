"""The Watch race replay viewer: frames rebuilt through the engine, the series page, and the board in a browser.

A real four-player series is played by the match worker's task in the sandbox
(as tests/arena/web/conftest.py plays Watch series) between four versions of
the race reference bots, owned by four users, and recorded; the frames and the
page come from that result document. Series seed ``SEED`` is one in which a
player swaps a card on a yellow square (with another player and with the
face-down pile) and a round is replayed because the winning card was set aside.
"""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections
from django.urls import reverse

import engines
from arena.web import replays
from engines.watch_race.game import CARD_NAMES

REPO = Path(__file__).resolve().parents[3]
PACKAGES = REPO / "bots" / "watch_race" / "packages"
SCREENSHOT = REPO / "var" / "test-artifacts" / "screenshots" / "race-replay.png"
CHROMIUM = Path("/usr/bin/chromium")
SEED = 5
PAWNS = ("G", "B", "O")

#: Played result documents, keyed by spec: the bots run once per test session.
_PLAYED: dict[str, dict[str, Any]] = {}


def play_series(season: Any, versions: list[Any], seed: int) -> Any:
    """Create a series of ``versions`` (seat order), play it in the sandbox, record it; return the series.

    The same as conftest.py's ``play_series`` (test modules cannot import conftest).
    """
    from arena.matchmaking.scheduling import series_spec
    from arena.results.recording import record_series_result
    from arena.series.models import Series, SeriesSeat
    from workers.chance import local_secret
    from workers.tasks import run_series_task

    series = Series.objects.create(season=season, seed=seed)
    for seat, version in enumerate(versions):
        SeriesSeat.objects.create(series=series, seat=seat, version=version)
    # The test's own fixed chance, so the games it needs are played every run (the platform
    # draws each series' chance from a secret: Series.chance_secret).
    spec = {**series_spec(series), "chance": local_secret(seed).hex()}
    key = json.dumps({**spec, "series_id": None, "seats": [s["sha256"] for s in spec["seats"]]}, sort_keys=True)
    if key not in _PLAYED:
        _PLAYED[key] = run_series_task(spec)["result"]
    record_series_result(series.pk, _PLAYED[key])
    series.refresh_from_db()
    return series


@pytest.fixture
def race_series(settings: Any, tmp_path: Path, make_user: Callable[..., Any]) -> Any:
    """A running four-player race season and one recorded series of four games (seed ``SEED``).

    Seats: ann's random, bob's heuristic, cy's random, dan's heuristic.
    """
    from arena.bots.submissions import mark_validation_result, submit_version
    from arena.seasons.models import Season, SeasonEntry

    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    season = Season.objects.create(
        name="Race ladder", game="watch_race", players_per_series=4, games_per_series=4, decision_ms=5000
    )
    versions = []
    for owner, package in (("ann", "random"), ("bob", "heuristic"), ("cy", "random"), ("dan", "heuristic")):
        version = submit_version(make_user(owner), f"{owner}-{package}", PACKAGES / package)
        version = mark_validation_result(version, True, "passed the validation series")
        SeasonEntry.objects.create(season=season, version=version)
        versions.append(version)
    season.transition(Season.Status.RUNNING)
    return play_series(season, versions, seed=SEED)


def frames_of(document: dict[str, Any], game: dict[str, Any]) -> list[dict[str, Any]]:
    frames = replays.frames_for(
        document["game"],
        document["config"],
        len(document["players"]),
        [a["action"] for a in game["actions"]],
    )
    assert frames is not None
    return frames


def swap_frames(document: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Return (game, frame) for every ply of the series on which a card was swapped."""
    return [(game, frame) for game in document["games"] for frame in frames_of(document, game) if frame["swap"]]


# -- frames ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_series_was_played_in_full_by_four_players(race_series: Any) -> None:
    document = race_series.result
    assert document["game"] == "watch_race"
    assert len(document["players"]) == 4
    assert len(document["games"]) == 4
    assert all(game["forfeit"] is None for game in document["games"])
    # The referee's chance actions (the deal, the timer) are recorded with no seat.
    chance = [a for a in document["games"][0]["actions"] if a["seat"] is None]
    assert [a["notation"].split()[0] for a in chance[:7]] == ["deal"] * 6 + ["timer"]


@pytest.mark.django_db
def test_the_first_frame_has_every_pawn_on_the_start_square_and_nothing_dealt(race_series: Any) -> None:
    document = race_series.result
    for game in document["games"]:
        first = frames_of(document, game)[0]
        assert first["positions"] == [0, 0, 0]
        assert first["order"] == "GBO"
        assert first["tokens"] == [22, 22, 22, 22]  # 90 // 4, the 2 left over set aside
        assert first["hands"] == [[], [], [], []]
        assert first["phase"] == "deal"
        assert first["to_move"] is None
        assert first["move"] is None
        assert first["ply"] == 0


@pytest.mark.django_db
def test_the_last_frame_is_the_engines_final_state(race_series: Any) -> None:
    document = race_series.result
    for game in document["games"]:
        actions = [a["action"] for a in game["actions"]]
        frames = frames_of(document, game)
        assert len(frames) == len(actions) + 1
        final = engines.get("watch_race", document["config"]).state_from_json(
            {"history": actions, "num_players": 4, "config": document["config"]}
        )
        snapshot = final.to_json()
        last = frames[-1]
        for key in ("phase", "round", "timer", "turn", "positions", "tokens", "hands", "pile"):
            assert last[key] == snapshot[key], key
        assert last["ply"] == len(actions)
        assert last["order"] == "".join(PAWNS[p] for p in final.order())
        assert last["phase"] == "over"
        assert last["to_move"] is None
        # The referee's recorded winner is the series player in the winning seat.
        if game["winners"]:
            assert [game["seats"][last["winner"]]] == game["winners"]
            assert last["hands"][last["winner"]] == [last["order"]]
        else:
            assert last["winner"] is None
        assert last["reason"] == game["reason"]
        assert last["replays"] == game["stats"][str(game["seats"][0])]["replays"]
        assert last["round_end"]["reason"] in ("timer", "tokens_out")


@pytest.mark.django_db
def test_every_move_says_who_made_it_and_chance_is_the_referees(race_series: Any) -> None:
    document = race_series.result
    game = document["games"][0]
    frames = frames_of(document, game)
    for action, frame in zip(game["actions"], frames[1:], strict=True):
        move = frame["move"]
        assert move["notation"] == action["notation"]
        assert move["seat"] == action["seat"]
        if action["seat"] is None:
            assert move["kind"] in ("deal", "timer")
        else:
            assert move["kind"] in ("move", "keep", "swap")
    timer = next(frame for frame in frames if frame["move"] and frame["move"]["kind"] == "timer")
    assert timer["timer"] == timer["move"]["turns"]
    # Four players hold one card each; the two cards left over are the face-down pile.
    assert [len(hand) for hand in timer["hands"]] == [1, 1, 1, 1]
    assert sorted([hand[0] for hand in timer["hands"]] + timer["pile"]) == sorted(CARD_NAMES)


@pytest.mark.django_db
def test_a_swap_frame_says_who_swapped_with_whom_and_which_cards_moved(race_series: Any) -> None:
    document = race_series.result
    swaps = swap_frames(document)
    assert any(frame["swap"]["with"] is not None for _, frame in swaps), "no swap between two players"
    assert any(frame["swap"]["with"] is None for _, frame in swaps), "no swap with the face-down pile"
    for game, frame in swaps:
        frames = frames_of(document, game)
        before, swap = frames[frame["ply"] - 1], frame["swap"]
        mover = swap["seat"]
        assert game["actions"][frame["ply"] - 1]["seat"] == mover
        assert before["phase"] == "swap"
        assert swap["square"] in document["config"]["yellow_squares"]
        assert before["positions"][PAWNS.index(swap["pawn"])] == swap["square"]
        assert before["hands"][mover][swap["slot"]] == swap["gave"]
        if frame["round_end"] is None or not frame["round_end"]["replayed"]:
            assert frame["hands"][mover][swap["slot"]] == swap["received"]
        if swap["with"] is None:
            assert before["pile"][swap["pile"]] == swap["received"]
        else:
            other = swap["with"]
            assert other != mover
            assert before["hands"][other][swap["their_slot"]] == swap["received"]
            assert frame["move"]["notation"] == f"swap {swap['slot']} with P{other}.{swap['their_slot']}"


@pytest.mark.django_db
def test_a_replayed_round_says_how_it_ended(race_series: Any) -> None:
    document = race_series.result
    ends = [
        (frames_of(document, game), frame)
        for game in document["games"]
        for frame in frames_of(document, game)
        if frame["round_end"] and frame["round_end"]["replayed"]
    ]
    assert ends, "no round was replayed in this series"
    for frames, frame in ends:
        end = frame["round_end"]
        assert frame["phase"] == "deal"
        assert frame["positions"] == [0, 0, 0]
        assert frame["previous_rounds"][-1] == {"order": end["order"], "reason": end["reason"]}
        assert frame["round"] == end["round"] + 1
        assert end["order"] in frames[frame["ply"] - 1]["pile"]  # the winning card was face down


def test_frames_agree_with_the_engine_when_a_round_ends_on_a_swap_or_a_move_and_at_the_replay_cap() -> None:
    """Random games in process on a small ring with many yellow squares, a short timer and one replay allowed.

    When a round ends and is replayed, the engine has already reset the pawns and
    its swap log, so the frame describes the last move or swap from the action id;
    here a copy of the state before, whose timer cannot ring, says what it did.
    """
    config = {"ring_length": 12, "yellow_squares": [2, 3, 4, 5], "timer_turns": [1, 2], "max_replays": 1}
    game = engines.get("watch_race", config)
    seen = set()
    for seed in range(30):
        state, rng, actions = game.new_initial_state(seed=seed, num_players=4), random.Random(seed), []
        states = [state.clone()]
        while not state.is_terminal():
            actions.append(rng.choice(state.legal_actions()))
            state.apply_action(actions[-1])
            states.append(state.clone())
        frames = replays.frames_for("watch_race", config, 4, actions)
        assert frames is not None
        for ply, frame in enumerate(frames[1:], start=1):
            end = frame["round_end"]
            if not (end and end["replayed"]):
                continue
            before = states[ply - 1]
            unrung = before.clone()
            unrung.timer = 10**6
            unrung.apply_action(actions[ply - 1])
            assert end["positions"] == unrung.positions
            assert end["order"] == frame["previous_rounds"][-1]["order"]
            if frame["swap"]:
                seen.add("swap")
                _turn, mover, slot, other, pile, their_slot, given, received = unrung.swap_log[-1]
                assert (frame["swap"]["seat"], frame["swap"]["slot"]) == (mover, slot)
                assert (frame["swap"]["with"], frame["swap"]["pile"]) == (other, pile)
                assert (frame["swap"]["gave"], frame["swap"]["received"]) == (CARD_NAMES[given], CARD_NAMES[received])
                assert frame["swap"]["their_slot"] == (None if other is None else their_slot)
            if frame["move"]["kind"] == "move":
                seen.add("move")
                assert frame["move"]["to"] == unrung.positions[PAWNS.index(frame["move"]["pawn"])]
        last = frames[-1]
        if last["reason"] == "draw_cap":
            seen.add("draw")
            assert last["winner"] is None
            assert last["round_end"]["replayed"] is False
            assert last["round_end"]["order"] == last["order"]
            assert last["replays"] == 1
    assert seen == {"swap", "move", "draw"}


def test_race_seats_are_named_as_the_notation_names_them_and_steps_use_the_players_names() -> None:
    assert [replays.seat_label("watch_race", s) for s in range(4)] == ["P0", "P1", "P2", "P3"]
    names = ["ann", "bob", "cy", "dan"]
    assert replays.name_step("watch_race", "game 3: player 2 won (timer): 1 point", names) == (
        "game 3: cy won (timer): 1 point"
    )
    assert replays.name_step(
        "watch_race", "players 0, 1 and 3 share the top with 1 point: no series winner", names
    ) == ("ann, bob and dan share the top with 1 point: no series winner")
    assert replays.name_step("watch_race", "players 0 and 2 share the top", names) == "ann and cy share the top"
    assert replays.name_step("watch_race", "player 7 and players 1 and 9", names) == "player 7 and players 1 and 9"
    board = replays.board_for("watch_race", {"ring_length": 24, "yellow_squares": [16, 8]})
    assert board["ring_length"] == 24
    assert board["yellow_squares"] == [8, 16]
    assert board["pawns"] == ["G", "B", "O"]


# -- the series page --------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_series_page_embeds_the_race_viewer_and_its_frames(
    race_series: Any, client_of: Callable[[Any], Any]
) -> None:
    response = client_of(None).get(reverse("series", args=[race_series.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    document = race_series.result
    for game in document["games"]:
        number = game["index"] + 1
        assert f'data-replay="replay-{number}"' in page
        script = re.search(rf'<script id="replay-{number}" type="application/json">(.*?)</script>', page, re.S)
        assert script is not None
        data = json.loads(html.unescape(script.group(1)))
        assert data["game"] == "watch_race"
        assert data["seat_labels"] == ["P0", "P1", "P2", "P3"]
        assert data["board"]["yellow_squares"] == [10, 20]
        assert data["frames"] == frames_of(document, game)
        assert data["moves"] == [a["notation"] for a in game["actions"]]
    assert "No viewer for this game yet" not in page
    assert "/static/web/replay.js" in page
    # The race's own renderer and style sheet, from its folder (engines/watch_race/static).
    assert '<script src="/static/games/watch_race/viewer.js" defer>' in page
    assert '<link rel="stylesheet" href="/static/games/watch_race/viewer.css">' in page
    # The score steps name the players, not "player 3".
    text = html.unescape(page)
    names = ["ann-random v1", "bob-heuristic v1", "cy-random v1", "dan-heuristic v1"]
    steps = document["score"]["steps"]
    assert steps
    for step in steps:
        named = replays.name_step("watch_race", step, names)
        assert f"<li>{named}</li>" in text
        assert not re.search(r"\bplayers? \d", named)


# -- the browser ------------------------------------------------------------------------------


@pytest.fixture
def page(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.is_file():
        pytest.fail("the viewer test drives /usr/bin/chromium: run `sudo apt-get install chromium`", pytrace=False)
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop shares this thread with the ORM
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            yield browser.new_page(viewport={"width": 1280, "height": 1000})
        finally:
            browser.close()
            # As in test_replay_viewer_browser.py: close this thread's connections, or the test
            # database cannot be dropped.
            connections.close_all()


@pytest.mark.django_db(transaction=True)
def test_the_browser_steps_to_a_swap_and_shows_its_banner(race_series: Any, live_server: Any, page: Any) -> None:
    document = race_series.result
    game, frame = next((g, f) for g, f in swap_frames(document) if f["swap"]["with"] is not None)
    swap = frame["swap"]
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/series/{race_series.pk}/")
    viewer = page.locator(".replay").nth(game["index"])
    ply = viewer.locator(".replay-ply output")
    ring = viewer.locator("svg.race-ring")
    assert ply.inner_text() == "0"
    assert "the referee deals the objective cards" in viewer.locator(".replay-status").inner_text()
    assert ring.get_attribute("role") == "img"
    assert "green on square 0, blue on square 0, orange on square 0" in ring.get_attribute("aria-label")
    assert ring.locator("path.cell").count() == 30
    assert ring.locator("path.cell.start").count() == 1
    assert ring.locator("path.cell.yellow").count() == 2
    assert ring.locator("g.race-pawn").count() == 3
    assert viewer.locator(".race-banner").count() == 0
    assert "Cards (secret during the game)" in viewer.locator("table.race-players").inner_text()

    viewer.focus()
    for _ in range(frame["ply"]):
        page.keyboard.press("ArrowRight")
    assert ply.inner_text() == str(frame["ply"])
    banner = viewer.locator(".race-banner.swap")
    expected = (
        f"P{swap['seat']} swapped card {swap['slot']} with P{swap['with']}'s card {swap['their_slot']} "
        f"on yellow square {swap['square']}: {swap['gave']} went to P{swap['with']}, "
        f"{swap['received']} to P{swap['seat']}."
    )
    assert banner.inner_text() == expected
    assert expected in ring.get_attribute("aria-label")
    assert viewer.locator("table.race-players tr.swapped").count() == 2
    rows = viewer.locator("table.race-players tbody tr")
    assert swap["received"] in rows.nth(swap["seat"]).locator("td.hand").inner_text()
    for pawn, square in zip(PAWNS, frame["positions"], strict=True):
        assert ring.locator(f'g.race-pawn[data-pawn="{pawn}"]').get_attribute("data-square") == str(square)
    viewer.scroll_into_view_if_needed()
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    viewer.screenshot(path=str(SCREENSHOT))

    frames = frames_of(document, game)
    page.keyboard.press("ArrowRight")
    assert ply.inner_text() == str(frame["ply"] + 1)
    assert viewer.locator(".race-banner.swap").count() == (1 if frames[frame["ply"] + 1]["swap"] else 0)
    page.keyboard.press("End")
    winner = frames[-1]["winner"]
    assert viewer.locator(".replay-status").inner_text().startswith(f"P{winner} (")
    assert " wins: " in viewer.locator(".replay-status").inner_text()
    assert errors == []


@pytest.mark.django_db(transaction=True)
def test_the_browser_says_when_a_round_is_played_again(race_series: Any, live_server: Any, page: Any) -> None:
    document = race_series.result
    game, frame = next(
        (game, frame)
        for game in document["games"]
        for frame in frames_of(document, game)
        if frame["round_end"] and frame["round_end"]["replayed"]
    )
    end = frame["round_end"]
    page.goto(f"{live_server.url}/series/{race_series.pk}/")
    viewer = page.locator(".replay").nth(game["index"])
    viewer.locator(".moves .move").nth(frame["ply"] - 1).click()
    assert viewer.locator(".replay-ply output").inner_text() == str(frame["ply"])
    banner = viewer.locator(".race-banner.round-end").inner_text()
    assert banner.startswith(f"Round {end['round']} ended (")
    assert f"with the pawns in order {end['order']}: that card was face down" in banner
    assert "the round is played again with a fresh deal" in banner
    assert "the referee deals the objective cards" in viewer.locator(".replay-status").inner_text()
    ring = viewer.locator("svg.race-ring")
    assert f"Watch race, round {end['round'] + 1}, turn 0" in ring.get_attribute("aria-label")
