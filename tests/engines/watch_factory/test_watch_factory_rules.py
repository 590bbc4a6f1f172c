"""The Watch factory's rulebook (000, Daniel Newman's *Watch*), sentence by sentence: RULES.md names these tests.

Positions are built by playing chosen actions (chance outcomes chosen in notation:
``market 4``, ``draw doc 5``, ``die 6``, ``random watch workshop``). Where playing
there is impractical (a player board upgraded far, a stack nearly empty, the end
of the scoring example), fields are set directly on the state, and the test says so.
"""

from __future__ import annotations

import pytest

from engines import CHANCE, TERMINAL, IllegalActionError
from engines.watch_factory import data
from engines.watch_factory.game import (
    ACTING,
    BANK_CARD,
    DOC_SMUGGLE,
    DONE,
    DRAW_WATCH,
    FINAL,
    GEAR,
    PLACE,
    REPAY,
    S_BONUS,
    S_BRIBE,
    S_END,
    S_KEEP,
    S_MOVE,
    S_PLACE,
    S_REPAY_WATCH,
    S_SELL,
    S_SMUGGLE,
    S_TRACK,
    S_UPGRADE,
    S_WATCH,
    SMUGGLE_ICON,
    TRACK,
    UPGRADE_ROW,
    WatchFactoryState,
    track_places,
)

EMPTY = -1


def at_step(state: WatchFactoryState, step: str) -> bool:
    return not state.is_chance_node() and state.step == step


# -- setup --------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_gives_each_player_3_rubles_2_gears_one_document_and_a_full_board(wf, n: int) -> None:
    state = wf.new(n)
    for p, player in enumerate(state.players):
        assert (player.rubles, player.gears, player.debts) == (3, 2, 0)
        assert player.hand == [wf.new.__defaults__[2][p]]  # "Draw 1 document card from the stack to your hand."
        assert player.removed == [0, 0, 0, 0]  # "Place the 20 tokens on the upgrade spots"
    assert sum(len(s) for s in state.doc_stack) == 28 - n


@pytest.mark.parametrize(("n", "per_value"), [(1, 2), (2, 3), (3, 4), (4, 5)])
def test_setup_takes_player_count_plus_one_crates_of_each_value_two_in_solo(wf, n: int, per_value: int) -> None:
    state = wf.new(n)
    assert state.stock == dict.fromkeys(range(1, 10), per_value)


def test_setup_reveals_a_market_card_hand_at_12_and_black_token_on_watch(wf) -> None:
    state = wf.game.new_initial_state(seed=0, num_players=3)
    assert state.current_player() == CHANCE
    assert [a for a, _ in state.chance_outcomes()] == [state.parse_action(f"market {k}") for k in range(12)]
    wf.play(state, "market 7", "market 2")
    assert (state.market, state.next_market, state.market_stack.count(7)) == (7, 2, 0)
    assert state.hand == 0
    assert state.round == 1
    assert state.black is None  # "Place the black token on the WATCH action."
    assert state.watch_deck == [0, 1, 2, 3]  # "Place the 4 watch cards"


def test_two_player_game_has_a_third_worker_and_others_none(wf) -> None:
    assert wf.new(2).pawn == 2
    assert len(wf.new(2).spots) == 3
    assert wf.new(3).pawn is None
    assert len(wf.new(3).spots) == 3


def test_start_player_places_first_then_around_the_table(wf) -> None:
    state = wf.new(4)
    order = []
    while at_step(state, S_PLACE):
        order.append(state.current_player())
        state.apply_action(state.legal_actions()[-1])
    assert order == [0, 1, 2, 3]


def test_each_section_has_a_safe_and_a_risky_spot() -> None:
    assert [data.section_of(s) for s in range(8)] == [0, 0, 1, 1, 2, 2, 3, 3]
    assert [data.section_of(s) for s in sorted(data.RISKY)] == [0, 1, 2, 3]


# -- phase 1 ------------------------------------------------------------------------------------
def test_each_action_spot_takes_one_worker(wf) -> None:
    state = wf.play(wf.new(3), "place smuggle")
    assert PLACE + data.SMUGGLE not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="already stands on smuggle"):
        state.apply_checked(PLACE + data.SMUGGLE)


def test_round_one_skips_phase_two_and_acts_at_once(wf) -> None:
    state = wf.play(wf.new(3), "place scrounge", "place overtime", "place upgrade")
    assert state.phase == ACTING
    assert state.revealed == []
    assert state.current_player() == 1  # overtime is the closest to the hand at 12 o'clock


def round_two(wf) -> WatchFactoryState:
    """P0 on WATCH, P1 SMUGGLE, P2 SCROUNGE in round 1, P0 setting the warehouse card; round 2 placing."""
    state = wf.play(wf.new(3), "place watch", "place smuggle", "place scrounge")
    return wf.drive(state, lambda s: at_step(s, S_PLACE))


def test_play_order_is_closest_to_the_watch_hand_clockwise(wf) -> None:
    state = wf.play(wf.new(3), "place watch", "place smuggle", "place scrounge")
    acted = []
    while state.round == 1:
        if not state.is_chance_node() and state.current_player() not in acted:
            acted.append(state.current_player())
        wf.drive(state, lambda s: True)
        legal = state.legal_actions()
        state.apply_action(DONE if DONE in legal else legal[0])
    assert acted == [1, 2, 0]  # hand at 12: smuggle, scrounge, watch
    wf.drive(state, lambda s: at_step(s, S_PLACE))
    assert state.hand == 1  # "from 12 o'clock, to 3 o'clock"
    # Hand at 3 o'clock, before overtime: scrounge (3 steps), watch (5), smuggle (6).
    placed = []
    while at_step(state, S_PLACE):
        placed.append(state.current_player())
        state.apply_action(state.legal_actions()[0])
    assert placed == [2, 0, 1]


def test_a_worker_moves_to_another_empty_spot_and_may_take_one_left_this_phase(wf) -> None:
    state = round_two(wf)
    assert state.current_player() == 2
    assert PLACE + data.SCROUNGE not in state.legal_actions()  # its own spot
    assert PLACE + data.WATCH not in state.legal_actions()  # P0 has not moved yet
    wf.play(state, "place overtime")
    assert state.current_player() == 0
    assert PLACE + data.SCROUNGE in state.legal_actions()  # "left empty ... in this same phase"
    assert PLACE + data.WATCH not in state.legal_actions()


# -- phase 2 ------------------------------------------------------------------------------------
def watched(wf, section: str, market: int = 0) -> WatchFactoryState:
    """P0 takes WATCH in round 1 (P1 sell gears, P2 produce gears) and sets ``section``; round 2 placing."""
    state = wf.play(wf.new(3, market=market), "place watch", "place sell gears", "place produce gears")
    state = wf.drive(state, lambda s: at_step(s, S_WATCH))
    wf.play(state, f"watch card {section}")
    return wf.drive(state, lambda s: at_step(s, S_PLACE) and s.round == 2)


def place_round_two(wf, state: WatchFactoryState, spots: dict[int, str]) -> WatchFactoryState:
    """Place as ``spots`` says; caught players holding a document pay ("done" to the bank-card question)."""
    while at_step(state, S_PLACE) or at_step(state, S_BRIBE):
        wf.play(state, f"place {spots[state.current_player()]}" if state.step == S_PLACE else "done")
    return state


def test_a_worker_on_a_risky_spot_of_a_revealed_section_pays_its_bribe_to_the_watcher(wf) -> None:
    state = watched(wf, "loading dock")
    before = [p.rubles for p in state.players]
    # P1 on sell gears, P2 on produce gears: P2 to SMUGGLE (risky, dock), P1 to OVERTIME (risky, not revealed).
    place_round_two(wf, state, {0: "scrounge", 1: "overtime", 2: "smuggle"})
    bribe = data.COLUMN_COST[0]  # one token removed: the first column
    assert state.players[2].rubles == before[2] - bribe
    assert state.players[0].rubles == before[0] + bribe
    assert state.players[1].rubles == before[1]
    assert state.revealed == [data.DOCK]
    assert state.revealed_by == 0


def test_a_worker_on_the_safe_spot_of_a_revealed_section_is_not_caught(wf) -> None:
    state = watched(wf, "workshop")
    before = [p.rubles for p in state.players]
    place_round_two(wf, state, {0: "scrounge", 1: "smuggle", 2: "overtime"})
    assert state.players[1].rubles == before[1]  # smuggle: dock, not revealed
    assert state.players[2].rubles < before[2]  # overtime: the workshop's risky spot


def test_the_bribe_is_the_cost_over_the_rightmost_column_with_an_empty_spot(wf) -> None:
    # Example: Bribe. "the rightmost empty upgrade spot of all rows is in the fourth column ... Yellow pays
    # 5 rubles to the bank." Set directly: a board four tokens into one row takes many rounds.
    state = wf.play(wf.new(3), "place smuggle", "place sell gears", "place scrounge")
    state = wf.drive(state, lambda s: s.is_chance_node() and s.draws[0][0] == "watch")
    wf.play(state, "random watch workshop")
    wf.drive(state, lambda s: at_step(s, S_PLACE))
    state.players[1].removed = [1, 2, 4, 0]
    state.players[1].rubles = 9
    others = [p.rubles for p in state.players]
    place_round_two(wf, state, {0: "upgrade", 1: "overtime", 2: "produce gears"})
    assert state.players[1].rubles == 9 - 5  # "Yellow pays 5 rubles to the bank": nobody gains
    assert [state.players[0].rubles, state.players[2].rubles] == [others[0], others[2]]
    assert "pays the bank a bribe of 5" in " ".join(state.log)


def test_a_caught_player_short_of_rubles_takes_debts_of_5(wf) -> None:
    state = watched(wf, "loading dock")
    state.players[2].removed = [0, 4, 0, 0]  # set directly: a bribe of 5 (column four)
    state.players[2].rubles = 1
    place_round_two(wf, state, {0: "scrounge", 1: "overtime", 2: "smuggle"})
    assert (state.players[2].debts, state.players[2].rubles) == (1, 1)  # 1 + 5 - 5


def test_catching_yourself_costs_nothing(wf) -> None:
    state = watched(wf, "foreman's office")
    before = state.players[0].rubles
    place_round_two(wf, state, {0: "search files", 1: "overtime", 2: "smuggle"})
    assert state.players[0].rubles == before


def test_the_black_token_makes_the_bank_pay(wf) -> None:
    state = watched(wf, "loading dock")
    assert state.black == 0
    state.black = 2  # set directly: P2 took WATCH earlier
    before = [p.rubles for p in state.players]
    place_round_two(wf, state, {0: "scrounge", 1: "overtime", 2: "smuggle"})
    assert state.players[2].rubles == before[2]
    assert state.players[0].rubles == before[0] + 1


def test_reveal_example_blue_catches_red_upgrading_and_yellow_smuggling_with_a_bank_card(wf) -> None:
    # P0 Blue, P1 Red, P2 Yellow ("a 'Bank pays bribe' document card": doc 5). Market 4 shows 2 eyes.
    state = wf.new(3, market=4, docs=(3, 10, 5))
    wf.play(state, "place watch", "place scrounge", "place overtime")
    wf.drive(state, lambda s: at_step(s, S_WATCH))
    wf.play(state, "watch card warehouse", "watch card loading dock")
    wf.drive(state, lambda s: at_step(s, S_PLACE) and s.round == 2)
    state.players[2].removed = [0, 2, 0, 0]  # set directly: Yellow's bribe is 2
    blue = state.players[0].rubles
    red = state.players[1].rubles
    wf.play(state, "place smuggle", "place upgrade", "place sell gears")  # order: Yellow, Red, Blue
    assert at_step(state, S_BRIBE)
    assert state.current_player() == 1
    assert state.legal_actions() == [DONE]  # Red holds a document, but no bank card
    wf.play(state, "done")
    assert state.players[1].rubles == red - 1  # "Red pays the bribe of 1 coin grudgingly directly to Blue"
    assert at_step(state, S_BRIBE)
    assert state.current_player() == 2
    assert state.legal_actions() == [DONE, BANK_CARD]
    wf.play(state, "bank pays")
    assert state.players[2].played == [5]
    assert state.players[2].rubles == 3
    assert state.players[0].rubles == blue + 1 + 2  # "Blue takes the 2 rubles ... from the bank instead"


def test_random_watch_cards_catch_for_the_bank(wf) -> None:
    state = wf.play(wf.new(3, market=9), "place smuggle", "place sell gears", "place scrounge")
    state = wf.drive(state, lambda s: s.is_chance_node() and s.draws[0][0] == "watch")
    assert len(state.draws) == 3  # market 9 shows 3 eyes: "Draw as many cards as shown on the market card"
    wf.play(state, "random watch loading dock", "random watch warehouse", "random watch workshop")
    wf.drive(state, lambda s: at_step(s, S_PLACE))
    before = [p.rubles for p in state.players]
    place_round_two(wf, state, {0: "upgrade", 1: "overtime", 2: "produce gears"})
    assert state.revealed_by is None
    assert state.players[0].rubles == before[0] - 1
    assert state.players[1].rubles == before[1] - 1
    assert state.players[2].rubles == before[2]


# -- phase 3: tokens and majority tracks ----------------------------------------------------------
def sell_first(wf) -> WatchFactoryState:
    """Round 1 of three players: P1 on SELL GEARS acts first (P0 scrounge, P2 produce gears)."""
    return wf.play(wf.new(3), "place scrounge", "place sell gears", "place produce gears")


def test_the_action_places_the_leftmost_token_of_its_sections_row_on_the_leftmost_empty_spot(wf) -> None:
    state = wf.play(sell_first(wf), "sell 2")
    assert at_step(state, S_TRACK)
    assert state.current_player() == 1
    assert state.players[1].rubles == 3 + 2 + data.MARKETS[0].dock_rubles
    wf.play(state, "track coins II")
    assert state.players[1].removed == [1, 0, 0, 0]
    assert state.tracks[3][0] == 1
    # "If the empty spot has a bonus, you take it immediately": coins II's first spot gives 1 ruble.
    assert state.players[1].rubles == 3 + 2 + data.MARKETS[0].dock_rubles + 1
    assert at_step(state, S_END)


def test_a_full_track_cannot_be_chosen(wf) -> None:
    state = sell_first(wf)
    state.tracks[0] = [2] * state.track_len  # set directly: a track filled earlier
    wf.play(state, "sell 0")
    assert TRACK + 0 not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="no empty spot"):
        state.apply_checked(TRACK + 0)


def test_no_token_left_in_the_row_places_no_token(wf) -> None:
    state = sell_first(wf)
    state.players[1].removed = [5, 0, 0, 0]  # set directly: the loading dock row is empty
    wf.play(state, "sell 0")
    assert at_step(state, S_END)
    assert all(1 not in line for line in state.tracks)


@pytest.mark.parametrize(("n", "length"), [(2, 8), (3, 8), (4, 10)])
def test_the_two_rightmost_spots_are_used_only_with_four_players(wf, n: int, length: int) -> None:
    assert all(len(line) == length for line in wf.new(n).tracks)


def test_red_smuggles_then_takes_two_gears_from_the_fourth_tracks_bonus(wf) -> None:
    state = wf.play(wf.new(3), "place smuggle", "place sell gears", "place scrounge")
    state.tracks[3][0] = 2  # set directly: another player's token on the first spot
    wf.play(state, "smuggle")
    assert state.players[0].crates == [3]  # "trade 1 gear for the most valuable light brown crate"
    wf.play(state, "done", "track coins II")
    assert state.tracks[3][1] == 0
    assert state.players[0].gears == 2 - 1 + 2


def test_a_crate_bonus_is_taken_for_its_gears_or_forfeited_and_needs_the_colour_unlocked(wf) -> None:
    for take in (True, False):
        state = sell_first(wf)
        state.tracks[0][:5] = [2, 2, 0, 0, 2]  # set directly: spot 6 of gears I smuggles a light brown for 1
        wf.play(state, "sell 0", "track gears I")
        assert at_step(state, S_BONUS)
        assert state.legal_actions() == [DONE, state.parse_action("take bonus")]
        wf.play(state, "take bonus" if take else "done")
        assert state.players[1].crates == ([3] if take else [])
        assert state.players[1].gears == (1 if take else 2)
    state = sell_first(wf)
    state.players[1].gears = 5
    state.tracks[4][:6] = [2, 2, 0, 0, 2, 2]  # crates I's seventh spot: a dark brown crate, not unlocked yet
    wf.play(state, "sell 0", "track crates I")
    assert at_step(state, S_END)
    assert state.players[1].crates == []


# -- phases 4 and 5, debts ------------------------------------------------------------------------
def test_the_hand_turns_each_round_and_a_new_market_card_is_revealed(wf) -> None:
    state = wf.new(3)
    hands, markets = [], []
    while not state.is_terminal():
        if at_step(state, S_PLACE) and (not hands or len(hands) < state.round):
            hands.append(state.hand)
            markets.append(state.market)
        wf.drive(state, lambda s: True)
        if not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(DONE if DONE in legal else legal[0])
    assert hands == [0, 1, 2, 3] * 3
    assert len(set(markets)) == 12
    assert state.market_stack == []


def test_debts_are_repaid_at_8_at_the_end_of_an_action(wf) -> None:
    state = wf.play(sell_first(wf), "sell 0", "track gears I")
    assert REPAY not in state.legal_actions()
    state = wf.play(sell_first(wf), "sell 0", "track gears I")
    state.players[1].debts, state.players[1].rubles = 2, 17  # set directly
    wf.play(state, "repay", "repay")
    assert (state.players[1].debts, state.players[1].rubles) == (0, 1)
    assert REPAY not in state.legal_actions()


def test_each_debt_scores_minus_10(wf) -> None:
    state = wf.new(3)
    state.players[0].debts = 3
    assert state.score(0)["debts"] == -30


# -- the action spots -----------------------------------------------------------------------------
def test_smuggle_example_two_tokens_out_and_no_value_3_left(wf) -> None:
    state = wf.new(3)
    state.players[0].removed[data.DOCK] = 2  # set directly: two tokens off the loading dock row
    state.stock[3] = 0  # "There are no value 3 crates left"
    wf.play(state, "place smuggle", "place sell gears", "place scrounge", "smuggle")
    assert sorted(state.players[0].crates) == [2, 6]
    assert state.players[0].gears == 0
    assert (state.stock[2], state.stock[6]) == (3, 3)


def test_dark_brown_is_smuggled_only_once_unlocked_and_a_colour_out_of_stock_defaults_lower(wf) -> None:
    state = wf.new(3)
    state.players[0].removed[data.DOCK] = 3  # column three: 2 gears for a dark brown
    state.stock[9] = state.stock[8] = state.stock[7] = 0
    wf.play(state, "place smuggle", "place sell gears", "place scrounge", "smuggle")
    assert state.players[0].crates == [6]  # "(You can default to a lower color.)"


def test_sell_gears_example_with_the_market_bonus_and_a_crate_upgrade(wf) -> None:
    state = wf.new(3, market=1, nxt=2)  # the loading dock bonus of market card 1 is 3 rubles
    state.players[1].gears, state.players[1].crates = 5, [2]  # set directly
    state.stock[2] -= 1
    wf.play(state, "place scrounge", "place sell gears", "place produce gears", "sell 5")
    assert state.players[1].rubles == 3 + 5 + 3
    assert state.legal_actions() == [DONE, state.parse_action("upgrade crate 2")]
    wf.play(state, "upgrade crate 2")
    assert state.players[1].crates == [6]
    assert state.stock[2] == 4
    assert state.stock[6] == 3


@pytest.mark.parametrize(("column", "gears"), [(2, 4 + 2), (4, 6 + 2)])
def test_overtime_example_four_plus_two_and_six_plus_two_with_column_four_empty(wf, column: int, gears: int) -> None:
    state = wf.new(3)  # market 0: 2 gears for the workshop
    state.players[0].removed[data.WORKSHOP] = column  # set directly
    wf.play(state, "place overtime", "place sell gears", "place scrounge")
    wf.drive(state, lambda s: at_step(s, S_TRACK) and s.current_player() == 0)
    assert state.players[0].gears == 2 + gears


def test_produce_gears_example_moves_a_token_to_spot_4_of_the_lower_crates_track(wf) -> None:
    state = wf.new(3)
    state.players[0].removed[data.WORKSHOP] = 2  # set directly: 4 gears
    state.tracks[5][:3] = [0, 1, 2]  # red's token on the first spot, spots 2 and 3 taken
    wf.play(state, "place produce gears", "place sell gears", "place scrounge")
    wf.drive(state, lambda s: at_step(s, S_MOVE))
    assert state.players[0].gears == 2 + 4
    assert state.legal_actions() == [DONE, state.parse_action("move along crates II")]
    wf.play(state, "move along crates II")
    assert state.tracks[5][:4] == [GEAR, 1, 2, 0]  # a gear blocks spot 1
    assert state.players[0].gears == 2 + 4 + 3  # "spot 4 that grants 3 gears"


def test_upgrade_example_from_column_three_costs_3_and_places_that_token(wf) -> None:
    state = wf.new(3)
    state.players[0].removed[data.DOCK] = 2  # set directly
    wf.play(state, "place upgrade", "place sell gears", "place scrounge")
    wf.drive(state, lambda s: at_step(s, S_UPGRADE))
    assert state.legal_actions() == [DONE, *(UPGRADE_ROW + r for r in range(4))]
    wf.play(state, "upgrade row loading dock")
    assert state.players[0].rubles == 0
    assert state.players[0].removed[data.DOCK] == 3
    wf.play(state, "track crates I")  # the upgraded token, then the warehouse's own token
    assert state.tracks[4][0] == 0
    assert at_step(state, S_TRACK)
    wf.play(state, "track crates I")
    assert state.tracks[4][:2] == [0, 0]
    assert state.players[0].removed == [3, 0, 1, 0]


def test_an_upgrade_short_of_rubles_takes_debts(wf) -> None:
    state = wf.new(3)
    state.players[0].removed[data.OFFICE], state.players[0].rubles = 3, 1  # set directly: costs 5
    wf.play(state, "place upgrade", "place sell gears", "place scrounge")
    wf.drive(state, lambda s: at_step(s, S_UPGRADE))
    wf.play(state, "upgrade row foreman's office")
    assert (state.players[0].debts, state.players[0].rubles) == (1, 1)


def test_scrounge_example_one_gear_two_rubles_plus_one_and_one(wf) -> None:
    state = wf.new(3)  # market 0: 1 ruble and 1 gear for the warehouse
    state.players[0].removed[data.WAREHOUSE] = 1  # set directly
    wf.play(state, "place scrounge", "place sell gears", "place produce gears")
    wf.drive(state, lambda s: at_step(s, S_TRACK) and s.current_player() == 0)
    assert (state.players[0].gears, state.players[0].rubles) == (2 + 1 + 1, 3 + 2 + 1)


def test_search_files_example_draws_5_keeps_2_and_returns_3_to_the_bottom(wf) -> None:
    state = wf.new(3)
    state.players[0].removed[data.OFFICE] = 3  # set directly: the office row's third column
    wf.play(state, "place search files", "place sell gears", "place scrounge")
    wf.drive(state, lambda s: s.is_chance_node() and s.draws[0][0] == "search")
    assert len(state.draws) == 5
    wf.play(state, "draw doc 0", "draw doc 7", "draw doc 14", "draw doc 21", "draw doc 5")
    assert at_step(state, S_KEEP)
    wf.play(state, "keep doc 7", "keep doc 21")
    assert sorted(state.players[0].hand) == [3, 7, 21]
    assert sorted(state.doc_stack[-1]) == [0, 5, 14]  # at the bottom
    # The next draws come from the rest of the stack first: the returned cards only after it.
    assert len(state.doc_stack) == 2
    assert not set(state.doc_stack[0]) & {0, 5, 14}
    assert state.players[0].returned == [0, 14, 5]


def test_watch_example_two_cards_repay_at_5_and_the_black_token(wf) -> None:
    state = wf.new(3, market=4)  # "as the market card indicates a 2"
    state.players[0].debts, state.players[0].rubles = 1, 8  # set directly
    state.black = 1  # Blue holds the black token
    wf.play(state, "place watch", "place sell gears", "place scrounge")
    wf.drive(state, lambda s: at_step(s, S_WATCH))
    assert state.black == 0  # "You take the black token ... from its current owner"
    assert len(state.legal_actions()) == 4
    wf.play(state, "watch card workshop", "watch card loading dock")
    assert at_step(state, S_REPAY_WATCH)
    wf.play(state, "repay")
    assert (state.players[0].debts, state.players[0].rubles) == (0, 3)
    assert at_step(state, S_TRACK)
    assert sorted(state.watch_set) == [0, 1]


def test_the_watch_action_is_random_when_nobody_takes_it(wf) -> None:
    state = wf.play(wf.new(3, market=4), "place smuggle", "place sell gears", "place scrounge")
    wf.drive(state, lambda s: s.is_chance_node() and s.draws[0][0] == "watch")
    assert len(state.draws) == 2
    wf.play(state, "random watch workshop")
    assert DRAW_WATCH + data.WAREHOUSE in state.legal_actions()
    assert DRAW_WATCH + data.WORKSHOP not in state.legal_actions()


# -- document cards -------------------------------------------------------------------------------
def test_a_move_document_moves_a_token_leaving_a_gear_once_a_round(wf) -> None:
    state = sell_first(wf)
    state.players[1].hand = [3, 4]  # set directly: two move cards
    wf.play(state, "sell 0", "track gears I")
    wf.play(state, "document move gears I to coins I")
    assert state.tracks[0][0] == GEAR
    assert state.tracks[2][0] == 1
    assert state.players[1].played == [3]
    assert state.legal_actions() == [DONE]  # "You can only play one such card per round."


def test_a_smuggling_document_smuggles_once_more_in_an_unlocked_colour(wf) -> None:
    state = wf.new(3, docs=(0, 10, 17))  # P0 holds a smuggling document
    state.players[0].gears = 5
    wf.play(state, "place smuggle", "place sell gears", "place scrounge")
    legal = state.legal_actions()
    assert DOC_SMUGGLE + data.LIGHT in legal
    assert DOC_SMUGGLE + data.WHITE not in legal  # not unlocked yet
    wf.play(state, "smuggle", "document smuggle light brown")
    assert sorted(state.players[0].crates) == [3, 3]
    assert state.players[0].gears == 5 - 1 - 1
    assert state.players[0].played == [0]


# -- the two-player game --------------------------------------------------------------------------
def test_the_third_worker_enters_after_the_players_counting_empty_spots_from_the_hand(wf) -> None:
    state = wf.play(wf.new(2), "place smuggle", "place sell gears")
    assert state.current_player() == CHANCE
    assert state.draws[0][0] == "die"
    wf.play(state, "die 4")  # empty spots from 12 o'clock: overtime, produce, upgrade, scrounge
    assert state.spots[2] == data.SCROUNGE


@pytest.mark.parametrize("roll", [1, 6])
def test_the_third_worker_example_a_6_moves_one_step_and_places_on_the_sixth_track(wf, roll: int) -> None:
    state = wf.play(wf.new(2), "place smuggle", "place sell gears", "die 4")
    state.players[0].hand = state.players[1].hand = []  # set directly: no document moves to ask about
    wf.drive(state, lambda s: s.round == 2 and s.is_chance_node() and s.draws[0][0] == "die")
    assert state.tracks[3].count(2) == 1  # round 1: a 4, the fourth track
    wf.play(state, f"die {roll}")
    assert state.spots[2] == data.SEARCH  # the next empty spot clockwise from scrounge
    wf.drive(state, lambda s: s.round == 3)
    assert state.tracks[roll - 1].count(2) == 1  # a 6: "the sixth majority track"


def test_a_caught_third_worker_is_paid_for_by_the_bank_at_the_other_players_bribe(wf) -> None:
    state = wf.play(wf.new(2), "place watch", "place smuggle", "die 4")
    assert state.spots[2] == data.UPGRADE
    wf.drive(state, lambda s: at_step(s, S_WATCH))
    wf.play(state, "watch card foreman's office")
    wf.drive(state, lambda s: s.round == 2 and s.is_chance_node() and s.draws[0][0] == "die")
    state.players[1].removed = [3, 0, 0, 0]  # set directly: the other player's bribe is 3
    before = [p.rubles for p in state.players]
    wf.play(state, "die 2")  # scrounge, then search files
    assert state.spots[2] == data.SEARCH
    wf.play(state, "place sell gears", "place overtime")
    assert state.players[0].rubles == before[0] + 3
    assert state.players[1].rubles == before[1]


# -- the end of the game --------------------------------------------------------------------------
def test_the_game_ends_after_phase_3_of_round_12_with_a_final_smuggle_and_debts_paid(wf) -> None:
    state = wf.drive(wf.new(3), lambda s: s.phase == FINAL)
    assert state.round == 12
    assert state.hand == 3
    assert state.market_stack == []
    assert state.watch_set == []
    assert not state.draws
    order = []
    state.players[0].debts, state.players[0].rubles = 2, 10  # set directly
    state.players[1].gears = 10
    tracks = [line[:] for line in state.tracks]
    crates = len(state.players[1].crates)
    while not state.is_terminal():
        assert at_step(state, S_SMUGGLE)
        order.append(state.current_player())
        if state.current_player() == 1:
            wf.play(state, "smuggle")
        wf.drive(state, lambda s: s.is_terminal() or s.current_player() not in (order[-1], CHANCE))
    assert sorted(order) == [0, 1, 2]
    assert order == [w for w in state.by_hand() if w < 3]
    assert state.tracks == tracks  # "(You do not place a token though!)"
    assert len(state.players[1].crates) > crates
    assert (state.players[0].debts, state.players[0].rubles) == (1, 2)
    assert state.current_player() == TERMINAL


def scoring_example(wf) -> WatchFactoryState:
    """The rulebook's final scoring, three players: P0 Yellow, P1 Red, P2 Blue.

    Set directly at the final smuggle of a played game (the example gives an end position, not a game).
    """
    state = wf.drive(wf.new(3), lambda s: s.phase == FINAL)
    y, r, b = 0, 1, 2
    o = EMPTY
    state.tracks = [
        [r, r, r, b, b, y, o, o],  # gears I: red 3, blue 2 (second), yellow 1
        [b, b, b, r, r, y, o, o],  # gears II: blue 3 (first), red 2, yellow 1
        [r, r, r, r, b, b, b, y],  # coins I: red 4, blue 3 (second), yellow 1
        [y, y, y, r, r, b, o, o],  # coins II: yellow 3, red 2, blue 1 (third)
        [y, y, b, b, r, o, o, o],  # crates I: yellow and blue tied first with 2
        [r, r, b, b, y, o, o, o],  # crates II: red and blue tied first with 2
    ]
    values = {
        y: {"crates": [1, 4, 7, 8], "gears": 5, "rubles": 22, "debts": 0, "removed": [2, 1, 5, 1]},
        r: {"crates": [3, 6, 9, 9], "gears": 20, "rubles": 6, "debts": 0, "removed": [2, 5, 5, 2]},
        b: {"crates": [2, 3, 5, 5, 6, 6, 9], "gears": 33, "rubles": 12, "debts": 1, "removed": [3, 5, 3, 2]},
    }
    hands = {y: [2, 3, 8, 14, 21], r: [22, 23], b: [0, 1, 7]}  # red ids 0-6, green 7-13, blue 14-20, grey 21-27
    for p, fields in values.items():
        for name, value in fields.items():
            setattr(state.players[p], name, value)
        state.players[p].hand, state.players[p].played = hands[p], []
    while not state.is_terminal():
        wf.play(state, "done")
    return state


def test_the_scoring_example_blue_169_yellow_103_red_139(wf) -> None:
    state = scoring_example(wf)
    blue = state.score(2)
    assert blue == {
        "crates": 36,
        "board": 15,
        "sets": 5,
        "gears bonus": 60,  # 2 x 33 = 66, "but the maximum allowed for gears is 60 points"
        "coins bonus": 4,
        "crates bonus": 49,
        "debts": 0,  # "Blue pays off their debt by paying 8 rubles"
        "total": 169,
    }
    assert state.players[2].rubles == 4
    assert [state.score(p)["total"] for p in range(3)] == [103, 139, 169]
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (2,)
    assert outcome.reason == "points"


def test_majority_places_ties_share_first_and_leave_no_second() -> None:
    assert track_places([3, 2, 1]) == ([0], [1])
    assert track_places([2, 2, 1]) == ([0, 1], [])
    assert track_places([3, 1, 1]) == ([0], [1, 2])
    assert track_places([0, 0, 0]) == ([], [])


@pytest.mark.parametrize(
    ("hand", "points"),
    [
        ([0], 0),
        ([0, 1], 5),
        ([0, 1, 2], 10),
        ([0, 1, 2, 3], 20),  # "4 document cards in one color score 20 points"
        ([0, 1, 2, 3, 4], 30),
        ([0, 1, 2, 3, 4, 5], 40),
        ([0, 1, 2, 3, 4, 5, 6], 50),
        ([0, 7, 14, 21], 25),  # "If you have all four colors you score 25 points (once)."
        ([0, 1, 7, 8, 14, 21], 25 + 5 + 5),
    ],
)
def test_the_set_collection_table(wf, hand: list[int], points: int) -> None:
    state = wf.new(3)
    state.players[0].hand, state.players[0].played = hand[:1], hand[1:]  # "in your hand and in front of you"
    assert state.score(0)["sets"] == points


def test_the_most_points_wins_and_level_leaders_share(wf) -> None:
    import random

    for seed in range(4):
        state = wf.drive(wf.new(3), lambda s: s.is_terminal(), rng=random.Random(seed))
        outcome = state.outcome()
        assert outcome is not None
        scores = [stats["score"] for stats in outcome.stats]
        assert set(outcome.winners) == {p for p in range(3) if scores[p] == max(scores)}
        assert outcome.reason == ("shared" if len(outcome.winners) > 1 else "points")


# -- solo -----------------------------------------------------------------------------------------
def test_solo_setup_closes_the_office_puts_the_robot_on_smuggle_and_draws_a_solo_card(wf) -> None:
    state = wf.game.new_initial_state(seed=0, num_players=1)
    wf.play(state, "market 0", "market 1")
    assert [a for a, _ in state.chance_outcomes()] == [state.parse_action(f"solo card {k}") for k in range(6)]
    wf.play(state, "solo card 4")
    assert state.solo_card == 4
    assert state.spots[1] == data.SMUGGLE
    assert state.watches == 3
    assert state.players[0].hand == []
    assert state.doc_stack == []
    # "On first turn, you may choose any action spot other than SMUGGLE"; the office is closed.
    assert state.legal_actions() == [PLACE + s for s in (1, 2, 3, 4, 5)]


def solo_round_two(wf, spot: str = "produce gears", watch: str = "workshop") -> WatchFactoryState:
    state = wf.play(wf.new(1), f"place {spot}")
    assert state.is_chance_node()
    assert state.draws[0][0] == "watch"
    wf.play(state, f"random watch {watch}")
    return wf.drive(state, lambda s: s.is_chance_node() and s.draws[0][0] == "die")


@pytest.mark.parametrize(("roll", "spot"), [(5, data.SMUGGLE), (1, data.SELL), (6, data.SELL), (2, data.OVERTIME)])
def test_the_robot_rolls_a_5_to_stay_and_a_1_or_6_to_move_one_step(wf, roll: int, spot: int) -> None:
    state = solo_round_two(wf)
    wf.play(state, f"die {roll}")
    assert state.spots[1] == spot
    assert PLACE + spot not in state.legal_actions()
    assert PLACE + data.PRODUCE not in state.legal_actions()  # "Must be different from previous round."


def test_solo_tokens_go_to_the_supply_and_pay_bribes_three_rubles_for_each_missing(wf) -> None:
    state = solo_round_two(wf)
    assert state.players[0].supply == 1
    assert state.players[0].removed == [0, 1, 0, 0]
    wf.play(state, "die 5", "place overtime")  # the workshop card is revealed: caught
    assert "P0 was caught: pays 1 tokens and 0 rubles" in state.log
    assert state.players[0].supply == 0 + 1  # paid, then the overtime's own token
    state = solo_round_two(wf)
    state.players[0].removed = [0, 4, 0, 0]  # set directly: a bribe of 5 tokens
    rubles = state.players[0].rubles
    wf.play(state, "die 5", "place overtime")
    paid = 4 * data.SOLO_TOKEN_RUBLES
    debts = max(0, -(-(paid - rubles) // 5))
    assert state.players[0].supply == 0 + 1
    assert (state.players[0].debts, state.players[0].rubles) == (debts, rubles + 5 * debts - paid)


def test_solo_watches_go_the_first_three_times_the_office_card_shows_then_the_card(wf) -> None:
    def office_first(state: WatchFactoryState, legal: list[int]) -> int:
        office = DRAW_WATCH + data.OFFICE
        return office if office in legal else legal[0]

    state = wf.new(1)
    seen = []
    while state.round < 6:
        wf.drive(state, lambda s: s.round > len(seen) and not s.is_chance_node(), chance=office_first)
        seen.append((state.watches, list(state.watch_deck)))
    # Seen while placing, before each round's reveal: the office card shows in rounds 2, 3 and 4.
    assert [w for w, _ in seen] == [3, 3, 2, 1, 0, 0]
    assert seen[3][1] == [0, 1, 2, 3]
    assert seen[4][1] == [0, 1, 2]


def test_solo_has_no_office_row_upgrade(wf) -> None:
    state = wf.play(wf.new(1), "place upgrade")
    assert at_step(state, S_UPGRADE)
    assert state.legal_actions() == [DONE, *(UPGRADE_ROW + r for r in range(3))]


@pytest.mark.parametrize("card", range(6))
def test_solo_scores_crates_board_and_the_solo_cards_gears_rubles_tokens(wf, card: int) -> None:
    import random

    state = wf.drive(wf.new(1, solo_card=card), lambda s: s.is_terminal(), rng=random.Random(card))
    player, solo = state.players[0], data.SOLO_CARDS[card]
    lines = state.score(0)
    assert lines["gears"] == solo.gears[0] * (player.gears // solo.gears[1])
    assert lines["rubles"] == solo.rubles[0] * (player.rubles // solo.rubles[1])
    assert lines["tokens"] == solo.tokens[0] * (player.supply // solo.tokens[1])
    assert lines["crates"] == sum(player.crates)
    assert "sets" not in lines
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.reason == "solo"
    assert outcome.returns == (float(lines["total"]),)


def test_the_solo_benchmarks() -> None:
    assert [score for score, _ in data.SOLO_TITLES] == [75, 100, 125, 160]


def test_there_are_twelve_rounds() -> None:
    assert data.ROUNDS == 12
    assert len(data.MARKETS) == 12


def test_smuggle_icon_is_offered_only_with_the_gears(wf) -> None:
    state = wf.new(3)
    state.players[0].gears = 0
    wf.play(state, "place smuggle", "place sell gears", "place scrounge")
    assert SMUGGLE_ICON not in state.legal_actions()


def test_selling_is_asked_with_every_count_of_gears(wf) -> None:
    state = sell_first(wf)
    assert at_step(state, S_SELL)
    assert len(state.legal_actions()) == 3


def test_smuggle_is_not_offered_with_no_crate_left(wf) -> None:
    # Set up directly: every light brown crate is gone, so the box's "1 gear for a light brown crate"
    # (and no lower colour) has nothing to give.
    state = wf.new(3)
    for value in (1, 2, 3):
        state.stock[value] = 0
    wf.play(state, "place smuggle", "place sell gears", "place scrounge")
    assert state.step == "smuggle"
    assert SMUGGLE_ICON not in state.legal_actions()
    assert state.players[0].gears == 2  # nothing paid for nothing
