"""Replay frames: rebuilt through the engine from the recorded actions, one per position."""

from __future__ import annotations

import copy
import html
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

import engines
from arena.series.models import Series, SeriesResultLog, SeriesSeat
from arena.web import replays
from engines.watch.game import EMPTY

pytestmark = pytest.mark.django_db


def frames_of(document: dict[str, Any], game: dict[str, Any]) -> list[dict[str, Any]] | None:
    return replays.frames_for(
        document["game"],
        document["config"],
        len(document["players"]),
        [a["action"] for a in game["actions"]],
    )


def test_the_first_and_last_frames_are_the_engines_states(ladder: dict[str, Any]) -> None:
    document = ladder["series"][0].result
    for game in document["games"]:
        actions = [a["action"] for a in game["actions"]]
        frames = frames_of(document, game)
        assert len(frames) == len(actions) + 1
        first, last = frames[0], frames[-1]
        assert first["tiles"] == [EMPTY] * 25
        assert first["pawns"] == [None, None]
        assert first["removed"] == []
        assert first["phase"] == "dress"
        assert first["to_move"] == 0
        final = engines.get("watch").state_from_json({"history": actions})
        assert last["tiles"] == final.tiles
        assert last["pawns"] == final.pawns
        assert last["removed"] == [sq for sq, tile in enumerate(final.tiles) if tile == EMPTY]
        assert last["ply"] == len(actions)
        if game["forfeit"] is None:
            # The referee's recorded winner is the series player in the winning seat.
            assert [game["seats"][last["winner"]]] == game["winners"]
            assert last["reason"] == game["reason"]
            assert last["to_move"] is None


def test_a_move_removes_the_tile_left_behind(ladder: dict[str, Any]) -> None:
    document = ladder["series"][0].result
    game = document["games"][0]
    frames = frames_of(document, game)
    first_move = 27  # 25 tiles, then the two pawns
    before, after = frames[first_move], frames[first_move + 1]
    white_from = before["pawns"][0]
    assert before["removed"] == []
    assert after["removed"] == [white_from]
    assert after["pawns"][0] != white_from


def test_actions_the_rules_refuse_raise_with_the_ply(ladder: dict[str, Any]) -> None:
    document = ladder["series"][0].result
    game = copy.deepcopy(document["games"][0])
    game["actions"][3]["action"] = game["actions"][2]["action"]  # a tile on a square that has one
    with pytest.raises(replays.ReplayError, match=r"ply 4: .* is not legal now"):
        frames_of(document, game)


def test_a_tampered_document_shows_an_error_instead_of_a_board(
    ladder: dict[str, Any], client_of: Callable[[Any], Any]
) -> None:
    original = ladder["series"][0]
    document = copy.deepcopy(original.result)
    document["games"][0]["actions"][0]["action"] = 99999
    forged = Series.objects.create(season=ladder["season"], seed=original.seed, state=Series.State.DONE)
    for seat in original.seats.all():
        SeriesSeat.objects.create(series=forged, seat=seat.seat, version=seat.version)
    SeriesResultLog.objects.create(series=forged, result=document)
    response = client_of(None).get(reverse("series", args=[forged.pk]))
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert "This game's replay could not be rebuilt: ply 1: action 99999 (out of range" in page
    assert 'data-replay="replay-2"' in page  # the untouched game still has its viewer


def test_a_game_without_a_viewer_gets_none_and_generic_seats() -> None:
    # Every engine has a viewer now (the race's: test_race_replay.py), so ask about a game without one.
    assert replays.frames_for("no_viewer_game", {}, 3, []) is None
    assert not replays.has_frames("no_viewer_game")
    assert [replays.seat_label("no_viewer_game", s) for s in range(3)] == ["Seat 1", "Seat 2", "Seat 3"]
    assert [replays.seat_label("watch", s) for s in range(2)] == ["White", "Black"]
    assert replays.name_step("no_viewer_game", "player 2 beats player 10 and player 0", ["a", "b", "c"]) == (
        "c beats player 10 and a"
    )
