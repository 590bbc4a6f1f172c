"""Each game's reference bots are declared on the bots side (bots/<game>/provides.py) and read through one function."""

from __future__ import annotations

import dataclasses
import threading
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import engines
from bots import provided
from bots.policy import UnknownPolicyError, reference_policies
from bots.provided import NoReferenceBotsError, ReferenceBots, packages_in, reference
from tests.toygame.coop import DECLARATION as TEAM_DECLARATION
from tests.toygame.coop import REFERENCE_BOTS as TEAM_BOTS
from tests.toygame.tictactoe import DECLARATION as TOY_DECLARATION
from tests.toygame.tictactoe import REFERENCE_BOTS as TOY_BOTS

BOTS = Path(__file__).resolve().parents[2] / "bots"


def test_every_registered_game_has_reference_bots_that_are_packages_for_it() -> None:
    for name in engines.names():
        bots = reference(name)
        assert bots.game == name
        assert bots.validation_bot in bots.packages
        for package in bots.packages.values():
            manifest = tomllib.loads((package / "bot.toml").read_text())
            assert name in manifest["games"], package


def test_every_folder_that_provides_bots_is_a_registered_game() -> None:
    folders = {path.parent.name for path in BOTS.glob("*/provides.py")}
    assert folders == set(engines.names())


def test_the_policies_are_the_reference_bots_in_process() -> None:
    for name in engines.names():
        assert set(reference_policies(name)) == set(reference(name).packages)


def test_a_demo_enters_its_chosen_bots_and_its_gm_bots() -> None:
    # The slow search bot stays out of the factory race's demo; Watching Us enters its GM bot beside the players.
    assert [path.name for path in reference("factory_race").demo_packages()] == ["heuristic", "random"]
    assert [path.name for path in reference("watching_us").demo_packages()] == ["heuristic", "heuristic_gm", "random"]
    assert [path.name for path in reference("watch").demo_packages()] == ["greedy", "random", "solver"]


def test_it_names_the_games_with_bots_when_a_game_has_none() -> None:
    with pytest.raises(NoReferenceBotsError, match="no reference bots for game 'chess'; games with some: "):
        reference("chess")
    with pytest.raises(UnknownPolicyError, match="no reference bots for game 'chess'"):
        reference_policies("chess")


def test_it_refuses_bots_it_does_not_have() -> None:
    with pytest.raises(ValueError, match=r"tictactoe: the validation bot 'middle' is not a reference bot"):
        dataclasses.replace(TOY_BOTS, validation_bot="middle")
    with pytest.raises(ValueError, match=r"tictactoe: the demo's bots \['alphazero'\] are not reference bots"):
        dataclasses.replace(TOY_BOTS, demo_bots=("first", "alphazero"))
    with pytest.raises(ValueError, match=r"breakin: the demo's gm_bots \['nobody'\] are not reference bots"):
        dataclasses.replace(TEAM_BOTS, gm_bots=("nobody",))
    with pytest.raises(ValueError, match=r"tictactoe: the policies \['middle'\] are not reference bots"):
        dataclasses.replace(TOY_BOTS, policies={"middle": object})  # type: ignore[dict-item]


def test_only_a_team_games_bots_name_gm_bots() -> None:
    gm_bots = ReferenceBots(
        game=TOY_DECLARATION.name,
        packages=packages_in(Path("packages"), ("first", "last")),
        validation_bot="first",
        gm_bots=("last",),
    )
    engines.register(TOY_DECLARATION)
    try:
        with pytest.raises(ValueError, match="tictactoe: only a team game's demo names gm_bots"):
            provided.register(gm_bots)
    finally:
        engines.unregister(TOY_DECLARATION.name)
    engines.register(TEAM_DECLARATION)
    try:
        provided.register(TEAM_BOTS)
        assert reference(TEAM_DECLARATION.name) is TEAM_BOTS
        with pytest.raises(ValueError, match="the reference bots of 'breakin' are already registered"):
            provided.register(TEAM_BOTS)
    finally:
        provided.unregister(TEAM_DECLARATION.name)
        engines.unregister(TEAM_DECLARATION.name)
    with pytest.raises(NoReferenceBotsError):
        reference(TEAM_DECLARATION.name)


def test_it_registers_only_the_bots_of_a_registered_game() -> None:
    with pytest.raises(engines.UnknownGameError, match="no game named 'tictactoe'"):
        provided.register(TOY_BOTS)


def test_threads_asking_at_once_on_a_fresh_registry_all_find_every_games_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    # The served site validates uploads on several threads at once; the first question fills the
    # registry. A thread asking meanwhile must wait for it, not find it half filled.
    monkeypatch.setattr(provided, "_REGISTRY", {})
    monkeypatch.setattr(provided, "_DISCOVERED", False)
    slow_import = provided.importlib.import_module

    def import_module(name: str) -> object:
        time.sleep(0.02)  # importing a game's bots takes a while; the others ask meanwhile
        return slow_import(name)

    monkeypatch.setattr(provided.importlib, "import_module", import_module)
    start = threading.Barrier(8)

    def ask(_: int) -> str:
        start.wait()
        return reference("watch").validation_bot

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(ask, range(8)))
    assert answers == [reference("watch").validation_bot] * 8
    assert sorted(provided._REGISTRY) == sorted(engines.names())
