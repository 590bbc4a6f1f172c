"""The factory race's replay frames: one per position, placements revealed together, the board facts."""

from __future__ import annotations

import json
import random

import engines
from engines.factory_race import viewer
from engines.factory_race.game import PLACE, FactoryRaceState


def played(seed: int, num_players: int = 3, mode: str = "base") -> tuple[list[FactoryRaceState], list[int]]:
    """Return every state and action of a random game (stopped after four rounds)."""
    rng = random.Random(seed)
    state = engines.get("factory_race").new_initial_state(seed=seed, num_players=num_players, config={"mode": mode})
    states, actions = [state.clone()], []
    while not state.is_terminal() and state.round <= 4:
        if state.is_chance_node():
            action = rng.choice(state.legal_actions())
        else:
            legal = state.legal_actions()
            action = rng.choice([a for a in legal if a] or legal)  # rarely "done", so workers get placed
        state.apply_action(action)
        states.append(state.clone())
        actions.append(action)
    return states, actions


def test_it_builds_one_json_frame_per_position() -> None:
    states, actions = played(1)
    frames = viewer.frames(states, actions)
    assert len(frames) == len(states)
    assert [frame["ply"] for frame in frames] == list(range(len(states)))
    assert json.loads(json.dumps(frames)) == frames
    first = frames[0]
    assert first["round"] == 1
    assert first["phase"] == PLACE
    assert [f["factory"] for f in first["factories"]] == ["tanks", "shells", "aircraft"]
    # tanks' layout card, top row: machine, line, machine, all running west to east
    assert first["factories"][0]["grid"][:3] == ["MEW", "LEW", "MEW"]
    assert first["factories"][0]["grid"][4] is None
    assert first["open_tiles"] == ["MEW", "LEW", "LNW", "MNEW", "LNESW"]


def test_it_hides_the_placements_until_every_seat_has_placed_then_reveals_them_together() -> None:
    states, actions = played(2)
    frames = viewer.frames(states, actions)
    placing = [frame for frame in frames[1:] if frame["move"]["phase"] == PLACE and frame["move"]["seat"] is not None]
    assert placing, "the game has placements"
    for frame in placing:
        if frame["phase"] == PLACE:
            assert frame["move"]["notation"] in ("places a worker (hidden)", "done placing")
            assert all(f["placed"] is None for f in frame["factories"])
        else:  # the last placement of the round: everything shows
            assert "revealed" in frame
            assert frame["move"]["notation"] == states[frame["ply"] - 1].action_to_string(actions[frame["ply"] - 1])
    reveals = [frame for frame in frames if "revealed" in frame]
    assert len(reveals) >= 3  # one per round played
    reveal = reveals[0]
    ply = reveal["ply"]
    # Exactly what each seat placed in round 1, in its own notation, shown in one frame.
    placed: dict[str, list[str]] = {}
    for index in range(ply):
        before = states[index]
        if before.phase == PLACE and before.current_player() >= 0 and actions[index] != 0:
            placed.setdefault(str(before.current_player()), []).append(before.action_to_string(actions[index]))
    assert reveal["revealed"] == placed
    assert any(names for names in placed.values())


def test_its_board_names_the_colours_prices_posters_and_events() -> None:
    board = viewer.board({"mode": "challenge", "stars": 2})
    assert board["colours"] == ["red", "yellow", "blue"]
    assert board["tile_costs"] == [5, 5, 4, 3, 2]
    assert (board["mode"], board["stars"]) == ("challenge", 2)
    assert len(board["posters"]) == 24
    assert len(board["events"]) == 16
    assert board["events"][0]["title"].startswith("Не поднимая глаз")
