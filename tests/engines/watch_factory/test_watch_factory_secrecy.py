"""What each seat may see: other hands, face-down watch cards, the next market card, the document stack.

"Choose the watch cards you want to assign and place them face-down"; "you may peek at the
market card of the next round"; "Shuffle all the document cards together and place them as a
face-down stack". No observation of one seat may change when only what it may not see differs.
"""

from __future__ import annotations

import random

import pytest

import engines
from engines.watch_factory import data
from engines.watch_factory.game import (
    ACTING,
    BANK_CARD,
    DOC_MOVE,
    DOC_SMUGGLE,
    DRAW_DOC,
    DRAW_MARKET,
    KEEP,
    S_WATCH,
    WatchFactoryState,
)

GAME = engines.get("watch_factory")
X, Y = 0, 5  # two red documents: a smuggling card and a "bank pays bribe" card (same colour, same score)
DOC_PLAYS = {BANK_CARD, *range(DOC_SMUGGLE, DOC_SMUGGLE + 3), *range(DOC_MOVE, DOC_MOVE + 36)}


def swap(action: int) -> int:
    """The same action with documents X and Y exchanged (draws and keeps)."""
    for base in (DRAW_DOC, KEEP):
        if action == base + X:
            return base + Y
        if action == base + Y:
            return base + X
    return action


def twin_games(num_players: int, seed: int) -> tuple[WatchFactoryState, WatchFactoryState, int]:
    """Play two games that differ only in seat 1 holding X (first) or Y (second) from the setup on.

    Seat 1 never plays a document; nobody else ever draws X or Y. Return both finished games and
    the number of positions compared.
    """
    rng = random.Random(seed)
    first = GAME.new_initial_state(seed=seed, num_players=num_players)
    second = GAME.new_initial_state(seed=seed, num_players=num_players)
    compared = 0
    while not first.is_terminal():
        for seat in range(num_players):
            if seat != 1:
                assert first.observation(seat) == second.observation(seat), (seat, first.history[-5:])
        compared += 1
        legal = first.legal_actions()
        if first.is_chance_node():
            kind, whom = first.draws[0]
            if kind == "doc" and whom == 1:
                action = DRAW_DOC + X  # seat 1's setup document: X here, Y in the twin
            elif kind in ("doc", "search") and whom != 1:
                others = [a for a in legal if a not in (DRAW_DOC + X, DRAW_DOC + Y)]
                if not others:
                    break  # only X or Y is left to draw: the twins would part here
                action = rng.choice(others)
            else:
                action = rng.choice(legal)
        else:
            if first.current_player() == 1:
                legal = [a for a in legal if a not in DOC_PLAYS]
                assert (
                    legal == [a for a in second.legal_actions() if a not in DOC_PLAYS] or first.step == "keep documents"
                )
            action = rng.choice(legal)
        first.apply_action(action)
        second.apply_checked(swap(action))
    for seat in range(num_players):
        if seat != 1:
            assert first.observation(seat) == second.observation(seat)
    return first, second, compared


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(8))
def test_no_seat_sees_which_documents_another_seat_holds(num_players: int, seed: int) -> None:
    first, second, compared = twin_games(num_players, seed)
    assert compared > 100
    assert X in first.players[1].hand
    assert Y in second.players[1].hand
    assert first.outcome() == second.outcome()


def test_a_caught_holder_of_a_bank_card_is_asked_like_any_holder_of_a_document() -> None:
    # The bribe question goes to every caught player with a document in hand, whatever it is.
    seen = {True: 0, False: 0}
    for seed in range(40):
        rng = random.Random(seed)
        state = GAME.new_initial_state(seed=seed, num_players=3)
        while not state.is_terminal():
            if not state.is_chance_node() and state.step == "bribe":
                holds = any(data.DOCUMENTS[c][1] == data.BANK_PAYS for c in state.players[state.to_move].hand)
                seen[holds] += 1
                assert (BANK_CARD in state.legal_actions()) == holds
            engines.resolve_chance(state, rng) if state.is_chance_node() else state.apply_action(
                rng.choice(state.legal_actions())
            )
    assert seen[True]
    assert seen[False]


def random_positions(num_players: int, seeds: range):
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.new_initial_state(seed=seed, num_players=num_players)
        while not state.is_terminal():
            yield state
            if state.is_chance_node():
                engines.resolve_chance(state, rng)
            else:
                state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("num_players", [1, 2, 3, 4])
def test_face_down_watch_cards_are_seen_only_by_their_setter_and_random_ones_by_nobody(num_players: int) -> None:
    chosen = random_cards = 0
    for state in random_positions(num_players, range(12)):
        if not state.watch_set:
            continue
        for seat in range(num_players):
            shown = state.observation(seat)["watch_set"]
            if state.watcher is not None and seat == state.watcher:
                assert shown == state.watch_set
                chosen += 1
            else:
                assert shown == len(state.watch_set)  # how many, not which
                random_cards += state.watcher is None
    assert random_cards
    assert chosen or num_players == 1


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_the_next_market_card_is_shown_only_to_the_watch_taker(num_players: int) -> None:
    peeks = 0
    for state in random_positions(num_players, range(12)):
        for seat in range(num_players):
            view = state.observation(seat)
            assert view["market"] == state.market
            if "next_market" in view:
                assert seat == state.peeker
                assert state.phase == ACTING
                assert view["next_market"] == state.next_market
                peeks += 1
            elif not state.is_chance_node() and state.step == S_WATCH and seat == state.to_move:
                assert state.next_market < 0  # no next card (the last round)
    assert peeks


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_the_document_stack_order_and_other_hands_are_never_shown(num_players: int) -> None:
    for state in random_positions(num_players, range(6)):
        for seat in range(num_players):
            view = state.observation(seat)
            assert view["doc_stack"] == [len(segment) for segment in state.doc_stack]
            for other, shown in enumerate(view["players"]):
                assert ("hand" in shown) == (other == seat)
                assert shown["hand_size"] == len(state.players[other].hand)
            if "searching" in view:
                assert seat == state.to_move


def test_two_stack_orders_look_the_same_until_a_card_is_drawn() -> None:
    # Setup: the market draws differ in order only as far as they are revealed.
    first = GAME.new_initial_state(seed=1, num_players=3)
    second = GAME.new_initial_state(seed=1, num_players=3)
    first.apply_action(DRAW_MARKET + 0)
    second.apply_action(DRAW_MARKET + 0)
    first.apply_action(DRAW_MARKET + 1)  # the next card, face down
    second.apply_action(DRAW_MARKET + 2)
    for seat in range(3):
        assert first.observation(seat) == second.observation(seat)
