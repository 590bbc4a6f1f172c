"""Bad configs, player counts and saved states give ConfigError / StateFormatError naming the problem."""

from __future__ import annotations

import pytest

import engines
from engines.base import ConfigError, StateFormatError

GAME = engines.get("watching_us")


@pytest.mark.parametrize(
    ("config", "words"),
    [
        ({"gm": "human"}, "gm must be 'seat'"),
        ({"max_turns": 0}, "max_turns must be an integer from 1"),
        ({"max_turns": "60"}, "max_turns"),
        ({"max_turns": True}, "max_turns"),
        ({"adversaries": 3}, "adversaries"),
        ({"adversary_hp_bonus": 5}, "adversary_hp_bonus"),
        ({"double_or_nothing": "yes"}, "double_or_nothing must be true or false"),
        ({"opening_cards": 4}, "opening_cards"),
        ({"colour": 1}, "unknown config key"),
    ],
)
def test_a_bad_config_is_refused(config: dict, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        GAME.new_initial_state(config=config)
    with pytest.raises(ConfigError, match=words):
        engines.get("watching_us", config)


@pytest.mark.parametrize(
    ("num_players", "config", "words"),
    [
        (2, {}, "3 to 6 seats"),
        (7, {}, "3 to 6 seats"),
        (6, {"gm": "builtin"}, "2 to 5 seats"),
        (1, {"gm": "builtin"}, "2 to 5 seats"),
        ("3", {}, "num_players must be an integer"),
    ],
)
def test_a_bad_player_count_names_the_range(num_players, config: dict, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        GAME.new_initial_state(num_players=num_players, config=config)


def test_the_default_is_two_players_and_the_gm_seat() -> None:
    state = GAME.new_initial_state()
    assert state.num_players == 3
    assert state.gm_seat == 2


@pytest.mark.parametrize(
    ("document", "words"),
    [
        ([], "JSON object"),
        ({"game": "watch", "history": []}, "not of watching_us"),
        ({"history": "0 1 2"}, "needs 'history'"),
        ({"history": [], "seed": "x"}, "seed must be an integer"),
        ({"history": [], "config": {"gm": "nobody"}}, "gm must be"),
        ({"history": [], "num_players": 9}, "3 to 6 seats"),
        ({"history": [10_000]}, r"history\[0\]"),
        ({"history": ["card"]}, r"history\[0\]"),
    ],
)
def test_a_bad_saved_state_is_refused(document, words: str) -> None:
    with pytest.raises(StateFormatError, match=words):
        GAME.state_from_json(document)


def test_a_saved_state_round_trips(wu) -> None:
    state = wu.random_game(4, num_players=4, config={"gm": "seat", "max_turns": 10})
    again = GAME.state_from_json(state.to_json())
    assert again.to_json() == state.to_json()
    assert again.outcome() == state.outcome()


def test_bad_notation_is_refused(wu) -> None:
    state = GAME.new_initial_state(seed=0)
    with pytest.raises(engines.MalformedActionError, match="not Watching Us notation"):
        state.apply_notation("dance")
    with pytest.raises(engines.IllegalActionError, match="not legal now"):
        state.apply_notation("ritual")
