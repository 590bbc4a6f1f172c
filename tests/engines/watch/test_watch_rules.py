"""Each rule sentence of Watch, one behaviour per test.

engines/watch/RULES.md quotes the rulebook sentence by sentence and names the
test here that fails without each one. Most tests play on ``BOARD``, a fixed
dressing in which no two neighbouring squares share a colour, so a colour win
only happens where a test arranges it.
"""

from __future__ import annotations

import pytest

import engines
from engines import IllegalActionError, MalformedActionError
from engines.watch import WatchState
from engines.watch.game import COLOUR_CODES, COLOUR_NAMES, MOVE_BASE, SQUARE_INDEX

# Drawn like WatchState.render(): row 6 holds only b6, row 1 has no a1.
BOARD = """
6     YE
5  RD LB OR RD LB
4  LB PK RD DB OR
3  YE DG LG YE PK
2  DP LP OR LB DP
1     RD DB LG LP
"""

ALL_SQUARES = {
    *("a2", "a3", "a4", "a5"),
    *("b1", "b2", "b3", "b4", "b5", "b6"),
    *(f"{col}{row}" for col in "cde" for row in range(1, 6)),
}
RULEBOOK_TILES = {
    "dark-green": 1,
    "light-green": 2,
    "dark-purple": 2,
    "light-purple": 2,
    "pink": 2,
    "dark-blue": 2,
    "orange": 3,
    "yellow": 3,
    "red": 4,
    "light-blue": 4,
}


def tiles_of(grid: str) -> dict[str, str]:
    """Return square -> colour name for a board drawn as in ``BOARD``, top row first."""
    tiles = {}
    for line in grid.strip().splitlines():
        row = line[0]
        for index, col in enumerate("abcde"):
            code = line[3 + 3 * index : 5 + 3 * index].strip()
            if code:
                tiles[f"{col}{row}"] = COLOUR_NAMES[COLOUR_CODES.index(code)]
    return tiles


def new_game() -> WatchState:
    return engines.get("watch").new_initial_state()


def dressed(grid: str = BOARD) -> WatchState:
    """Return a game whose board was dressed with ``grid``'s tiles, top row first."""
    state = new_game()
    for square, colour in tiles_of(grid).items():
        state.apply_notation(f"{colour}@{square}")
    return state


def played(*notation: str) -> WatchState:
    """Return the game on ``BOARD`` after the pawn placements and moves in ``notation``."""
    state = dressed()
    for text in notation:
        state.apply_notation(text)
    return state


def legal(state: WatchState) -> set[str]:
    """Return the legal actions in notation, as a player reads them."""
    return {state.action_to_string(action) for action in state.legal_actions()}


def test_the_fixture_board_uses_the_rulebooks_tiles() -> None:
    tiles = tiles_of(BOARD)
    assert set(tiles) == ALL_SQUARES
    assert {colour: list(tiles.values()).count(colour) for colour in RULEBOOK_TILES} == RULEBOOK_TILES


# -- "a 5×5 board that has the square a1 removed and replaced at the top of the board as the extra square b6"


def test_it_has_a_five_by_five_board_with_a1_moved_up_to_b6() -> None:
    board = new_game().observation(0)["board"]
    assert set(board) == ALL_SQUARES
    assert "a1" not in board
    assert "b6" in board


def test_it_does_not_know_a_square_a1() -> None:
    with pytest.raises(MalformedActionError, match="'a1' is not a square"):
        new_game().parse_action("red@a1")


def test_it_puts_b6_directly_above_b5() -> None:
    assert legal(played("W@b5", "B@d3")) == {"b5-b6", "b5-b4", "b5-a5", "b5-c5"}
    # b6 has no squares beside it: its only way off is down the b file.
    assert legal(played("W@b6", "B@d2")) == {"b6-b5"}


def test_it_has_nothing_below_a2_or_left_of_b1() -> None:
    assert legal(played("W@a2", "B@d3")) == {"a2-a3", "a2-b2"}
    assert legal(played("W@b1", "B@d3")) == {"b1-b2", "b1-c1"}


def test_it_draws_b6_alone_on_the_top_row() -> None:
    lines = dressed().render().splitlines()
    assert lines[0].split() == ["a", "b", "c", "d", "e"]
    assert lines[1] == "  6       YE"
    assert lines[6] == "  1       RD   DB   LG   LP"


# -- "Twenty five tiles in ten colours ...: 1 dark green, 2 light green, ... 4 red, 4 light blue."


def test_it_supplies_the_rulebooks_twenty_five_tiles_in_ten_colours() -> None:
    assert new_game().observation(0)["supply"] == RULEBOOK_TILES


def test_it_counts_placed_tiles_out_of_the_supply() -> None:
    state = new_game()
    state.apply_notation("red@d4")
    assert state.observation(1)["supply"]["red"] == 3


# -- "each player in turn must place one of the 25 coloured tiles on a square of the playing area"


def test_it_has_player_a_dress_first_and_the_players_alternate() -> None:
    state = new_game()
    placers = []
    for square, colour in tiles_of(BOARD).items():
        placers.append(state.current_player())
        state.apply_notation(f"{colour}@{square}")
    assert placers == [0, 1] * 12 + [0]
    assert (placers.count(0), placers.count(1)) == (13, 12)


def test_it_lets_any_colour_go_on_any_square_at_the_start() -> None:
    state = new_game()
    assert state.phase == "dress"
    assert legal(state) == {f"{colour}@{square}" for colour in RULEBOOK_TILES for square in ALL_SQUARES}


def test_it_does_not_let_a_tile_go_on_a_square_that_has_one() -> None:
    state = new_game()
    state.apply_notation("red@d4")
    assert not any(name.endswith("@d4") for name in legal(state))
    assert len(legal(state)) == 10 * 24
    with pytest.raises(IllegalActionError, match="'yellow@d4' is not legal now"):
        state.apply_notation("yellow@d4")


def test_it_stops_offering_a_colour_once_its_tiles_are_used_up() -> None:
    state = new_game()
    state.apply_notation("dark-green@c3")
    assert not any(name.startswith("dark-green@") for name in legal(state))
    assert any(name.startswith("light-green@") for name in legal(state))
    with pytest.raises(IllegalActionError):
        state.apply_notation("dark-green@a2")


def test_it_leaves_no_choice_for_the_twenty_fifth_tile() -> None:
    # "Although the first player gets to place the 25th tile, the placement of
    # this tile is already determined."
    state = new_game()
    tiles = list(tiles_of(BOARD).items())
    for square, colour in tiles[:24]:
        state.apply_notation(f"{colour}@{square}")
    last_square, last_colour = tiles[24]
    assert state.current_player() == 0
    assert legal(state) == {f"{last_colour}@{last_square}"}


# -- "player A places the white pawn on any tile, followed by player B placing the black pawn"


def test_it_has_player_a_place_white_on_any_tile_once_the_board_is_dressed() -> None:
    state = dressed()
    assert state.phase == "white_pawn"
    assert state.current_player() == 0
    assert legal(state) == {f"W@{square}" for square in ALL_SQUARES}


def test_it_has_player_b_place_black_after_white() -> None:
    state = played("W@c3")
    assert state.phase == "black_pawn"
    assert state.current_player() == 1
    assert state.observation(1)["pawns"] == {"white": "c3", "black": None}


# -- "The black pawn may not initially be placed next to the white pawn (except diagonally) or on a tile of
#     the same colour."


@pytest.mark.parametrize("square", ["c4", "c2", "b3", "d3"])
def test_it_forbids_black_next_to_white(square: str) -> None:
    state = played("W@c3")
    with pytest.raises(IllegalActionError, match=f"'B@{square}' is not legal now"):
        state.apply_notation(f"B@{square}")
    assert state.phase == "black_pawn"


@pytest.mark.parametrize("square", ["b4", "d4", "b2", "d2"])
def test_it_allows_black_diagonally_next_to_white(square: str) -> None:
    state = played("W@c3", f"B@{square}")
    assert state.observation(0)["pawns"] == {"white": "c3", "black": square}


def test_it_forbids_black_on_a_tile_of_whites_colour() -> None:
    state = played("W@c3")  # light green, like d1
    with pytest.raises(IllegalActionError, match="'B@d1' is not legal now"):
        state.apply_notation("B@d1")
    assert legal(state) == {f"B@{square}" for square in ALL_SQUARES - {"c3", "c4", "c2", "b3", "d3", "d1"}}


# -- "Each player in turn moves their pawn from one coloured tile to the next in an up, down or sideways
#     direction, but never diagonally."


def test_it_has_white_move_first() -> None:
    state = played("W@c3", "B@e1")
    assert state.phase == "move"
    assert state.current_player() == 0
    assert all(name.startswith("c3-") for name in legal(state))


def test_it_has_the_players_take_turns_to_move() -> None:
    state = played("W@c3", "B@e1", "c3-c4")
    assert state.current_player() == 1
    assert legal(state) == {"e1-e2", "e1-d1"}


def test_it_moves_up_down_or_sideways_to_the_next_tile() -> None:
    assert legal(played("W@c3", "B@e1")) == {"c3-c4", "c3-c2", "c3-b3", "c3-d3"}


@pytest.mark.parametrize("target", ["b4", "d4", "b2", "d2"])
def test_it_never_moves_diagonally(target: str) -> None:
    state = played("W@c3", "B@e1")
    with pytest.raises(IllegalActionError, match=f"'c3-{target}' is not legal now; legal now: c3-c4"):
        state.apply_notation(f"c3-{target}")


# -- "Each time a player moves a playing pawn, the tile from which that pawn has just moved is removed from
#     the board and the game."


def test_it_removes_the_tile_a_pawn_leaves() -> None:
    state = played("W@c3", "B@e1", "c3-c4")
    assert state.observation(1)["board"]["c3"] is None
    assert state.observation(1)["board"]["c4"] == "red"
    assert "  3  YE   DG   ..   YE   PK" in state.render()


def test_it_does_not_bring_a_removed_tile_back_into_play() -> None:
    state = played("W@c3", "B@e1", "c3-c4", "e1-e2")
    assert "c4-c3" not in legal(state)
    assert state.observation(0)["supply"] == dict.fromkeys(RULEBOOK_TILES, 0)


# -- "Moves are made between tiles regardless of the number of empty spaces there may be between those tiles."


def test_it_moves_over_an_empty_square_to_the_next_tile() -> None:
    state = played("W@c3", "B@e1", "c3-c4", "e1-e2")
    assert legal(state) == {"c4-c5", "c4-c2", "c4-b4", "c4-d4"}
    state.apply_notation("c4-c2")
    assert state.observation(1)["pawns"]["white"] == "c2"


def test_it_stops_at_the_nearest_tile_beyond_the_gap() -> None:
    state = played("W@c3", "B@e1", "c3-c4", "e1-e2")
    with pytest.raises(IllegalActionError):
        state.apply_notation("c4-c1")


def test_it_moves_over_several_empty_squares() -> None:
    # The b file empties behind the pawns until Black on b6 looks down at b1.
    state = played("W@b3", "B@b5", "b3-b2", "b5-b4", "b2-b1")
    assert legal(state) == {"b4-b6", "b4-b1", "b4-a4", "b4-c4"}
    state.apply_notation("b4-b6")
    assert legal(state) == {"b1-b6", "b1-c1"}  # up over b2, b3, b4 and b5


# -- "A game is won when ... (1) A player moves onto the tile occupied by the opponent."


def test_it_ends_the_game_when_a_pawn_moves_onto_the_opponents_tile() -> None:
    state = played("W@e3", "B@e1", "e3-e2", "e1-e2")
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.reason) == (1, "capture")
    assert state.render().endswith("Black won (capture); moves White 1, Black 1")


def test_it_captures_across_empty_squares() -> None:
    state = played("W@b3", "B@b5", "b3-b2", "b5-b4", "b2-b1", "b4-b6", "b1-b6")
    assert (state.outcome().winner, state.outcome().reason) == (0, "capture")


# -- "(2) A player moves onto a tile of the same colour as that occupied by the opponent."


def test_it_ends_the_game_when_a_pawn_moves_onto_a_tile_of_the_opponents_colour() -> None:
    state = played("W@c3", "B@d5", "c3-c4")  # both red
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.reason) == (0, "colour")
    assert state.observation(1)["board"]["c4"] == state.observation(1)["board"]["d5"] == "red"


def test_it_goes_on_when_the_colours_differ() -> None:
    state = played("W@c3", "B@e1", "c3-c4")
    assert not state.is_terminal()


# -- "(3) The opponent is unable to move."


def test_it_ends_the_game_when_the_opponent_cannot_move() -> None:
    # Black on b6 can only go down the b file; White leaving b1 empties it.
    state = played("W@b3", "B@b5", "b3-b2", "b5-b4", "b2-b1", "b4-b6", "b1-c1")
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.reason) == (0, "no_moves")
    assert state.render().endswith("White won (no_moves); moves White 3, Black 2")


def test_it_does_not_end_a_lost_game_before_the_winning_move() -> None:
    # Black on b6 is lost whatever White does, but the game is played out.
    state = played("W@b3", "B@b5", "b3-b2", "b5-b4", "b2-b1", "b4-b6")
    assert not state.is_terminal()
    assert state.outcome() is None
    assert state.returns() == [0.0, 0.0]


# -- what a finished game records


def test_it_records_the_winner_the_reason_and_each_players_moves() -> None:
    state = played("W@e3", "B@e1", "e3-e2", "e1-e2")
    assert state.outcome().to_json() == {
        "winners": [1],
        "reason": "capture",
        "returns": [-1.0, 1.0],
        "stats": [{"pawn": "white", "moves": 1}, {"pawn": "black", "moves": 1}],
    }


def test_it_does_not_count_pawn_placements_as_moves() -> None:
    state = played("W@c3", "B@e1")
    assert state.observation(0)["moves"] == {"white": 0, "black": 0}
    state.apply_notation("c3-c4")
    assert state.observation(0)["moves"] == {"white": 1, "black": 0}


def test_it_records_every_action_of_the_game() -> None:
    state = played("W@e3", "B@e1", "e3-e2", "e1-e2")
    assert len(state.history) == 25 + 2 + 2
    dressing = [state.action_to_string(action) for action in state.history[:25]]
    assert dressing == [f"{colour}@{square}" for square, colour in tiles_of(BOARD).items()]
    assert [state.action_to_string(action) for action in state.history[25:27]] == ["W@e3", "B@e1"]
    assert state.history[27:] == [MOVE_BASE + SQUARE_INDEX["e2"]] * 2


def test_it_allows_nothing_once_the_game_is_over() -> None:
    state = played("W@c3", "B@d5", "c3-c4")
    assert state.legal_actions() == []
    assert state.phase == "over"
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_checked(MOVE_BASE + SQUARE_INDEX["c5"])
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_notation("c4-c5")


# -- the checked path


def test_it_names_an_illegal_move_and_the_legal_ones_and_changes_nothing() -> None:
    state = played("W@c3", "B@e1")
    before = state.to_json()
    with pytest.raises(IllegalActionError) as caught:
        state.apply_checked(MOVE_BASE + SQUARE_INDEX["b4"])
    assert str(caught.value) == "c3-b4 (action 307) is not legal now; legal now: c3-c4, c3-c2, c3-b3, c3-d3"
    assert state.to_json() == before


def test_it_names_a_malformed_action_and_the_legal_ones_and_changes_nothing() -> None:
    state = played("W@c3", "B@e1")
    before = state.to_json()
    with pytest.raises(MalformedActionError, match=r"not str 'c3-c4'; legal now: c3-c4, c3-c2, c3-b3, c3-d3"):
        state.apply_checked("c3-c4")
    assert state.to_json() == before
