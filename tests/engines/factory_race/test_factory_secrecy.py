"""Simultaneous placement: no seat sees another seat's placements of a round before every seat has placed.

"Все игроки одновременно расставляют любое количество своих фигурок рабочих"
(all players place any number of their workers at once). The engine asks the
seats one after another, so it must hide what the earlier seats placed: their
observations may not change with it until the placement phase is over.
"""

from __future__ import annotations

import random

import pytest

import engines
from engines.factory_race.game import BUREAU, PLACE, FactoryRaceState


def at_placement(num_players: int, seed: int, mode: str = "base") -> FactoryRaceState:
    """Return a random game in the placement phase of a later round, with seat order 0 first."""
    rng = random.Random(seed)
    state = engines.get("factory_race").new_initial_state(seed=seed, num_players=num_players, config={"mode": mode})
    target = 1 + seed % 4
    while not (state.phase == PLACE and state.round >= target and state.order_index == 0 and not state.draws):
        if state.is_chance_node():
            engines.resolve_chance(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        assert not state.is_terminal()
    return state


def place_all(state: FactoryRaceState, rng: random.Random) -> list[str]:
    """Let the seat to move place randomly until it is done; return what it placed."""
    seat = state.current_player()
    placed = []
    while state.phase == PLACE and state.current_player() == seat:
        action = rng.choice(state.legal_actions())
        placed.append(state.action_to_string(action))
        state.apply_action(action)
    return placed


@pytest.mark.parametrize("mode", ["base", "challenge"])
@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_no_seat_sees_the_placements_of_the_seats_before_it_until_all_have_placed(
    num_players: int, seed: int, mode: str
) -> None:
    start = at_placement(num_players, seed, mode)
    first, *later = start.order()
    assert start.current_player() == first
    # Two futures that differ only in what the first seat places this round: nothing, or
    # random placements ending with a worker in the design bureau (whose blueprints show later).
    quiet = start.clone()
    quiet.apply_notation("done")
    busy = start.clone()
    rng = random.Random(seed)
    while busy.current_player() == first:
        legal = busy.legal_actions()
        if BUREAU in legal:
            busy.apply_notation("bureau")
            busy.apply_notation("done")
            break
        busy.apply_action(rng.choice([action for action in legal if action] or legal))
    assert busy.factories[first].placed() > 0, "the first seat should have placed a worker"
    # Every later seat sees the same thing in both futures while it is placing...
    for seat in later:
        assert quiet.current_player() == busy.current_player() == seat
        for other in later:
            assert quiet.observation(other) == busy.observation(other)
        quiet.apply_notation("done")
        busy.apply_notation("done")
    # ...and once every seat has placed, what the first seat did shows to all.
    assert quiet.phase != PLACE
    assert busy.phase != PLACE
    for seat in later:
        assert quiet.observation(seat)["factories"][first] != busy.observation(seat)["factories"][first]


def test_a_placing_seat_sees_its_own_placements_but_not_anothers() -> None:
    state = at_placement(2, 1)
    seat = state.current_player()
    state.apply_notation("bureau")
    mine = state.observation(seat)["factories"][seat]
    assert mine["placed"]["bureau"] == 1
    assert mine["workers"] == state.factories[seat].workers - 1
    theirs = state.observation(1 - seat)["factories"][seat]
    assert theirs["placed"] is None
    assert theirs["workers"] == state.factories[seat].workers  # the round's workers, before any was placed
