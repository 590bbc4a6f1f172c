"""Golden replays: whole recorded games replay to the same result, notation and board.

Each file in golden/ holds one complete game: its actions in notation and as
ids, the outcome and the final board as render() draws it. Three were made by
random legal play and checked move by move against the rules by hand; one is
the rulebook's example game 2 (on a reconstructed colouring, see
test_watch_examples.py). A change of rules, action ids, notation or rendering
shows up here as a diff.

The saved-state tests at the bottom cover state_from_json, which replays a
saved action list through the checked path.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import engines
from engines import StateFormatError
from engines.watch import WatchState

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def new_game() -> WatchState:
    return engines.get("watch").new_initial_state()


def test_there_are_golden_games_for_every_way_to_win() -> None:
    reasons = {load(path)["outcome"]["reason"] for path in GOLDEN}
    assert reasons == {"capture", "colour", "no_moves"}


@pytest.mark.parametrize("path", GOLDEN, ids=lambda path: path.stem)
def test_it_replays_a_golden_game_from_its_notation(path: Path) -> None:
    golden = load(path)
    state = new_game()
    for text in golden["actions"]:
        state.apply_notation(text)
    assert state.history == golden["action_ids"]
    assert state.outcome().to_json() == golden["outcome"]
    assert state.render().splitlines() == golden["final_board"]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda path: path.stem)
def test_it_replays_a_golden_game_from_its_action_ids(path: Path) -> None:
    golden = load(path)
    state = new_game()
    written = []
    for action in golden["action_ids"]:
        written.append(state.action_to_string(action))
        state.apply_checked(action)
    assert written == golden["actions"]
    assert state.outcome().to_json() == golden["outcome"]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda path: path.stem)
def test_it_restores_a_golden_game_from_its_saved_state(path: Path) -> None:
    golden = load(path)
    state = engines.get("watch").state_from_json({"game": "watch", "history": golden["action_ids"]})
    assert state.outcome().to_json() == golden["outcome"]
    assert state.render().splitlines() == golden["final_board"]


# -- saved states that do not describe a game


def saved_golden_game() -> dict[str, Any]:
    state = new_game()
    for text in load(GOLDEN[0])["actions"]:
        state.apply_notation(text)
    return state.to_json()


def test_it_names_the_first_illegal_action_of_a_saved_game() -> None:
    saved = saved_golden_game()
    saved["history"][28] = saved["history"][27]  # Black "moves" to the square White just took
    with pytest.raises(StateFormatError, match=r"history\[28\]: .* is not legal now; legal now: "):
        engines.get("watch").state_from_json(saved)


def test_it_refuses_a_saved_game_that_goes_on_after_its_end() -> None:
    saved = saved_golden_game()
    saved["history"].append(saved["history"][-1])
    with pytest.raises(StateFormatError, match="the game is over"):
        engines.get("watch").state_from_json(saved)


@pytest.mark.parametrize(
    ("saved", "message"),
    [
        ({"game": "chess", "history": []}, "this is a state of 'chess', not of watch"),
        ({"rules_version": "2", "history": []}, "rules version '2' is not this engine's '1'"),
        ({"history": "0 1 2"}, "a Watch state needs 'history', the list of actions played"),
        ({}, "a Watch state needs 'history'"),
        ({"history": [], "seed": "7"}, "seed must be an integer or null, not '7'"),
        ({"history": ["red@d4"]}, r"history\[0\]: an action must be an integer, not str 'red@d4'"),
    ],
    ids=["another game", "another rules version", "history not a list", "no history", "bad seed", "notation"],
)
def test_it_says_what_is_wrong_with_a_saved_state(saved: dict[str, Any], message: str) -> None:
    with pytest.raises(StateFormatError, match=message):
        engines.get("watch").state_from_json(saved)


def test_it_keeps_the_seed_of_a_saved_state() -> None:
    assert engines.get("watch").state_from_json({"history": [], "seed": 7}).to_json()["seed"] == 7
