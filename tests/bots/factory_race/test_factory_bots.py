"""The factory race reference bots: legal, seeded, loadable by name, packaged, and in their order of strength."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest

import engines
from bots.factory_race import POLICIES, HeuristicPolicy, RandomPolicy, SearchPolicy
from bots.factory_race.heuristic import distances, plan, route_cost
from bots.factory_race.search import BUDGET_S, ROLLOUTS, variants
from bots.policy import load_policy
from engines.factory_race.game import CELLS, PLACE, FactoryRaceState

PACKAGES = Path(__file__).resolve().parents[3] / "bots" / "factory_race" / "packages"


def play_game(names: list[str], seed: int, mode: str = "base") -> FactoryRaceState:
    """Return the finished game of ``names`` (seat order), every action checked.

    The search bot plays with its clock off and two rollouts of each finalist: a fixed amount of
    work, so the game is the same on a loaded machine and takes a few seconds.
    """
    policies = [
        SearchPolicy(seed=seed * 10 + seat, budget_s=None, rollouts=2)
        if name == "search"
        else load_policy("factory_race", name, seed=seed * 10 + seat)
        for seat, name in enumerate(names)
    ]
    rng = random.Random(seed)
    state = engines.get("factory_race").new_initial_state(seed=seed, num_players=len(names), config={"mode": mode})
    while not state.is_terminal():
        if state.is_chance_node():
            engines.resolve_chance(state, rng)
            continue
        player = state.current_player()
        legal = state.legal_actions()
        action = policies[player].choose(state.observation(player), legal)
        assert action in legal
        state.apply_checked(action)
    return state


def test_it_lists_random_heuristic_and_search() -> None:
    assert {"random": RandomPolicy, "heuristic": HeuristicPolicy, "search": SearchPolicy} == POLICIES
    assert load_policy("factory_race", "search", seed=1).name == "search"


@pytest.mark.parametrize("mode", ["base", "challenge"])
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_the_heuristic_finishes_its_batch_and_beats_random_play(num_players: int, mode: str) -> None:
    for seed in range(2):
        names = ["heuristic"] + ["random"] * (num_players - 1)
        names = names[seed % num_players :] + names[: seed % num_players]
        state = play_game(names, seed, mode)
        heuristic = names.index("heuristic")
        assert state.winners == (heuristic,), state.render()
        assert state.reason == "assembled"
        assert state.round <= 10


def test_the_search_bot_plays_whole_games_in_both_modes() -> None:
    for mode in ("base", "challenge"):
        state = play_game(["search", "heuristic"], 3, mode)
        assert state.is_terminal()
        assert state.reason in ("assembled", "tie_break", "shared")


def test_the_search_bot_keeps_the_ladders_clock_by_default() -> None:
    search = load_policy("factory_race", "search", seed=1)
    assert (search.budget_s, search.rollouts) == (BUDGET_S, ROLLOUTS) == (1.0, 4)


def test_the_search_bot_without_a_clock_chooses_the_same_plan_for_the_same_seed() -> None:
    state = engines.get("factory_race").new_initial_state(seed=2, num_players=2)
    while state.is_chance_node():
        engines.resolve_chance(state, random.Random(2))
    player = state.current_player()
    plans = []
    for _ in range(2):
        search = SearchPolicy(seed=7, budget_s=None, rollouts=2)
        first = search.choose(state.observation(player), state.legal_actions())
        plans.append([first, *search._plan])
    assert plans[0] == plans[1]


def test_the_heuristic_measures_routes_in_machine_moves() -> None:
    state = engines.get("factory_race").new_initial_state(num_players=2)
    tanks = state.factories[0]
    dist = distances(tanks.grid)
    # Tanks: the top row runs warehouse -> a1 -> (line b1) -> c1 -> assembly.
    assert dist[2] == 1  # c1 reaches the assembly shop
    assert dist[0] == 2  # a1 -> c1 -> assembly
    assert dist[CELLS + 0] == 3  # the red warehouse -> a1 -> c1 -> assembly
    assert dist[CELLS + 2] == 12  # the blue row is cut at a3: no route
    # Three red cubes at 3, two yellow cut (12) and two blue cut.
    assert route_cost(tanks) == 3 * 3 + 4 * 12


def test_the_heuristics_first_plan_staffs_the_route_and_saves_for_a_tile() -> None:
    state = engines.get("factory_race").new_initial_state(num_players=2)
    actions = [state.action_to_string(action) for action in plan(state, 0)]
    assert actions[0] == "staff a1"  # the first red cube leaves its warehouse for a1
    assert "request" in actions  # a tile to mend the cut rows...
    assert "bureau" in actions  # ...paid for with the bureau's blueprints
    assert len(variants(state, 0)) >= 3


@pytest.mark.parametrize("name", ["random", "heuristic", "search"])
def test_each_is_a_bot_package_for_the_factory_race(name: str) -> None:
    manifest = tomllib.loads((PACKAGES / name / "bot.toml").read_text())
    assert manifest == {"name": f"factory-{name}", "entry": "main.py", "games": ["factory_race"]}
    assert "bots.factory_race" in (PACKAGES / name / "main.py").read_text()


def test_the_same_seed_plays_the_same_game() -> None:
    first = play_game(["heuristic", "random", "random"], 5)
    again = play_game(["heuristic", "random", "random"], 5)
    assert first.history == again.history
    assert first.phase == again.phase != PLACE
