"""Bad input never gets past the Watch factory engine: saved states, actions and notation.

A wrong saved state raises StateFormatError (or ConfigError for a new game) naming what is wrong,
never TypeError; an illegal action raises IllegalActionError naming why and what is legal; every
legal action's notation reads back as the same action.
"""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest

import engines
from engines import ConfigError, IllegalActionError, MalformedActionError, StateFormatError
from engines.watch_factory.game import NUM_ACTIONS, PLACE, REPAY, SELL, WatchFactoryState

GAME = engines.get("watch_factory")


def saved(num_players: int = 3, plies: int = 40, seed: int = 5) -> dict[str, Any]:
    rng = random.Random(seed)
    state = GAME.new_initial_state(seed=seed, num_players=num_players)
    for _ in range(plies):
        if state.is_chance_node():
            engines.resolve_chance(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return json.loads(json.dumps(state.to_json()))


def test_a_saved_state_comes_back_exactly() -> None:
    for players in (1, 2, 3, 4):
        data = saved(players)
        state = GAME.state_from_json(data)
        assert state.to_json() == data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: [d], "JSON object, not list"),
        (lambda d: "state", "JSON object, not str"),
        (lambda d: None, "JSON object, not NoneType"),
        (lambda d: {**d, "game": "watch"}, "state of 'watch', not of watch_factory"),
        (lambda d: {**d, "rules_version": "0"}, "rules version '0'"),
        (lambda d: {**d, "history": "1 2 3"}, "needs 'history'"),
        (lambda d: {k: v for k, v in d.items() if k != "history"}, "needs 'history'"),
        (lambda d: {**d, "history": [*d["history"][:10], 10_000]}, r"history\[10\]: .*out of range"),
        (lambda d: {**d, "history": [*d["history"][:3], 0]}, r"history\[3\]: .*not legal now"),
        (lambda d: {**d, "history": ["market 1"]}, r"history\[0\]: an action must be an integer"),
        (lambda d: {**d, "history": [True]}, r"history\[0\]: an action must be an integer"),
        (lambda d: {**d, "history": [None]}, r"history\[0\]"),
        (lambda d: {**d, "seed": "7"}, "seed must be an integer"),
        (lambda d: {**d, "seed": 1.5}, "seed must be an integer"),
        (lambda d: {**d, "num_players": 5}, "1 to 4 players, not 5"),
        (lambda d: {**d, "num_players": 0}, "1 to 4 players, not 0"),
        (lambda d: {**d, "num_players": "3"}, "num_players must be an integer"),
        (lambda d: {**d, "config": {"variant": 1}}, "unknown config key"),
        (lambda d: {**d, "config": [1]}, "config must be a mapping"),
    ],
)
def test_a_wrong_saved_state_is_refused_naming_what_is_wrong(change, message: str) -> None:
    with pytest.raises(StateFormatError, match=message):
        GAME.state_from_json(change(saved()))


def test_no_tampering_gives_a_type_error() -> None:
    data = saved()
    junk: list[Any] = [None, True, -1, 1.5, "x", [], {}, [1], {"a": 1}, 10**30]
    for key in ("game", "rules_version", "history", "seed", "num_players", "config"):
        for value in junk:
            with contextlib.suppress(StateFormatError):
                GAME.state_from_json({**data, key: value})
    for index in range(0, len(data["history"]), 7):
        for value in junk:
            history = list(data["history"])
            history[index] = value
            with contextlib.suppress(StateFormatError):
                GAME.state_from_json({**data, "history": history})


def test_a_new_game_refuses_an_unknown_config_key_or_player_count() -> None:
    with pytest.raises(ConfigError, match="unknown config key"):
        GAME.new_initial_state(config={"rounds": 10})
    with pytest.raises(ConfigError, match="1 to 4 players, not 5"):
        GAME.new_initial_state(num_players=5)
    assert GAME.new_initial_state().num_players == 2


def test_an_illegal_action_names_why_and_what_is_legal() -> None:
    state = GAME.new_initial_state(seed=0, num_players=3)
    for move in ("market 0", "market 1", "draw doc 3", "draw doc 10", "draw doc 17", "place smuggle"):
        state.apply_notation(move)
    before = state.to_json()
    with pytest.raises(IllegalActionError, match=r"already stands on smuggle .*legal now: place sell gears"):
        state.apply_checked(PLACE + 0)
    with pytest.raises(IllegalActionError, match=r"workers are placed|the decision now is 'place worker'"):
        state.apply_checked(SELL + 1)
    with pytest.raises(IllegalActionError, match="debts are repaid"):
        state.apply_checked(REPAY)
    with pytest.raises(IllegalActionError, match="out of range"):
        state.apply_checked(NUM_ACTIONS)
    with pytest.raises(IllegalActionError, match="chance is being drawn"):
        GAME.new_initial_state(seed=0).apply_checked(PLACE + 1)
    with pytest.raises(MalformedActionError, match="must be an integer"):
        state.apply_checked("place watch")
    with pytest.raises(MalformedActionError):
        state.apply_checked(1.0)
    assert state.to_json() == before  # the state is unchanged


def test_why_illegal_explains_the_rule() -> None:
    state = GAME.new_initial_state(seed=0, num_players=1)
    for move in ("market 0", "market 1", "solo card 0"):
        state.apply_notation(move)
    assert "closed in the solo game" in state.why_illegal(PLACE + 7)
    assert "already stands on smuggle" in state.why_illegal(PLACE + 0)
    assert state.why_illegal(PLACE + 0).startswith(": ")


@pytest.mark.parametrize("num_players", [1, 2, 3, 4])
def test_notation_round_trips_for_every_legal_action(num_players: int) -> None:
    for seed in range(6):
        rng = random.Random(seed)
        state = GAME.new_initial_state(seed=seed, num_players=num_players)
        while not state.is_terminal():
            for action in state.legal_actions():
                text = state.action_to_string(action)
                assert state.parse_action(text) == action, text
                assert state.parse_action(f"  {text.upper()} ") == action
            if state.is_chance_node():
                engines.resolve_chance(state, rng)
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def test_every_action_id_has_one_name() -> None:
    state: WatchFactoryState = GAME.new_initial_state(seed=0)
    names = [state.action_to_string(a) for a in range(NUM_ACTIONS)]
    assert len(set(names)) == NUM_ACTIONS
    assert all(names)


@pytest.mark.parametrize("text", ["", "fly", "place nowhere", "sell many", "sell 100", "keep doc 28", "die 7"])
def test_bad_notation_is_malformed(text: str) -> None:
    state = GAME.new_initial_state(seed=0)
    with pytest.raises(MalformedActionError, match="not Watch factory notation"):
        state.parse_action(text)


@pytest.mark.parametrize("value", [None, 3, 1.5, b"done", ["done"]])
def test_notation_must_be_a_string(value: object) -> None:
    with pytest.raises(MalformedActionError, match="must be a string"):
        GAME.new_initial_state(seed=0).parse_action(value)


@pytest.mark.parametrize("value", [None, True, -1, 1.5, "done", NUM_ACTIONS])
def test_only_action_ids_have_notation(value: object) -> None:
    with pytest.raises(MalformedActionError, match="not a Watch factory action id"):
        GAME.new_initial_state(seed=0).action_to_string(value)  # type: ignore[arg-type]


def test_known_notation_that_is_not_legal_now_is_illegal() -> None:
    with pytest.raises(IllegalActionError, match="legal now: market 0"):
        GAME.new_initial_state(seed=0).parse_action("place watch")
