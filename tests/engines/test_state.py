"""engines/base.py's State and Game: the plumbing every engine shares.

History, equality, whose turn, checked actions and notation, returns, saved states.
"""

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


def test_a_state_must_say_what_is_legal() -> None:
    with pytest.raises(TypeError, match=r"must define legal_actions\(\) or _decisions\(\)"):

        class Mute(State):  # says whose turn it is, but neither legal_actions() nor _decisions()
            def current_player(self) -> int:
                return 0


def test_a_game_must_say_how_to_build_and_name_its_states() -> None:
    with pytest.raises(TypeError, match="must define new_initial_state"):

        class Stateless(engines.Game):
            pass

    with pytest.raises(TypeError, match="must define state_from_json"):

        class Unnamed(engines.Game):
            state_class = State


@pytest.mark.parametrize(
    ("name", "what"),
    [
        ("watch", "a Watch state"),
        ("watch_race", "a Watch race state"),
        ("watch_factory", "a Watch factory state"),
        ("factory_race", "a factory race state"),
        ("watching_us", "a Watching Us state"),
    ],
)
def test_a_saved_state_that_is_no_object_is_refused_in_the_games_words(name: str, what: str) -> None:
    with pytest.raises(engines.StateFormatError, match=f"^{what} is a JSON object, not list$"):
        engines.get(name).state_from_json(["history"])  # type: ignore[arg-type]


@pytest.mark.parametrize("name", GAMES)
def test_notation_is_a_string_and_none_is_legal_once_the_game_is_over(name: str) -> None:
    state = played(name, 3)
    with pytest.raises(engines.MalformedActionError, match=r"^notation must be a string, not int 3$"):
        state.parse_action(3)
    finished = played(name, 100_000)
    assert finished.is_terminal()
    with pytest.raises(engines.IllegalActionError, match=r"^'done': the game is over: no action is legal$"):
        finished.parse_action("  done ")


@pytest.mark.parametrize("name", GAMES)
def test_a_finished_game_returns_what_its_outcome_says_and_zeros_before(name: str) -> None:
    state = played(name, 3)
    assert set(state.returns()) == {0.0}
    finished = played(name, 100_000)
    outcome = finished.outcome()
    assert outcome is not None
    assert finished.returns() == list(outcome.returns)


def first_illegal_with_a_reason(state: State) -> tuple[int, str]:
    """Return an in-range action that is not legal in ``state`` and the rule the game gives for it."""
    legal = set(state.legal_actions())
    for action in range(state.game.info.num_distinct_actions):
        if action not in legal and state.why_illegal(action):
            return action, state.why_illegal(action)
    raise AssertionError("no illegal action with a reason")


@pytest.mark.parametrize("name", ["watch_race", "watch_factory", "factory_race"])
def test_an_illegal_action_says_the_rule_that_forbids_it_by_id_and_by_notation(name: str) -> None:
    state = played(name, 20)
    action, why = first_illegal_with_a_reason(state)
    assert why.startswith(": ")
    notation = state.action_to_string(action)
    with pytest.raises(engines.IllegalActionError) as by_id:
        state.apply_checked(action)
    assert str(by_id.value).startswith(f"{notation} (action {action}) is not legal now{why}; legal now: ")
    before = state.history
    with pytest.raises(engines.IllegalActionError) as by_notation:
        state.apply_notation(notation)
    assert str(by_notation.value).startswith(f"{notation!r} is not legal now{why}; legal now: ")
    assert state.history == before


def test_a_game_that_gives_no_rule_says_only_what_is_legal() -> None:
    state = played("watch", 30)
    illegal = next(a for a in range(state.game.info.num_distinct_actions) if a not in state.legal_actions())
    with pytest.raises(engines.IllegalActionError, match=r"\) is not legal now; legal now: "):
        state.apply_checked(illegal)


@pytest.mark.parametrize("name", ["watch_race", "watch_factory", "factory_race", "watching_us"])
def test_every_view_starts_with_the_game_the_viewer_the_seats_the_configuration_and_who_acts(name: str) -> None:
    state = played(name, 10)
    current = state.current_player()
    view = state.observation(1)
    assert {key: view[key] for key in ("game", "rules_version", "player", "num_players", "config", "to_move")} == {
        "game": name,
        "rules_version": state.game.info.rules_version,
        "player": 1,
        "num_players": state.num_players,
        "config": dict(state.config),
        "to_move": current if current >= 0 else None,
    }
    saved = state.to_json()
    assert "player" not in saved
    assert (saved["game"], saved["num_players"], saved["seed"], saved["history"]) == (
        name,
        state.num_players,
        7,
        state.history,
    )
    with pytest.raises(ValueError, match=f"^this game has players 0 to {state.num_players - 1}, not 9$"):
        state.observation(9)


@pytest.mark.parametrize(
    ("name", "key", "value", "low", "high"),
    [
        ("factory_race", "max_rounds", 0, 1, 100),
        ("watch_race", "ring_length", 3, 4, 1000),
        ("watch_race", "max_replays", True, 0, 20),
        ("watching_us", "opening_cards", 4, 2, 3),
        ("watching_us", "max_turns", "9", 1, 200),
    ],
)
def test_an_integer_setting_out_of_its_range_is_refused_naming_the_key_and_the_range(
    name: str, key: str, value: object, low: int, high: int
) -> None:
    with pytest.raises(engines.ConfigError, match=f"^{key} must be an integer from {low} to {high}, not {value!r}$"):
        engines.get(name, {key: value})
