"""Helpers shared by the Watching Us tests."""

from __future__ import annotations

import random

import pytest

import engines
from engines.watching_us.game import WatchingUsState

GAME = engines.get("watching_us")


def play(state: WatchingUsState, *moves: str) -> WatchingUsState:
    """Apply moves in notation, checked (chance outcomes too: 'card 3 Arsonist', 'die 5', 'success')."""
    for move in moves:
        state.apply_notation(move)
    return state


def random_game(seed: int, num_players: int = 3, config: dict | None = None, until=None) -> WatchingUsState:
    """Play random legal actions (chance from the same generator) until the end or ``until(state)``."""
    rng = random.Random(seed)
    state = GAME.new_initial_state(seed=seed, num_players=num_players, config=config)
    while not state.is_terminal() and not (until and until(state)):
        if state.is_chance_node():
            engines.resolve_chance(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


class Helpers:
    game = GAME
    play = staticmethod(play)
    random_game = staticmethod(random_game)


@pytest.fixture
def wu() -> type[Helpers]:
    return Helpers
