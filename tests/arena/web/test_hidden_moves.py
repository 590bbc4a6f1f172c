"""Hidden information in a replay: public words for everyone, a seat's hidden cards for its bot's owner, all for staff.

A three-player Watch factory series of the reference bots, played in the
sandbox (tests/arena/web/conftest.py keeps its result for the session). Its
recorded notation names what the table never saw ("draw doc 12", "keep doc
12", "watch card workshop", "random watch warehouse", "market 9" for the
next round's card). The series page, the replay download and the API's
replay give an anonymous visitor and a stranger the moves in public words; the
owner of seat k's bot also gets seat k's private layer (its hand of
documents, ...), never another seat's; staff get every seat's layer and the
full record. A game without hidden information (Watch) is unchanged.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest
from django.urls import reverse

import engines
from arena.web import access, replays
from arena.web.views.series import game_view
from engines.factory_race.game import PLACE as FACTORY_PLACE
from engines.result import SeriesResult
from engines.watch_factory.game import DRAW_DOC, DRAW_MARKET, WatchFactoryState

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[3]
PACKAGES = REPO / "bots" / "watch_factory" / "packages"
#: The notation of a hidden Watch factory move (the first market card, drawn face up, is public).
SECRET = re.compile(
    r"\b(draw doc \d+|keep doc \d+|watch card (loading dock|workshop|warehouse|foreman's office)"
    r"|random watch (loading dock|workshop|warehouse|foreman's office))"
)
MARKET = re.compile(r"^market \d+$")


@pytest.fixture
def secret_series(settings: Any, tmp_path: Path, make_user: Callable[..., Any]) -> dict[str, Any]:
    """A recorded three-player Watch factory series: ann's, bob's and cy's bots in seats 0, 1, 2."""
    from arena.bots.submissions import mark_validation_result, submit_version
    from arena.seasons.models import Season, SeasonEntry
    from tests.arena.web.conftest import play_series

    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    season = Season.objects.create(name="Secret ladder", game="watch_factory", players_per_series=3, games_per_series=3)
    users = {}
    versions = []
    for owner, package in (("ann", "random"), ("bob", "heuristic"), ("cy", "random")):
        users[owner] = make_user(owner)
        version = submit_version(users[owner], f"{owner}-{package}", PACKAGES / package)
        versions.append(mark_validation_result(version, True, "passed the validation series"))
        SeasonEntry.objects.create(season=season, version=versions[-1])
    season.transition(Season.Status.RUNNING)
    series = play_series(season, versions, seed=5)
    assert series.result is not None, series.failure_reason
    users["staff"] = make_user("operator", is_staff=True)
    users["stranger"] = make_user("mallory")
    return {"series": series, "users": users}


def replay_data(page: str) -> list[dict[str, Any]]:
    """Return every replay's JSON data embedded in a series page, game 1 first."""
    scripts = re.findall(r'<script id="replay-\d+" type="application/json">(.*?)</script>', page, re.S)
    return [json.loads(html.unescape(script)) for script in scripts]


def states_of(document: dict[str, Any], game: dict[str, Any]) -> list[WatchFactoryState]:
    states = replays.replay_state(
        "watch_factory",
        document.get("config") or {},
        len(game["seats"]),
        [action["action"] for action in game["actions"]],
    )
    return cast(list[WatchFactoryState], states)


def assert_public_moves(moves: list[str], recorded: list[dict[str, Any]]) -> None:
    """The moves as the public reads them: no hidden card named, the first (face-up) market card only."""
    assert len(moves) == len(recorded)
    assert recorded[0]["notation"].startswith("market ")  # the first market card, face up: public
    assert moves[0] == recorded[0]["notation"]
    for said, action in zip(moves, recorded, strict=True):
        assert not SECRET.search(said), said
        if MARKET.match(action["notation"]) and action is not recorded[0]:
            assert said == "the next round's market card is drawn (face down)"
    # The record itself names the secrets the page hides.
    assert any(SECRET.search(action["notation"]) for action in recorded)
    assert sum(bool(MARKET.match(action["notation"])) for action in recorded) > 1
    assert any(re.fullmatch(r"P\d draws a document \(face down\)", said) for said in moves)


def test_an_anonymous_visitor_reads_public_words_and_no_hand(
    secret_series: dict[str, Any], client_of: Callable[[Any], Any]
) -> None:
    series = secret_series["series"]
    document = series.result
    for visitor in (None, secret_series["users"]["stranger"]):
        page = html.unescape(client_of(visitor).get(reverse("series", args=[series.pk])).content.decode())
        assert not SECRET.search(page)
        datas = replay_data(page)
        assert len(datas) == len(document["games"]) == 3
        for data, game in zip(datas, document["games"], strict=True):
            assert_public_moves(data["moves"], game["actions"])
            assert "private" not in data
            # Every frame keeps each hand a count.
            assert all(isinstance(player["hand"], int) for frame in data["frames"] for player in frame["players"])
        # The page's own move lists say the same words.
        listed = re.findall(r'<button type="button" class="move" data-ply="\d+">(.*?)</button>', page)
        assert listed == [said for data in datas for said in data["moves"]]


def test_the_owner_of_a_seat_sees_that_seats_hand_and_no_other(
    secret_series: dict[str, Any], client_of: Callable[[Any], Any]
) -> None:
    series = secret_series["series"]
    document = series.result
    page = html.unescape(
        client_of(secret_series["users"]["bob"]).get(reverse("series", args=[series.pk])).content.decode()
    )
    assert not SECRET.search(page)  # the moves stay public words, even the owner's own
    for data, game in zip(replay_data(page), document["games"], strict=True):
        seat = game["seats"].index(1)  # bob's bot is series player 1, seated anew each game
        assert set(data["private"]) == {str(seat)}
        layer = data["private"][str(seat)]
        states = states_of(document, game)
        assert len(layer) == len(data["frames"]) == len(states)
        for frame, state in zip(layer, states, strict=True):
            assert [doc["card"] for doc in frame["hand"]] == sorted(state.players[seat].hand)
            assert all(doc["colour"] and doc["kind"] for doc in frame["hand"])
        assert any(frame["hand"] for frame in layer)
        assert_public_moves(data["moves"], game["actions"])


def test_staff_see_every_seats_layer(secret_series: dict[str, Any], client_of: Callable[[Any], Any]) -> None:
    series = secret_series["series"]
    page = html.unescape(
        client_of(secret_series["users"]["staff"]).get(reverse("series", args=[series.pk])).content.decode()
    )
    seen: set[str] = set()
    for data in replay_data(page):
        assert set(data["private"]) == {"0", "1", "2"}
        for layer in data["private"].values():
            seen |= {key for frame in layer for key in frame}
    # Over a series: hands, the documents searched, watch cards set face down, the peeked market card.
    assert {"hand", "searching", "watch_set", "next_market"} <= seen


def assert_redacted(body: dict[str, Any], document: dict[str, Any]) -> None:
    assert body["redacted"] == access.REDACTED
    assert "stderr" not in body
    assert not SECRET.search(json.dumps(body))
    assert {key for key in body if key != "redacted"} == {key for key in document if key != "stderr"}
    for shown, game in zip(body["games"], document["games"], strict=True):
        assert_public_moves([action["notation"] for action in shown["actions"]], game["actions"])
        for public, recorded in zip(shown["actions"], game["actions"], strict=True):
            if public["notation"] == recorded["notation"]:
                assert public == recorded  # a public move is the record
            else:
                assert public["action"] is None
                assert {**public, "notation": recorded["notation"], "action": recorded["action"]} == recorded
        assert [a for a in shown["actions"] if a["action"] is None]
        assert {k: v for k, v in shown.items() if k != "actions"} == {k: v for k, v in game.items() if k != "actions"}


def test_the_download_hides_the_secret_moves_but_for_staff(
    secret_series: dict[str, Any], client_of: Callable[[Any], Any]
) -> None:
    series = secret_series["series"]
    document = series.result
    url = reverse("series-replay", args=[series.pk])
    users = secret_series["users"]
    for visitor in (None, users["stranger"], users["ann"]):
        response = client_of(visitor).get(url)
        assert response.status_code == 200
        assert_redacted(json.loads(response.content), document)
    full = json.loads(client_of(users["staff"]).get(url).content)
    assert full == {key: value for key, value in document.items() if key != "stderr"}
    assert SECRET.search(json.dumps(full))


def test_the_api_follows_the_same_rule(secret_series: dict[str, Any], client_of: Callable[[Any], Any]) -> None:
    series = secret_series["series"]
    document = series.result
    users = secret_series["users"]
    url = f"/api/series/{series.pk}/replay/"
    for visitor in (None, users["stranger"], users["cy"]):
        response = client_of(visitor).get(url)
        assert response.status_code == 200
        assert_redacted(response.json(), document)
    assert client_of(users["staff"]).get(url).json() == {k: v for k, v in document.items() if k != "stderr"}
    # The series detail and its games carry no move list; their forfeits follow the forfeit rule.
    detail = client_of(None).get(f"/api/series/{series.pk}/").json()
    assert not SECRET.search(json.dumps(detail))
    assert client_of(None).get(f"/api/series/{series.pk}/games/").json() == detail["games"]


def test_a_forfeits_legal_moves_are_for_the_forfeiting_seats_owner() -> None:
    forfeit = {
        "player": 1,
        "seat": 0,
        "reason": "illegal_action",
        "detail": "'keep doc 99' is not legal now; legal now: keep doc 3, keep doc 7",
    }
    public = access.public_forfeit("watch_factory", forfeit, full=False)
    assert public is not None
    assert public["detail"] == "'keep doc 99' is not legal now; legal now: (hidden)"
    assert access.public_forfeit("watch_factory", forfeit, full=True) == forfeit
    assert access.public_forfeit("watch", forfeit, full=False) == forfeit  # no hidden information


def test_a_game_without_hidden_information_keeps_its_record(
    ladder: dict[str, Any], client_of: Callable[[Any], Any]
) -> None:
    assert not replays.has_secret_moves("watch")
    series = ladder["series"][0]
    document = series.result
    page = html.unescape(client_of(None).get(reverse("series", args=[series.pk])).content.decode())
    for data, game in zip(replay_data(page), document["games"], strict=True):
        assert data["moves"] == [action["notation"] for action in game["actions"]]
        assert "private" not in data
    body = json.loads(client_of(None).get(reverse("series-replay", args=[series.pk])).content)
    assert "redacted" not in body
    assert body == {key: value for key, value in document.items() if key != "stderr"}


def played_factory_race(seed: int = 4, players: int = 3) -> dict[str, Any]:
    """Return a result document of one factory race game played by random moves (notation as recorded)."""
    import random

    state = engines.get("factory_race", {}).new_initial_state(seed=seed * 1000, num_players=players)
    rng = random.Random(seed)
    actions = []
    while not state.is_terminal() and len(actions) < 400:
        action = rng.choice(state.legal_actions())
        seat = state.current_player()
        actions.append(
            {"seat": None if seat < 0 else seat, "action": action, "notation": state.action_to_string(action)}
        )
        state.apply_action(action)
    game = {
        "index": 0,
        "seats": list(range(players)),
        "actions": actions,
        "forfeit": None,
        "winners": [],
        "reason": "",
        "stats": {},
    }
    return {
        "protocol": 1,
        "game": "factory_race",
        "rules_version": "1",
        "config": {},
        "seed": seed,
        "games_planned": 1,
        "time_control": {},
        "limits": {},
        "sandbox": "none",
        "players": [{"name": f"p{p}", "sha256": ""} for p in range(players)],
        "games": [game],
        "score": {"points": [0] * players},
    }


def test_the_factory_races_placements_stay_hidden_in_the_moves_until_the_reveal() -> None:
    document = played_factory_race()
    game = document["games"][0]
    result = SeriesResult.from_json(document)
    shown = game_view(result, result.games[0], ["a v1", "b v1", "c v1"])
    moves = shown["viewer"]["data"]["moves"]
    state = engines.get("factory_race", {}).new_initial_state(seed=4000, num_players=3)
    pending: dict[int, list[str]] = {}
    reveals = secrets = 0
    for said, action in zip(moves, game["actions"], strict=True):
        before, placer = state.phase, state.current_player()
        state.apply_checked(action["action"])
        if before == FACTORY_PLACE and placer >= 0 and state.phase == FACTORY_PLACE:
            if action["notation"] != "done":
                pending.setdefault(placer, []).append(action["notation"])
                assert said == f"P{placer} places a worker (hidden)"
                secrets += 1
            else:
                assert said == f"P{placer} done placing"
        elif before == FACTORY_PLACE and state.phase != FACTORY_PLACE:
            # The move that ends the placements reveals every seat's, in order.
            if action["notation"] != "done":
                pending.setdefault(placer, []).append(action["notation"])
            assert "placements revealed together: " in said
            for seat, names in pending.items():
                assert f"P{seat} {', '.join(names)}" in said
            pending = {}
            reveals += 1
        else:
            assert said == action["notation"]
    assert secrets
    assert reveals
    assert "private" not in shown["viewer"]["data"]
    # The owner of series player 1 sees its placements of the round while they are secret.
    owned = game_view(result, result.games[0], ["a v1", "b v1", "c v1"], private={1})
    layer = owned["viewer"]["data"]["private"]["1"]
    assert any(frame.get("placing") for frame in layer)
    assert set(owned["viewer"]["data"]["private"]) == {"1"}


def test_every_hidden_watch_factory_move_has_public_words() -> None:
    """Engine-level: the words of draws and choices never name the card; the first market card stays public."""
    import random

    declared = engines.declaration("watch_factory")
    assert declared.viewer is not None
    assert declared.viewer.public_moves is not None
    state = engines.get("watch_factory", {}).new_initial_state(seed=9, num_players=3)
    rng = random.Random(9)
    states, actions = [state.clone()], []
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        actions.append(action)
        states.append(state.clone())
    words = declared.viewer.public_moves(states, actions)
    assert words[0] is None
    assert actions[0] >= DRAW_MARKET
    for before, action, said in zip(states[:-1], actions, words, strict=True):
        notation = before.action_to_string(action)
        if SECRET.search(notation) or (MARKET.match(notation) and before.market >= 0):
            assert said is not None
            assert notation not in said
        if DRAW_DOC <= action < DRAW_MARKET and said is not None:
            assert re.fullmatch(r"P\d draws a document( from the files)? \(face down\)", said), said
