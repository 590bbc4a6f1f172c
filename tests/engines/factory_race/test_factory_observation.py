"""A seat's observation holds the whole public position: bots rebuild the state from it to look ahead."""

from __future__ import annotations

import random

import pytest

import engines
from engines.factory_race.game import PLACE, FactoryRaceState


@pytest.mark.parametrize("mode", ["base", "challenge"])
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_the_state_rebuilt_from_an_observation_agrees_with_it_and_offers_the_same_actions(
    num_players: int, mode: str
) -> None:
    game = engines.get("factory_race")
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed, num_players=num_players, config={"mode": mode})
        while not state.is_terminal() and state.round <= 8:
            if state.is_chance_node():
                engines.resolve_chance(state, rng)
                continue
            player = state.current_player()
            seen = state.observation(player)
            rebuilt = FactoryRaceState.from_observation(game, seen)
            if state.phase != PLACE or state.order_index == 0:  # later placers cannot know the earlier ones'
                assert rebuilt.legal_actions() == state.legal_actions()
                assert rebuilt.observation(player) == seen
                checked += 1
            else:
                assert rebuilt.observation(player)["factories"][player] == seen["factories"][player]
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 100


def test_the_rebuilt_stacks_hold_exactly_what_nobody_has_seen() -> None:
    game = engines.get("factory_race")
    rng = random.Random(4)
    state = game.new_initial_state(seed=4, num_players=3, config={"mode": "challenge"})
    while state.round < 4 or state.is_chance_node():
        if state.is_chance_node():
            engines.resolve_chance(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    rebuilt = FactoryRaceState.from_observation(game, state.observation(state.current_player()))
    assert sorted(rebuilt.tile_stack) == sorted(state.tile_stack)
    assert sorted(rebuilt.poster_stack) == sorted(state.poster_stack)
    assert sorted(rebuilt.event_deck) == sorted(state.event_deck)
