"""engines/base.py's State: the plumbing every engine shares (history, equality, whose turn)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engines
from engines import CHANCE, TERMINAL, State

GAMES = ("watch", "watch_race", "watch_factory", "factory_race", "watching_us")


def played(name: str, actions: int, config: dict[str, Any] | None = None) -> State:
    """Return a game of ``name`` after ``actions`` random actions (chance included), seeded."""
    rng = random.Random(7)
    state = engines.get(name).new_initial_state(seed=7, config=config)
    for _ in range(actions):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", GAMES)
def test_a_clone_equals_its_state_and_one_action_more_does_not(name: str) -> None:
    state = played(name, 12)
    copy = state.clone()
    assert copy == state
    assert copy.history == state.history
    copy.apply_action(copy.legal_actions()[0])
    assert copy != state
    assert len(copy.history) == len(state.history) + 1


@pytest.mark.parametrize("name", GAMES)
def test_a_state_has_no_hash_and_equals_no_other_kind_of_thing(name: str) -> None:
    state = played(name, 3)
    with pytest.raises(TypeError):
        hash(state)
    assert state != state.history
    assert state != played("watch" if name != "watch" else "watch_race", 3)


def test_two_configurations_with_one_history_are_two_positions() -> None:
    assert played("factory_race", 0) != played("factory_race", 0, {"max_rounds": 5})


def test_the_history_is_a_copy() -> None:
    state = played("watch_race", 5)
    state.history.append(0)
    assert len(state.history) == 5


@pytest.mark.parametrize("name", ["watch_race", "watch_factory", "factory_race"])
def test_whose_turn_comes_from_is_terminal_is_chance_node_and_to_move(name: str) -> None:
    rng = random.Random(3)
    state = engines.get(name).new_initial_state(seed=3)
    seen = set()
    while not state.is_terminal() and len(state.history) < 400:
        expected = CHANCE if state.is_chance_node() else state.to_move
        assert state.current_player() == expected
        seen.add(expected == CHANCE)
        state.apply_action(rng.choice(state.legal_actions()))
    assert seen == {True, False}
    if state.is_terminal():
        assert state.current_player() == TERMINAL
        assert not state.is_chance_node()


def test_a_state_must_say_whose_turn_it_is() -> None:
    with pytest.raises(TypeError, match="must define current_player"):

        class Silent(State):  # neither current_player() nor is_terminal() and is_chance_node()
            def is_terminal(self) -> bool:
                return False
