"""``arena play watch_factory``: the reference bot packages through the sandbox, solo and against each other."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engines
from workers.cli import main

REPO = Path(__file__).resolve().parents[3]
PACKAGES = REPO / "bots" / "watch_factory" / "packages"
RANDOM, HEURISTIC, SEARCH = (str(PACKAGES / name) for name in ("random", "heuristic", "search"))
SLOW_OK = ["--decision-ms", "10000"]


def play(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    code = main(["play", "watch_factory", *args, *SLOW_OK, "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)


def replay(document: dict, index: int) -> engines.State:
    state = engines.get("watch_factory", document["config"]).new_initial_state(num_players=len(document["players"]))
    for action in document["games"][index]["actions"]:
        state.apply_checked(action["action"])
    return state


def test_the_heuristic_package_beats_the_random_package_each_starting_once(capsys) -> None:
    document = play(capsys, HEURISTIC, RANDOM, "--seed", "3")
    assert [g["seats"][0] for g in document["games"]] == [0, 1]
    for index, game in enumerate(document["games"]):
        state = replay(document, index)
        assert state.is_terminal()
        assert game["winners"] == [0], "the heuristic (bot 0) wins both games of this seed"
    assert document["score"]["points"][0] > document["score"]["points"][1]


@pytest.mark.parametrize("package", [HEURISTIC, SEARCH])
def test_a_solo_game_of_each_package_scores_against_the_benchmarks(capsys, package: str) -> None:
    document = play(capsys, package, "--seed", "4", "--games", "1")
    (game,) = document["games"]
    state = replay(document, 0)
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.returns[0] == outcome.stats[0]["score"] >= 75
    assert all(action["seat"] in (0, None) for action in game["actions"])
