"""The engine contract in the «Вызов» mode and with the die start, for 2, 3 and 4 players.

tests/engines/test_conformance.py checks every game with its default
configuration (the factory race's base mode); these games use the other
settings: events, posters, new technology and the start die.
"""

from __future__ import annotations

import random

import pytest

import engines
from tests.engines.test_conformance import CHECK_EVERY, EVERY_PLY_UNTIL, RESTORE_EVERY, check_position

CONFIGS = [
    {"mode": "challenge"},
    {"mode": "challenge", "stars": 3, "start": "die"},
    {"mode": "base", "start": "die", "max_rounds": 12},
]


@pytest.mark.parametrize("config", CONFIGS, ids=["challenge", "challenge-3-stars-die", "base-die"])
@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(3))
def test_it_keeps_the_engine_contract_in_every_mode(config: dict, num_players: int, seed: int) -> None:
    game = engines.get("factory_race")
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed, config=config, num_players=num_players)
    plies = 0
    while not state.is_terminal():
        if plies < EVERY_PLY_UNTIL or plies % CHECK_EVERY == 0:
            check_position(state, restore=plies < EVERY_PLY_UNTIL or plies % RESTORE_EVERY == 0)
        if state.is_chance_node():
            engines.resolve_chance(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        plies += 1
    check_position(state)
    assert state.config == {**game.config, **config}
    assert len(state.returns()) == num_players
