"""The engine contract with the built-in GM at 2-5 players, and with the "raise difficulty" settings.

tests/engines/test_conformance.py checks the default config (a GM seat, 3-6 seats).
"""

from __future__ import annotations

import dataclasses
import random

import pytest

import engines
from engines.watching_us.game import WatchingUsGame
from tests.engines.test_conformance import CHECK_EVERY, EVERY_PLY_UNTIL, RESTORE_EVERY, check_position

CONFIGS = [
    ({"gm": "builtin"}, [2, 3, 4, 5]),
    ({"gm": "builtin", "adversaries": 2, "adversary_hp_bonus": 1, "double_or_nothing": True}, [2, 5]),
    ({"extra_adversaries": 2, "opening_cards": 2, "discard_unused": True}, [3, 6]),
]
CASES = [(config, n) for config, counts in CONFIGS for n in counts]


@pytest.mark.parametrize(("config", "num_players"), CASES, ids=[f"{i}-{n}p" for i, (_, n) in enumerate(CASES)])
@pytest.mark.parametrize("seed", range(4))
def test_it_keeps_the_engine_contract_in_other_configs(
    config: dict, num_players: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GameInfo states the default config's range (3..6 seats); the built-in GM's is 2..5, which the
    # generic check_position reads from the info: widen it for these games only.
    monkeypatch.setattr(WatchingUsGame, "info", dataclasses.replace(WatchingUsGame.info, min_players=2))
    game = engines.get("watching_us")
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
        assert plies <= game.info.max_game_length
    check_position(state)
    assert len(state.returns()) == num_players
    roles = [s["role"] for s in state.outcome().stats]
    assert ("gm" in roles) == (config.get("gm", "seat") == "seat")
    assert all(set(s) >= {"role", "turns", "won", "moves"} for s in state.outcome().stats)
