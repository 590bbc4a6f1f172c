"""Helpers shared by the Watch factory's rule, secrecy and bad-input tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

import engines
from engines.watch_factory.game import DONE, WatchFactoryState

GAME = engines.get("watch_factory")
#: One move-token document per colour (red, green, blue, grey): harmless starting hands.
MOVE_DOCS = (3, 10, 17, 24)


def new(
    num_players: int, market: int = 0, nxt: int = 1, docs: Sequence[int] = MOVE_DOCS, solo_card: int = 0
) -> WatchFactoryState:
    """Return a game past its setup draws: the market card, the next one, then documents or the solo card."""
    state = GAME.new_initial_state(seed=0, num_players=num_players)
    play(state, f"market {market}", f"market {nxt}")
    if num_players == 1:
        play(state, f"solo card {solo_card}")
    else:
        play(state, *(f"draw doc {docs[p]}" for p in range(num_players)))
    return state


def play(state: WatchFactoryState, *moves: str) -> WatchFactoryState:
    """Apply moves in notation, checked (chance outcomes too: 'market 3', 'die 6', 'random watch workshop')."""
    for move in moves:
        state.apply_notation(move)
    return state


def drive(
    state: WatchFactoryState,
    until: Callable[[WatchFactoryState], bool],
    chance: Callable[[WatchFactoryState, list[int]], int] | None = None,
    rng: random.Random | None = None,
) -> WatchFactoryState:
    """Play default decisions (``done`` when legal, else the first legal action; random with ``rng``) and the
    first chance outcome (or ``chance``'s pick) until ``until(state)``."""
    for _ in range(5000):
        if until(state):
            return state
        assert not state.is_terminal(), "the game ended before the position sought"
        legal = state.legal_actions()
        if state.is_chance_node():
            state.apply_action(chance(state, legal) if chance else legal[0])
        elif rng is not None:
            state.apply_action(rng.choice(legal))
        else:
            state.apply_action(DONE if DONE in legal else legal[0])
    raise AssertionError("position not reached")


class Helpers:
    """The helpers above, handed to tests as the ``wf`` fixture."""

    game = GAME
    new = staticmethod(new)
    play = staticmethod(play)
    drive = staticmethod(drive)


@pytest.fixture
def wf() -> type[Helpers]:
    return Helpers
