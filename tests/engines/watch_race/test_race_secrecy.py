"""Observations hold only what their player may know.

The proof: play many random games; at every decision, build a second game that
differs only in what the player cannot know (the other cards of the current
deal, relabelled among themselves, and the timer) and check that the player's
observation is the same in both.
"""

from __future__ import annotations

import json
import random

import pytest

import engines
from engines.watch_race import WatchRaceState
from engines.watch_race.game import DEAL, DEAL_BASE, NUM_CARDS, TIMER_BASE

SEEDS = range(40)


def random_history(num_players: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    state = engines.get("watch_race").new_initial_state(num_players=num_players)
    while not state.is_terminal():
        if state.is_chance_node():
            engines.resolve_chance(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.history


def replay(num_players: int, history: list[int]) -> WatchRaceState:
    state = engines.get("watch_race").new_initial_state(num_players=num_players)
    for action in history:
        state.apply_action(action)
    return state


def seen_cards(state: WatchRaceState, player: int, first_hand: list[int]) -> set[int]:
    """Return the cards ``player`` has seen this round: those dealt to them and those swapped with them."""
    seen = set(first_hand)
    for _turn, mover, _slot, other, _pile, _their, given, received in state.swap_log:
        if player in (mover, other):
            seen |= {given, received}
    return seen


def world_unknown_to(
    num_players: int, history: list[int], deal_start: int, state: WatchRaceState, player: int, rng: random.Random
) -> list[int]:
    """Return ``history`` with the unseen cards of the current deal relabelled and another timer."""
    deal = [a - DEAL_BASE for a in history[deal_start : deal_start + NUM_CARDS]]
    first_hand = deal[player : num_players * state.hand_size : num_players]
    seen = seen_cards(state, player, first_hand)
    unseen = [card for card in range(NUM_CARDS) if card not in seen]
    shuffled = unseen[:]
    while len(unseen) > 1 and shuffled == unseen:
        rng.shuffle(shuffled)
    relabel = dict(zip(unseen, shuffled, strict=True))
    other = list(history)
    for index in range(deal_start, deal_start + NUM_CARDS):
        other[index] = DEAL_BASE + relabel.get(deal[index - deal_start], deal[index - deal_start])
    low, high = state.config["timer_turns"]
    timer_index = deal_start + NUM_CARDS
    choices = [t for t in range(max(low, state.turn + 1), high + 1) if t != state.timer]
    if choices:
        other[timer_index] = TIMER_BASE + rng.choice(choices) - 1
    return other


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_it_shows_a_player_nothing_of_other_cards_the_pile_or_the_timer(num_players: int) -> None:
    rng = random.Random(num_players)
    compared = differed = 0
    for seed in SEEDS:
        history = random_history(num_players, seed)
        state = engines.get("watch_race").new_initial_state(num_players=num_players)
        deal_start = 0
        for index, action in enumerate(history):
            if state.phase == DEAL and not state.dealt:
                deal_start = index
            if not state.is_chance_node():
                for player in range(num_players):
                    other_history = world_unknown_to(num_players, history[:index], deal_start, state, player, rng)
                    other = replay(num_players, other_history)
                    assert other.observation(player) == state.observation(player)
                    compared += 1
                    differed += other.to_json() != state.to_json()
            state.apply_action(action)
    assert differed > compared * 0.9  # the second game really hid something different


def test_it_never_puts_the_timer_or_other_hands_in_an_observation() -> None:
    state = replay(4, random_history(4, 1)[:12])
    observation = state.observation(2)
    assert {"timer", "hands", "pile", "history"}.isdisjoint(observation)
    assert observation["cards"] == [state.to_json()["hands"][2][0]]
    json.dumps(observation)
