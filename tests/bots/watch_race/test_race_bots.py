"""The Watch race reference bots: legal, seeded, loadable by name, and packaged for the sandbox."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest

import engines
from bots.policy import load_policy
from bots.watch_race import POLICIES, HeuristicPolicy, RandomPolicy
from bots.watch_race.heuristic import CardBeliefs
from engines.watch_race import WatchRaceState
from engines.watch_race.game import KEEP, move_action, swap_action

PACKAGES = Path(__file__).resolve().parents[3] / "bots" / "watch_race" / "packages"


def play_game(names: list[str], seed: int) -> tuple[WatchRaceState, list[int]]:
    """Return the finished game and every action the bots chose."""
    policies = [load_policy("watch_race", name, seed=seed * 10 + seat) for seat, name in enumerate(names)]
    rng = random.Random(seed)
    state = engines.get("watch_race").new_initial_state(num_players=len(names))
    chosen = []
    while not state.is_terminal():
        if state.is_chance_node():
            engines.resolve_chance(state, rng)
            continue
        player = state.current_player()
        legal = state.legal_actions()
        action = policies[player].choose(state.observation(player), legal)
        assert action in legal
        state.apply_checked(action)
        chosen.append(action)
    return state, chosen


def set_up(num_players: int, deal: list[str], timer: int = 45) -> WatchRaceState:
    state = engines.get("watch_race").new_initial_state(num_players=num_players, config={"timer_turns": [1, 60]})
    for card in deal:
        state.apply_notation(f"deal {card}")
    state.apply_notation(f"timer {timer}")
    return state


def test_it_lists_random_and_heuristic() -> None:
    assert {"random": RandomPolicy, "heuristic": HeuristicPolicy} == POLICIES
    assert load_policy("watch_race", "heuristic", seed=1).name == "heuristic"


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_they_play_only_legal_actions_through_whole_games(num_players: int) -> None:
    for seed in range(4):
        state, _ = play_game([("heuristic", "random")[(seat + seed) % 2] for seat in range(num_players)], seed)
        assert state.is_terminal()


@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_it_repeats_itself_for_the_same_seed(name: str) -> None:
    assert play_game([name] * 3, 7)[1] == play_game([name] * 3, 7)[1]
    assert play_game([name] * 3, 7)[1] != play_game([name] * 3, 8)[1]


def test_the_heuristic_beats_random_head_to_head() -> None:
    wins = 0
    for seed in range(20):
        names = ["heuristic", "random"] if seed % 2 else ["random", "heuristic"]
        state, _ = play_game(names, seed)
        wins += [names[w] for w in state.outcome().winners] == ["heuristic"]  # type: ignore[union-attr]
    assert wins >= 16


def test_the_heuristic_makes_the_order_of_its_own_card() -> None:
    # P0 holds BGO (and GOB, OBG); blue one square ahead makes BGO at once.
    state = set_up(2, ["BGO", "GBO", "GOB", "BOG", "OBG", "OGB"])
    action = HeuristicPolicy(seed=1).choose(state.observation(0), state.legal_actions())
    assert state.action_to_string(action) in {"B+1", "B+2"}


def test_the_heuristic_spends_within_its_budget_early_on() -> None:
    state = set_up(6, ["GBO", "GOB", "BGO", "BOG", "OGB", "OBG"])
    action = HeuristicPolicy(seed=1).choose(state.observation(0), state.legal_actions())
    assert action % 45 + 1 <= 3  # 15 tokens for up to ~8 turns of its own


def test_the_heuristic_keeps_a_card_that_matches_the_order() -> None:
    state = set_up(4, ["GBO", "GOB", "BGO", "BOG", "OGB", "OBG"])
    state.apply_action(move_action(0, 20))  # G to the yellow square 20: order GBO, P0's card
    assert HeuristicPolicy(seed=1).choose(state.observation(0), state.legal_actions()) == KEEP


def test_the_heuristic_swaps_with_the_player_that_keeps_making_the_order() -> None:
    # P1 holds BGO and made that order with its move; P0 (OGB) lands on yellow and takes P1's card.
    state = set_up(4, ["OGB", "BGO", "GOB", "OBG", "GBO", "BOG"])
    for move in ("G+1", "B+3", "O+2", "G+3", "B+17"):
        state.apply_notation(move)
    assert state.observation(0)["order"] == "BGO"
    beliefs = CardBeliefs(state.observation(0))
    assert beliefs.chances(("player", 1, 0))[2] > beliefs.chances(("player", 2, 0))[2]
    assert HeuristicPolicy(seed=1).choose(state.observation(0), state.legal_actions()) == swap_action(0, 1, 0)


@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_it_is_packaged_for_the_sandbox(name: str) -> None:
    package = PACKAGES / name
    manifest = tomllib.loads((package / "bot.toml").read_text())
    assert manifest["games"] == ["watch_race"]
    assert manifest["entry"] == "main.py"
    main = (package / "main.py").read_text()
    assert "from bots.sdk import run" in main
    compile(main, str(package / "main.py"), "exec")
