"""Each rule of the Watch race, one behaviour per test (RULES.md names them)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import engines
from engines import CHANCE, ConfigError, IllegalActionError, MalformedActionError, StateFormatError
from engines.watch_race import WatchRaceState
from engines.watch_race.game import CARD_NAMES, DEAL_BASE, KEEP, TIMER_BASE, move_action, swap_action

SetUp = Callable[..., WatchRaceState]


def play(state: WatchRaceState, *moves: str) -> WatchRaceState:
    for move in moves:
        state.apply_notation(move)
    return state


# -- material and set-up --------------------------------------------------------


def test_it_has_six_objective_cards_one_per_order_of_the_pawns() -> None:
    assert CARD_NAMES == ("GBO", "GOB", "BGO", "BOG", "OGB", "OBG")


@pytest.mark.parametrize(("num_players", "tokens"), [(2, 45), (3, 30), (4, 22), (5, 18), (6, 15)])
def test_it_divides_the_ninety_tokens_equally_and_sets_the_rest_aside(
    set_up: SetUp, num_players: int, tokens: int
) -> None:
    assert set_up(num_players).observation(0)["tokens"] == [tokens] * num_players


@pytest.mark.parametrize(
    ("num_players", "hand_sizes", "pile_size"),
    [(2, [3, 3], 0), (3, [2, 2, 2], 0), (4, [1] * 4, 2), (5, [1] * 5, 1), (6, [1] * 6, 0)],
)
def test_it_deals_several_cards_each_below_four_players_and_one_each_from_four(
    set_up: SetUp, num_players: int, hand_sizes: list[int], pile_size: int
) -> None:
    observation = set_up(num_players).observation(0)
    assert observation["hand_sizes"] == hand_sizes
    assert observation["pile_size"] == pile_size


def test_it_deals_round_the_table_then_sets_the_rest_aside(set_up: SetUp) -> None:
    state = set_up(2, ["GBO", "GOB", "BGO", "BOG", "OGB", "OBG"])
    assert state.observation(0)["cards"] == ["GBO", "BGO", "OGB"]
    assert state.observation(1)["cards"] == ["GOB", "BOG", "OBG"]
    state = set_up(4, ["OBG", "OGB", "BOG", "BGO", "GOB", "GBO"])
    assert [state.observation(p)["cards"] for p in range(4)] == [["OBG"], ["OGB"], ["BOG"], ["BGO"]]
    assert state.to_json()["pile"] == ["GOB", "GBO"]


def test_it_draws_the_deal_and_the_timer_as_chance_nodes() -> None:
    state = engines.get("watch_race").new_initial_state(num_players=3)
    for dealt in range(6):
        assert state.current_player() == CHANCE
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 6 - dealt
        assert all(p == pytest.approx(1 / (6 - dealt)) for _, p in outcomes)
        state.apply_action(outcomes[-1][0])
    assert state.phase == "timer"
    assert [a - TIMER_BASE + 1 for a, _ in state.chance_outcomes()] == list(range(5, 46))
    state.apply_action(TIMER_BASE + 9)
    assert state.current_player() == 0


def test_it_draws_the_timer_from_the_configured_range() -> None:
    state = engines.get("watch_race", {"timer_turns": [3, 4]}).new_initial_state()
    for card in range(6):
        state.apply_action(DEAL_BASE + card)
    assert state.chance_outcomes() == [(TIMER_BASE + 2, 0.5), (TIMER_BASE + 3, 0.5)]


def test_it_starts_all_three_pawns_on_the_start_square_ranked_green_blue_orange(set_up: SetUp) -> None:
    observation = set_up(2).observation(0)
    assert observation["positions"] == {"G": 0, "B": 0, "O": 0}
    assert observation["order"] == "GBO"


# -- moving -------------------------------------------------------------------------


def test_it_has_player_zero_start_and_the_players_take_turns(set_up: SetUp) -> None:
    state = set_up(3)
    seen = []
    for move in ("G+1", "B+2", "O+3", "G+4"):
        seen.append(state.current_player())
        state.apply_notation(move)
    assert seen == [0, 1, 2, 0]


def test_it_moves_a_pawn_clockwise_by_the_tokens_spent(set_up: SetUp) -> None:
    state = play(set_up(2), "B+7")
    assert state.observation(1)["positions"] == {"G": 0, "B": 7, "O": 0}
    assert state.observation(1)["tokens"] == [38, 45]


def test_it_offers_every_pawn_from_one_square_to_all_the_tokens(set_up: SetUp) -> None:
    legal = set_up(6).legal_actions()
    assert legal == [move_action(pawn, steps) for pawn in range(3) for steps in range(1, 16)]


def test_it_lets_a_pawn_pass_over_another_but_not_stop_on_it(set_up: SetUp) -> None:
    state = play(set_up(2), "G+5")
    assert "B+5" not in {state.action_to_string(a) for a in state.legal_actions()}
    with pytest.raises(IllegalActionError, match=r"'B\+5' is not legal now: it would stop on square 5, where G stands"):
        state.apply_notation("B+5")
    play(state, "B+6")
    assert state.positions == [5, 6, 0]


def test_it_names_what_is_legal_when_it_refuses_a_move(set_up: SetUp) -> None:
    state = play(set_up(2), "G+5")
    with pytest.raises(IllegalActionError, match=r"where G stands; legal now: G\+1, G\+2, .* and \d+ more") as caught:
        state.apply_checked(move_action(1, 5))
    assert "B+5 (action 49) is not legal now" in str(caught.value)
    assert state.positions == [5, 0, 0]


def test_it_refuses_to_spend_more_tokens_than_the_player_has(set_up: SetUp) -> None:
    state = set_up(6)
    with pytest.raises(IllegalActionError, match="P0 has 15 tokens left"):
        state.apply_notation("G+16")


def test_it_refuses_a_return_to_the_start_square_while_other_pawns_are_still_there(set_up: SetUp) -> None:
    state = set_up(2, config={"ring_length": 8, "yellow_squares": [4]})
    with pytest.raises(IllegalActionError, match="it would stop on square 0, where B stands"):
        state.apply_notation("G+8")
    play(state, "G+9")
    assert state.positions == [1, 0, 0]


def test_it_skips_a_player_with_no_tokens_left(set_up: SetUp) -> None:
    state = play(set_up(3, config={"ring_length": 60, "yellow_squares": [20, 40]}), "G+30", "B+1", "O+2")
    assert state.current_player() == 1  # P0 spent everything: rule 5
    play(state, "B+2", "O+2")
    assert state.current_player() == 1


def test_it_never_offers_a_swap_except_right_after_landing_on_yellow(set_up: SetUp) -> None:
    state = set_up(4)
    assert KEEP not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="a swap is offered only right after landing on a yellow square"):
        state.apply_notation("keep")


# -- order of the pawns ---------------------------------------------------------------


def test_it_ranks_the_pawns_furthest_along_first(set_up: SetUp) -> None:
    state = play(set_up(2), "O+9", "G+3")
    assert state.observation(0)["order"] == "OGB"  # blue is still on the start square


def test_it_breaks_the_tie_on_the_start_square_green_before_blue_before_orange(set_up: SetUp) -> None:
    assert play(set_up(2), "B+1").observation(0)["order"] == "BGO"
    assert play(set_up(2), "G+1").observation(0)["order"] == "GBO"
    assert play(set_up(2), "O+1").observation(0)["order"] == "OGB"


def test_it_makes_a_pawn_that_reaches_the_start_square_last_at_once(set_up: SetUp) -> None:
    state = play(set_up(2, config={"ring_length": 12, "yellow_squares": [6]}), "G+5", "B+4", "O+3", "G+7")
    assert state.positions == [0, 4, 3]
    assert state.observation(0)["order"] == "BOG"


# -- yellow squares and swaps ---------------------------------------------------------


def test_it_offers_the_mover_a_swap_after_landing_on_a_yellow_square(set_up: SetUp) -> None:
    state = play(set_up(2), "G+20")
    assert state.phase == "swap"
    assert state.current_player() == 0
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    assert legal[0] == "keep"
    assert len(legal) == 1 + 3 * 3  # any own card with any of the opponent's three
    assert "swap 2 with P1.1" in legal


def test_it_swaps_with_another_players_chosen_card_and_each_sees_what_they_received(set_up: SetUp) -> None:
    state = play(set_up(2, ["GBO", "GOB", "BGO", "BOG", "OGB", "OBG"]), "G+20", "swap 1 with P1.2")
    assert state.observation(0)["cards"] == ["GBO", "OBG", "OGB"]
    assert state.observation(1)["cards"] == ["GOB", "BOG", "BGO"]
    assert state.observation(0)["swaps"] == [
        {"turn": 1, "player": 0, "slot": 1, "with": 1, "their_slot": 2, "received": "OBG"}
    ]
    assert state.observation(1)["swaps"] == [
        {"turn": 1, "player": 0, "slot": 1, "with": 1, "their_slot": 2, "received": "BGO"}
    ]
    assert state.current_player() == 1


def test_it_swaps_with_a_face_down_card_that_only_the_mover_then_sees(set_up: SetUp) -> None:
    state = play(set_up(4, ["GBO", "GOB", "BGO", "BOG", "OGB", "OBG"]), "G+20", "swap 0 with pile 1")
    assert state.observation(0)["cards"] == ["OBG"]
    assert state.to_json()["pile"] == ["OGB", "GBO"]
    assert state.observation(0)["swaps"] == [{"turn": 1, "player": 0, "slot": 0, "pile": 1, "received": "OBG"}]
    assert state.observation(2)["swaps"] == [{"turn": 1, "player": 0, "slot": 0, "pile": 1}]


def test_it_records_a_declined_swap_as_no_swap(set_up: SetUp) -> None:
    state = play(set_up(4), "G+20", "keep")
    assert state.observation(0)["swaps"] == []
    assert state.current_player() == 1


def test_it_asks_which_card_when_the_other_player_holds_several(set_up: SetUp) -> None:
    state = play(set_up(2), "G+40")
    with pytest.raises(IllegalActionError, match=r"P1 holds 3 cards: name one, P1.0 or P1.1 or P1.2"):
        state.apply_notation("swap 0 with P1")
    assert state.parse_action("swap 0 with P1.1") == swap_action(0, 1, 1)


# -- the timer and the end --------------------------------------------------------------


def test_it_stops_at_once_when_the_timer_rings_even_with_tokens_left(set_up: SetUp) -> None:
    state = play(set_up(2, timer=3), "G+1", "B+2")
    assert not state.is_terminal()
    play(state, "O+3")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.reason == "timer"
    assert state.observation(0)["order"] == "OBG"
    assert outcome.winners == (1,)  # P1 was dealt GOB, BOG and OBG
    assert [s["tokens_left"] for s in outcome.stats] == [41, 43]
    assert state.legal_actions() == []


def test_it_lets_the_mover_decide_on_a_swap_before_the_timer_rings(set_up: SetUp) -> None:
    state = play(set_up(2, timer=1), "B+20")
    assert state.phase == "swap"
    play(state, "swap 0 with P1.0")  # P0 gives GBO for GOB
    assert state.observation(0)["order"] == "BGO"
    assert state.outcome().winners == (0,)  # type: ignore[union-attr]


def test_it_ends_when_nobody_can_move_any_more(set_up: SetUp) -> None:
    state = play(set_up(2), "G+45", "B+44")
    assert state.current_player() == 1  # P0 has no tokens left
    play(state, "O+1")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.reason == "tokens_out"
    assert outcome.winners == (0,)  # GBO
    assert outcome.returns == (1.0, -1.0)


def test_it_replays_with_a_fresh_deal_when_the_winning_card_is_set_aside(set_up: SetUp) -> None:
    state = play(set_up(4, ["OBG", "OGB", "BOG", "BGO", "GOB", "GBO"], timer=1), "G+1")
    assert not state.is_terminal()
    assert state.current_player() == CHANCE
    observation = state.observation(2)
    assert observation["round"] == 2
    assert observation["replays"] == 1
    assert observation["previous_rounds"] == [{"order": "GBO", "reason": "timer"}]
    assert observation["positions"] == {"G": 0, "B": 0, "O": 0}
    assert observation["tokens"] == [22] * 4
    assert observation["cards"] == []
    for card in ["GBO", "OGB", "BOG", "BGO", "GOB", "OBG"]:
        state.apply_notation(f"deal {card}")
    play(state, "timer 1", "G+1")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (0,)
    assert [s["replays"] for s in outcome.stats] == [1] * 4


def test_it_draws_for_everyone_after_the_replay_cap(set_up: SetUp) -> None:
    state = play(set_up(5, ["OBG", "OGB", "BOG", "BGO", "GOB", "GBO"], timer=1, config={"max_replays": 0}), "G+1")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == ()
    assert outcome.reason == "draw_cap"
    assert outcome.returns == (0.0,) * 5


def test_it_counts_each_players_moves_swaps_and_tokens_left(set_up: SetUp) -> None:
    state = play(set_up(3, timer=4), "G+20", "swap 0 with P2.1", "B+1", "O+2", "G+3")
    stats = state.outcome().stats  # type: ignore[union-attr]
    assert [(s["moves"], s["swaps"], s["tokens_left"]) for s in stats] == [(2, 1, 7), (1, 0, 29), (1, 0, 28)]


def test_it_shares_out_minus_one_among_the_losers() -> None:
    state = engines.get("watch_race").new_initial_state(num_players=3)
    rng = random.Random(5)
    while not state.is_terminal():
        engines.resolve_chance(state, rng) if state.is_chance_node() else state.apply_action(
            rng.choice(state.legal_actions())
        )
    assert sorted(state.returns()) == [-0.5, -0.5, 1.0]


# -- notation, configuration, saving ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action"),
    [("G+5", move_action(0, 5)), ("b + 12", move_action(1, 12)), ("orange+1", move_action(2, 1)), ("keep", KEEP)],
)
def test_it_reads_moves_and_keep(set_up: SetUp, text: str, action: int) -> None:
    state = play(set_up(2), "G+20") if action == KEEP else set_up(2)
    assert state.parse_action(text) == action
    assert state.parse_action(state.action_to_string(action)) == action


def test_it_writes_every_kind_of_action() -> None:
    state = engines.get("watch_race").new_initial_state()
    assert [state.action_to_string(a) for a in (0, 134, KEEP, swap_action(2, 5, 1), swap_action(0, pile=1))] == [
        "G+1",
        "O+45",
        "keep",
        "swap 2 with P5.1",
        "swap 0 with pile 1",
    ]
    assert state.action_to_string(DEAL_BASE + 5) == "deal OBG"
    assert state.action_to_string(TIMER_BASE) == "timer 1"


@pytest.mark.parametrize("text", ["X+5", "G-5", "swap", "pass", "", "deal GGG"])
def test_it_refuses_text_that_is_not_notation(set_up: SetUp, text: str) -> None:
    with pytest.raises(MalformedActionError):
        set_up(2).parse_action(text)


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"ring_length": 3}, "ring_length must be an integer from 4"),
        ({"yellow_squares": [0]}, "yellow_squares must be distinct squares from 1 to 29"),
        ({"yellow_squares": [31]}, "yellow_squares must be distinct"),
        ({"timer_turns": [10, 5]}, "timer_turns must be"),
        ({"timer_turns": [0, 5]}, "timer_turns must be"),
        ({"max_replays": -1}, "max_replays must be"),
        (
            {"tokens": 80},
            r"unknown config key\(s\) tokens; known: max_replays, ring_length, timer_turns, yellow_squares",
        ),
    ],
)
def test_it_refuses_a_bad_configuration(config: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        engines.get("watch_race", config)


def test_it_documents_its_default_configuration() -> None:
    assert engines.get("watch_race").config == {
        "ring_length": 30,
        "yellow_squares": [10, 20],
        "timer_turns": [5, 45],
        "max_replays": 10,
    }


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_it_plays_with_two_to_six_players(num_players: int) -> None:
    assert engines.get("watch_race").new_initial_state(num_players=num_players).num_players == num_players


@pytest.mark.parametrize("num_players", [1, 7])
def test_it_refuses_other_player_counts(num_players: int) -> None:
    with pytest.raises(ConfigError, match=f"watch_race is for 2 to 6 players, not {num_players}"):
        engines.get("watch_race").new_initial_state(num_players=num_players)


def test_it_restores_a_saved_game_exactly_with_its_config_and_players(set_up: SetUp) -> None:
    state = play(set_up(5, timer=9, config={"ring_length": 30, "yellow_squares": [10]}), "G+10", "keep", "B+3")
    restored = engines.get("watch_race").state_from_json(state.to_json())
    assert restored == state
    assert restored.to_json() == state.to_json()
    assert restored.observation(3) == state.observation(3)


def test_it_refuses_a_saved_game_with_an_illegal_action(set_up: SetUp) -> None:
    data = play(set_up(2), "G+5").to_json()
    data["history"].append(move_action(1, 5))
    with pytest.raises(StateFormatError, match=r"history\[8\]: B\+5 .* where G stands"):
        engines.get("watch_race").state_from_json(data)


def test_it_draws_the_ring_with_the_start_yellow_squares_and_pawns(set_up: SetUp) -> None:
    drawing = play(set_up(2), "G+5", "O+10").render()
    lines = drawing.splitlines()
    assert lines[0] == "B  .  .  .  .  G  .  ."
    assert lines[3].endswith("O")  # square 10, the first yellow square, on the right side
    assert lines[8] == ".  .  Y  .  .  .  .  ."  # square 20, the second, along the bottom
    assert "pawns: G on 5, B on 0, O on 10; order first to last: OGB" in drawing
    assert "P1 to decide on a swap" in drawing


@pytest.mark.parametrize("config", [[1], "ring", 5])
def test_a_config_that_is_not_a_mapping_is_a_config_error_everywhere(config: object) -> None:
    game = engines.get("watch_race")
    with pytest.raises(ConfigError, match="config must be a mapping"):
        game.new_initial_state(config=config)  # type: ignore[arg-type]
    with pytest.raises(StateFormatError, match="config must be a mapping"):
        game.state_from_json({"game": "watch_race", "history": [], "config": config})
