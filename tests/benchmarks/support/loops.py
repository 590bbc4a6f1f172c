"""The timed loops the game benchmarks share: random play through the engine API, and a bare loop beside it.

Both return ``(games a second, decisions a second, decisions a game)`` after
playing whole games for about ``seconds``, chance and choices drawn from one
generator seeded 1. :func:`random_play` plays through the public API
(``legal_actions`` and the fast ``apply_action`` at every decision,
``resolve_chance`` for chance); :func:`bare_play` runs a benchmark's own
``bare_game(rng, num_players) -> decisions``, the same rules in plain lists
and functions, as the yardstick the API's cost is read against.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import engines
from engines.base import Game

#: (games a second, decisions a second, decisions a game).
Speed = tuple[float, float, float]


def random_play(game: Game, num_players: int, seconds: float, seed_each_game: bool = False) -> Speed:
    """Return the speed of random play of ``game`` at ``num_players`` seats; ``seed_each_game``: game n plays seed n."""
    rng = random.Random(1)
    games = decisions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        seed = games if seed_each_game else None
        state = game.new_initial_state(seed=seed, num_players=num_players)
        while not state.is_terminal():
            if state.is_chance_node():
                engines.resolve_chance(state, rng)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        games += 1
    elapsed = time.perf_counter() - started
    return games / elapsed, decisions / elapsed, decisions / games


def bare_play(bare_game: Callable[[random.Random, int], int], num_players: int, seconds: float) -> Speed:
    """Return the speed of ``bare_game`` (one whole game, returning its decisions) played over and over."""
    rng = random.Random(1)
    games = decisions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        decisions += bare_game(rng, num_players)
        games += 1
    elapsed = time.perf_counter() - started
    return games / elapsed, decisions / elapsed, decisions / games
