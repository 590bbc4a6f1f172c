"""The Watch factory's replay frames: one per position, JSON-ready, public information only, the score at the end.

A replay page is the same for every visitor (the platform has no owner-only
replay), so the frames show what the table shows everyone: no player's
documents in hand (a count), no watch card set face down before the next
round reveals it, no next market card, and no move that names one.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import engines
from engines.watch_factory import data, viewer
from engines.watch_factory.game import (
    DRAW_DOC,
    DRAW_MARKET,
    DRAW_WATCH,
    KEEP,
    OVER,
    PLACE,
    S_KEEP,
    S_WATCH,
    WatchFactoryState,
)

#: Keys of a frame's player that would hold a player's secret cards.
SECRET_PLAYER_KEYS = {"returned", "searching", "next_market"}


def played(seed: int, num_players: int) -> tuple[list[WatchFactoryState], list[int]]:
    """Return every state and action of a whole random game (chance drawn with its probabilities)."""
    rng = random.Random(seed)
    state = engines.get("watch_factory").new_initial_state(seed=seed, num_players=num_players)
    states, actions = [state.clone()], []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        states.append(state.clone())
        actions.append(action)
    return states, actions


def walk(value: Any) -> list[tuple[str, Any]]:
    """Return every (key, value) pair anywhere in a JSON value."""
    found: list[tuple[str, Any]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            found.append((key, item))
            found += walk(item)
    elif isinstance(value, list):
        for item in value:
            found += walk(item)
    return found


def test_a_three_player_game_gives_one_json_frame_per_position_with_the_public_board() -> None:
    states, actions = played(3, 3)
    frames = viewer.frames(states, actions)
    assert len(frames) == len(states)
    assert [frame["ply"] for frame in frames] == list(range(len(states)))
    assert json.loads(json.dumps(frames)) == frames
    for frame, state in zip(frames, states, strict=True):
        assert frame["round"] == state.round
        assert frame["hand"] == (state.round - 1) % 4
        assert len(frame["spots"]) == data.NUM_SPOTS
        assert len(frame["tracks"]) == len(data.TRACKS)
        assert all(len(line) == data.SPOTS_BELOW_FOUR for line in frame["tracks"])
        assert len(frame["players"]) == 3
        # Each worker on a board spot is where the state has it.
        for worker, spot in enumerate(state.spots):
            if spot >= 0:
                assert frame["spots"][spot] == worker
        for p, player in enumerate(frame["players"]):
            real = state.players[p]
            assert (player["rubles"], player["gears"], player["debts"]) == (real.rubles, real.gears, real.debts)
            assert player["crates"] == sorted(real.crates)
            assert player["removed"] == real.removed
            assert player["hand"] == len(real.hand)
            assert [(d["colour"], d["kind"]) for d in player["played"]] == [
                (data.DOC_COLOURS[data.DOCUMENTS[c][0]], data.DOCUMENTS[c][1]) for c in real.played
            ]
        assert frame["stock"] == [state.stock[v] for v in range(1, 10)]
        assert frame["pawn"] is None
    # Round 1's first market card is face up from the start of play.
    assert frames[0]["market"] is None or frames[0]["market"]["card"] == states[0].market
    placed = next(frame for frame in frames if frame["move"] and frame["move"].get("step") == "place worker")
    assert placed["move"]["notation"].startswith("place ")
    assert any(cell not in (None, "gear") for frame in frames for line in frame["tracks"] for cell in line)
    assert any(frame["log"] for frame in frames)


def test_hidden_cards_never_reach_a_frame() -> None:
    states, actions = played(5, 3)
    frames = viewer.frames(states, actions)
    for frame, state in zip(frames, states, strict=True):
        for player in frame["players"]:
            assert isinstance(player["hand"], int), "a hand is a count"
            assert not SECRET_PLAYER_KEYS & set(player), player
            assert "hand" not in {k for k, v in walk(player) if isinstance(v, list)}
        # Watch cards set for next round: how many and by whom, never which.
        assert frame["watch_set"] == len(state.watch_set)
        assert isinstance(frame["watch_set"], int)
        assert "next_market" not in frame
        assert isinstance(frame["searching"], int)
        # The revealed cards are those the round revealed: the ones set in the round before.
        assert frame["revealed"] == state.revealed
    # No frame names a card a player drew, kept or set face down, or the next market card.
    names_a_card = re.compile(r"(?<!P)\d|" + "|".join(re.escape(section) for section in data.SECTIONS))
    for ply, action in enumerate(actions, start=1):
        before, move = states[ply - 1], frames[ply]["move"]
        if move["hidden"]:
            assert not names_a_card.search(move["notation"]), move
            assert before.action_to_string(action) not in move["notation"]
        if DRAW_DOC <= action < DRAW_DOC + len(data.DOCUMENTS) or DRAW_WATCH <= action < DRAW_WATCH + 4:
            assert move["hidden"] is True
        if before.step in (S_KEEP, S_WATCH):
            assert move["hidden"] is True
            assert KEEP <= action < KEEP + len(data.DOCUMENTS) or before.step == S_WATCH
        if DRAW_MARKET <= action < DRAW_MARKET + len(data.MARKETS) and before.market >= 0:
            assert move["hidden"] is True
            assert str(action - DRAW_MARKET) not in move["notation"]
    # A watch card set by a player appears in a frame only from the round that reveals it.
    set_by_watch = [ply for ply in range(1, len(actions) + 1) if states[ply - 1].step == S_WATCH]
    assert set_by_watch, "somebody took WATCH"
    ply = set_by_watch[0]
    section = states[ply].watch_set[-1]
    round_set = states[ply].round
    for frame in frames[: ply + 1]:
        assert section not in frame["revealed"] or frame["round"] < round_set
    revealed = next(frame for frame in frames if frame["round"] == round_set + 1 and frame["phase"] != "place")
    assert section in revealed["revealed"]


def test_the_final_frame_has_every_players_score_and_the_winners() -> None:
    states, actions = played(7, 3)
    last = viewer.frames(states, actions)[-1]
    final = states[-1]
    assert last["phase"] == OVER
    assert [score["total"] for score in last["scores"]] == [final.score(p)["total"] for p in range(3)]
    assert all(
        set(score) >= {"crates", "board", "sets", "gears bonus", "coins bonus", "debts", "total"}
        for score in last["scores"]
    )
    outcome = final.outcome()
    assert outcome is not None
    assert last["winners"] == list(outcome.winners)
    assert last["reason"] == outcome.reason
    assert "scores" not in viewer.frames(states[:2], actions[:1])[-1]


def test_a_solo_game_shows_the_robot_the_closed_office_and_the_solo_score() -> None:
    states, actions = played(11, 1)
    frames = viewer.frames(states, actions)
    assert json.loads(json.dumps(frames)) == frames
    first = frames[0]
    assert first["solo"] is True
    assert first["pawn"] == 1
    assert first["pawn_name"] == "the robot"
    assert first["spots"][data.SMUGGLE] == 1  # "Place the robot on the SMUGGLE action spot"
    assert first["closed"] == [data.SEARCH, data.WATCH]
    for frame, state in zip(frames, states, strict=True):
        assert frame["watch_set"] == len(state.watch_set)
        assert frame["players"][0]["tokens"] == state.players[0].supply
        assert frame["watches"] == state.watches
    # Random watch cards are drawn face down every round and named only once revealed.
    draws = [frames[ply]["move"] for ply, a in enumerate(actions, 1) if DRAW_WATCH <= a < DRAW_WATCH + 4]
    assert draws
    assert all(move["hidden"] and "random watch card" in move["notation"] for move in draws)
    robot = [frames[ply]["move"] for ply, _ in enumerate(actions, 1) if frames[ply]["move"]["worker"] == 1]
    assert robot
    assert all(move["notation"].startswith("the robot rolls: die ") for move in robot)
    last = frames[-1]
    assert last["solo_card"]["card"] == states[-1].solo_card
    (score,) = last["scores"]
    assert score == states[-1].score(0)
    assert {"crates", "board", "gears", "rubles", "tokens", "debts", "total"} <= set(score)
    assert last["winners"] == []
    expected = [title for points, title in data.SOLO_TITLES if score["total"] >= points]
    assert last["title"] == (expected[-1] if expected else None)


def test_a_place_move_keeps_its_notation_and_names_the_worker() -> None:
    states, actions = played(2, 2)
    frames = viewer.frames(states, actions)
    ply = next(i for i, a in enumerate(actions, 1) if PLACE <= a < PLACE + data.NUM_SPOTS)
    assert frames[ply]["move"] == {
        "worker": states[ply - 1].to_move,
        "notation": states[ply - 1].action_to_string(actions[ply - 1]),
        "hidden": False,
        "step": "place worker",
    }
    assert frames[0]["pawn_name"] == "the third worker"


def test_its_board_names_the_spots_sections_tracks_and_bonus_spots() -> None:
    board = viewer.board({})
    assert json.loads(json.dumps(board)) == board
    assert board["sections"] == ["loading dock", "workshop", "warehouse", "foreman's office"]
    assert [spot["name"] for spot in board["spots"]] == list(data.SPOTS)
    assert [spot["section"] for spot in board["spots"]] == [0, 0, 1, 1, 2, 2, 3, 3]
    assert [spot["name"] for spot in board["spots"] if spot["risky"]] == [
        "smuggle",
        "overtime",
        "upgrade",
        "search files",
    ]
    assert [track["name"] for track in board["tracks"]] == list(data.TRACKS)
    assert all(len(track["bonuses"]) == data.TRACK_SPOTS for track in board["tracks"])
    assert board["tracks"][3]["bonuses"][1] == {"kind": "gears", "amount": 2}  # Red's "2 gears" example
    assert board["tracks"][0]["bonuses"][5] == {"kind": "crate", "amount": 1, "colour": "light brown"}
    assert board["crate_colours"] == ["light brown", "white", "dark brown"]
    assert board["doc_colours"] == ["red", "green", "blue", "grey"]
