"""Hidden information: no seat's observation changes when only another seat's secrets differ."""

from __future__ import annotations

import random

import engines


def test_a_dealt_hand_is_secret_until_the_choice(wu) -> None:
    one = wu.game.new_initial_state(seed=0)
    two = wu.game.new_initial_state(seed=0)
    # Seat 1's cards differ (the deal order is 0, 1, 0, 1, 0, 1); seat 0's are the same.
    wu.play(
        one, "card 1 Detective", "card 2 Pastor", "card 3 Arsonist", "card 4 Teacher", "card 5 Artist", "card 6 Hiker"
    )
    wu.play(
        two, "card 1 Detective", "card 7 Nurse", "card 3 Arsonist", "card 8 Priest", "card 5 Artist", "card 9 Mechanic"
    )
    for seat in (0, 2):
        assert one.observation(seat) == two.observation(seat)
    assert one.observation(1) != two.observation(1)


def test_a_peek_is_seen_by_the_peeker_alone(wu) -> None:
    # "her Pastor's Cross lets her look at the top card of the Monster deck" (only she sees it)
    states = []
    for peeked in ("Whisper", "Lake Thing"):
        state = wu.game.new_initial_state(seed=0)
        wu.play(state, "card 2 Pastor", "card 4 Teacher", "card 3 Arsonist", "card 5 Artist", "card 7 Nurse")
        wu.play(state, "card 6 Hiker", "choose 1", "choose 0", "location Grimy/Alleyway", "location Haunted/Lake")
        wu.play(state, "vote 0", "vote 0", "monster Police Detective", "monster Boo", "monster Charlie")
        wu.play(state, "vote 0", "vote 0", "top 0", "use Nurse's Kit")  # Bob's turn: Charlie
        wu.play(state, "use Artist's Camera", "monster Rat King")  # Alice's: an attack, then the Cross peeks
        wu.play(state, f"monster {peeked}")
        states.append(state)
    one, two = states
    for seat in (1, 2):
        assert one.observation(seat) == two.observation(seat)
    assert one.observation(0)["known_top"] != two.observation(0)["known_top"]


def test_the_gm_alone_knows_the_order_of_the_returned_monsters(wu) -> None:
    states = []
    for top in ("top 0", "top 1"):
        state = wu.game.new_initial_state(seed=0)
        wu.play(state, "card 1 Detective", "card 4 Teacher", "card 3 Arsonist", "card 5 Artist", "card 7 Nurse")
        wu.play(state, "card 6 Hiker", "choose 1", "choose 0", "location Grimy/Alleyway", "location Haunted/Lake")
        wu.play(state, "vote 0", "vote 0", "monster Police Detective", "monster Boo", "monster The Stray")
        wu.play(state, "vote 0", "vote 0")
        before = (state.observation(0), state.observation(1))
        wu.play(state, top)
        states.append((state, before))
    (one, before_one), (two, before_two) = states
    assert before_one == before_two
    assert one.observation(2)["known_top"] != two.observation(2)["known_top"]


def test_random_games_never_show_a_seat_another_seats_secret_hand() -> None:
    game = engines.get("watching_us")
    for seed in range(5):
        state = game.new_initial_state(seed=seed, num_players=4)
        rng = random.Random(seed)
        while state.step in ("char", "choose"):
            for seat in range(4):
                view = state.observation(seat)
                assert "hands" not in view
                if seat < 3:
                    assert view["hand"] == state.hands[seat]
            if state.is_chance_node():
                engines.resolve_chance(state, rng)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
