"""The game registry: looking games up by name, what they declare, and configuration errors."""

from __future__ import annotations

import dataclasses
import re

import pytest

import engines
from engines import ConfigError, EngineError, Game, GameInfo, UnknownGameError
from engines.watch import WatchGame, WatchState


def test_it_returns_a_ready_watch_game_by_name() -> None:
    game = engines.get("watch")
    assert isinstance(game, WatchGame)
    assert isinstance(game.new_initial_state(), WatchState)


def test_it_returns_a_new_game_on_each_lookup() -> None:
    assert engines.get("watch") is not engines.get("watch")


def test_it_lists_watch_among_the_registered_games() -> None:
    assert "watch" in engines.names()
    assert engines.names() == sorted(engines.names())


@pytest.mark.parametrize("name", ["chess", "Watch", "", None, ["watch"]], ids=repr)
def test_it_names_the_registered_games_when_a_name_is_unknown(name: object) -> None:
    with pytest.raises(UnknownGameError, match=rf"no game named {re.escape(repr(name))}; registered games: .*watch"):
        engines.get(name)  # type: ignore[arg-type]


def test_it_raises_an_unknown_game_error_that_is_also_a_lookup_error() -> None:
    with pytest.raises(LookupError):
        engines.get("chess")
    assert issubclass(UnknownGameError, EngineError)


def test_it_refuses_to_register_a_name_twice() -> None:
    with pytest.raises(ValueError, match="a game named 'watch' is already registered"):
        engines.register(engines.declaration("watch"))
    assert engines.get("watch").info.name == "watch"


def test_it_makes_a_registered_game_available_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    # A private copy of the registry, so the extra name does not leak into other tests.
    monkeypatch.setattr(engines, "_REGISTRY", dict(engines._REGISTRY))
    info = dataclasses.replace(WatchGame.info, name="watch-again")
    again = type("WatchAgain", (WatchGame,), {"info": info})
    declared = dataclasses.replace(engines.declaration("watch"), game=again, flagship=False)
    engines.register(declared)
    assert "watch-again" in engines.names()
    assert isinstance(engines.get("watch-again"), WatchGame)
    assert engines.declaration("watch-again") is declared
    assert engines.flagship() == "watch"


def test_it_finds_every_game_packages_declaration_by_itself() -> None:
    # engines/__init__.py imports each engines/<name>/declaration.py: no list to edit for a new game.
    from pathlib import Path

    packages = {p.parent.name for p in (Path(engines.__file__).parent).glob("*/declaration.py")}
    assert packages == set(engines.names())
    assert engines.flagship() == "watch"


def test_only_one_game_is_the_flagship(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engines, "_REGISTRY", dict(engines._REGISTRY))
    info = dataclasses.replace(WatchGame.info, name="second-flagship")
    other = type("Second", (WatchGame,), {"info": info})
    with pytest.raises(ValueError, match="only one game is the flagship"):
        engines.register(dataclasses.replace(engines.declaration("watch"), game=other))


def test_it_declares_what_watch_is() -> None:
    assert "moving onto the other pawn" in WatchGame.info.summary  # the rules in brief, for the game's page
    assert dict(WatchGame.info.reasons)["capture"] == "moved onto the opponent's tile"
    assert dataclasses.replace(WatchGame.info, summary="", reasons=()) == GameInfo(
        name="watch",
        title="Watch (Derick Green)",
        rules_version="1",
        min_players=2,
        max_players=2,
        has_chance=False,
        has_hidden_information=False,
        # 25 tiles, 2 pawns, and at most 24 moves (each removes a tile)
        max_game_length=51,
        # 10 colours x 25 squares, 2 pawns x 25 squares, 25 move targets
        num_distinct_actions=325,
    )


def test_it_freezes_the_game_description() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        WatchGame.info.name = "other"  # type: ignore[misc]


def test_it_describes_a_game_in_its_repr() -> None:
    assert repr(engines.get("watch")) == "<WatchGame watch rules 1>"


# -- configuration: Watch takes none


def test_it_accepts_an_empty_configuration() -> None:
    assert engines.get("watch", {}).config == {}
    assert engines.get("watch", None).config == {}


def test_it_names_an_unknown_configuration_key() -> None:
    with pytest.raises(ConfigError, match=r"unknown config key\(s\) board_size; known: none"):
        engines.get("watch", {"board_size": 6})


def test_it_refuses_a_configuration_that_is_not_a_mapping() -> None:
    with pytest.raises(ConfigError, match="config must be a mapping, not list"):
        engines.get("watch", [("board_size", 6)])  # type: ignore[arg-type]


def test_it_checks_the_configuration_given_for_one_game() -> None:
    with pytest.raises(ConfigError, match="unknown config key"):
        engines.get("watch").new_initial_state(config={"tiles": 30})


# -- number of players


@pytest.mark.parametrize("num_players", [None, 2])
def test_it_plays_watch_with_two_players(num_players: int | None) -> None:
    state = engines.get("watch").new_initial_state(num_players=num_players)
    assert state.current_player() == 0


@pytest.mark.parametrize("num_players", [1, 3, 0, -2])
def test_it_refuses_a_player_count_other_than_two(num_players: int) -> None:
    with pytest.raises(ConfigError, match=f"watch is for 2 to 2 players, not {num_players}"):
        engines.get("watch").new_initial_state(num_players=num_players)


@pytest.mark.parametrize("num_players", [True, "2", 2.0])
def test_it_refuses_a_player_count_that_is_not_an_integer(num_players: object) -> None:
    with pytest.raises(ConfigError, match=f"num_players must be an integer, not {re.escape(repr(num_players))}"):
        engines.get("watch").new_initial_state(num_players=num_players)  # type: ignore[arg-type]


def test_it_makes_every_registered_game_a_game() -> None:
    for name in engines.names():
        game = engines.get(name)
        assert isinstance(game, Game)
        assert game.info.name == name
