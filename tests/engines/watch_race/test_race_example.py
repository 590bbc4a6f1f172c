"""The rulebook's worked example (Carole, Florence and Roberto), played through the engine.

The example ends on the sixth turn, with two pawns near the end of the lap;
on the default ring of 30 each of them needs two moves to get there, more
than six turns hold, so it is played on a ring of 24 squares with yellow
squares at 8 and 16. Seats: P0 Florence, P1 Roberto,
P2 Dave (a fourth player), P3 Carole; 22 tokens each.
"""

from __future__ import annotations

from collections.abc import Callable

from engines.watch_race import WatchRaceState

SetUp = Callable[..., WatchRaceState]

RING = {"ring_length": 24, "yellow_squares": [8, 16]}
FLORENCE, ROBERTO, DAVE, CAROLE = 0, 1, 2, 3
# Round the table: Florence GBO, Roberto BOG, Dave OGB, Carole GOB; BGO and OBG set aside.
DEAL = ["GBO", "BOG", "OGB", "GOB", "BGO", "OBG"]


def before_florence(set_up: SetUp) -> WatchRaceState:
    state = set_up(4, DEAL, timer=6, config=RING)
    for move in ("B+14", "G+20", "O+21", "G+3"):
        state.apply_notation(move)
    return state


def test_it_ranks_green_orange_blue_so_carole_has_the_advantage(set_up: SetUp) -> None:
    state = before_florence(set_up)
    assert state.observation(CAROLE)["positions"] == {"G": 23, "B": 14, "O": 21}
    assert state.observation(CAROLE)["order"] == "GOB"
    assert state.observation(CAROLE)["cards"] == ["GOB"]
    assert state.current_player() == FLORENCE


def test_it_makes_orange_last_once_it_crosses_the_start(set_up: SetUp) -> None:
    state = before_florence(set_up)
    state.apply_notation("O+5")
    observation = state.observation(FLORENCE)
    assert observation["positions"]["O"] == 2
    assert observation["order"] == "GBO"  # orange was second, now third
    assert observation["cards"] == ["GBO"]  # "So now, Florence has got the advantage!"
    assert observation["tokens"][FLORENCE] == 22 - 14 - 5


def test_it_lets_roberto_swap_with_florence_on_the_yellow_square_and_win(set_up: SetUp) -> None:
    state = before_florence(set_up)
    state.apply_notation("O+5")
    state.apply_notation("B+2")
    assert state.positions[1] == 16
    assert state.phase == "swap"
    assert state.current_player() == ROBERTO
    state.apply_notation("swap 0 with P0")
    assert state.observation(ROBERTO)["cards"] == ["GBO"]
    assert state.observation(FLORENCE)["cards"] == ["BOG"]
    # "Suddenly the Timer rings !!!": the sixth turn was the last.
    outcome = state.outcome()
    assert outcome is not None
    assert state.observation(DAVE)["order"] == "GBO"
    assert outcome.winners == (ROBERTO,)
    assert outcome.reason == "timer"
    assert outcome.stats[ROBERTO]["swaps"] == 1


def test_it_gives_florence_the_game_if_roberto_keeps_his_card(set_up: SetUp) -> None:
    state = before_florence(set_up)
    for move in ("O+5", "B+2", "keep"):
        state.apply_notation(move)
    assert state.outcome().winners == (FLORENCE,)  # type: ignore[union-attr]
