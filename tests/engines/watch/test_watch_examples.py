"""The rulebook's two example games, replayed on the engine.

What the text fixes: which player placed a tile on each square and in what
order, where the pawns started, and every square each pawn visited. That is
enough to check each move's geometry, in particular every move that passes
over squares emptied earlier, whatever the colours were. Those tests use only
which squares still hold a tile.

What the text does not fix: the colours. They were in diagrams that are lost.
The notes make claims that depend on them ("c2-c1 is a forced move", "B can
only move to the red on e4; any other move loses"). ``GAME_1_BOARD`` and
``GAME_2_BOARD`` are reconstructions, not the originals. They were found by
``search`` at the bottom of this module (run
``PYTHONPATH=. .venv/bin/python tests/engines/watch/test_watch_examples.py``, about a
minute): colourings with the rulebook's tile counts and the colours the notes
name, under which the engine bears out every claim of the notes. The claims
are the ``claim_*`` functions, which the tests assert on the reconstructions.
"Forced" and "any other move loses" are read as: every other move lets the
opponent win on the next move. A move marked "wins" ends the game or leaves
the opponent only moves that lose at once. The reconstruction shows that the
notes are consistent with these rules; it cannot show that they are consistent
with the lost diagrams.

Typos and contradictions in the text:

* Game 1's tile lists name c2 and e3 twice (A and B both list them) and c4
  and e2 never. The moves visit c4 and e2, so every square had a tile; we read
  B's "c2" as c4 and B's "e3" as e2. Reading A's entries as the typos instead
  changes only the order of the dressing, not the board.
* Game 1's "better, but still losing" line (A: b3, c3, d3, e3, e2, e4, c4,
  c2, d2; B: d4, e4, e5, d5, c5, b5, b6, b4) cannot be played: White's e2-e4
  needs the e4 tile, which was removed when Black played e4-e5 on Black's
  second move. Nor can any single square replace White's "e4": from e2 only
  d2 and e1 are reachable, and neither reaches c4. We check the line up to
  Black's d5-c5, Black's own continuation c5-b5-b6-b4, that e2-e4 is refused,
  and that after Black's better e4-e5 White still wins with best play.
* Game 2's "b4 wins" does not end the game: note 5 says the last two moves
  would be played out when scoring, and the engine plays every game to the end.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence

import pytest

import engines
from engines import IllegalActionError
from engines.watch import WatchState
from engines.watch.game import (
    COLOUR_CODES,
    COLOUR_NAMES,
    EMPTY,
    NEIGHBOURS,
    NUM_SQUARES,
    SQUARE_INDEX,
    SQUARE_NAMES,
    TILE_COUNTS,
    destinations,
)

Colours = Mapping[str, str]

# -- what the text prints ---------------------------------------------------------------------------------------------

# Game 1, "-tiles:" columns, in the order placed; B's c2 and e3 corrected to c4 and e2 (see the docstring).
GAME_1_TILES_A = ("b1", "e4", "d4", "c3", "b5", "d3", "e3", "c2", "b3", "e1", "b4", "a5", "d2")
GAME_1_TILES_B = ("d5", "a4", "d1", "b6", "c5", "e5", "c4", "a2", "e2", "a3", "c1", "b2")
GAME_1_PAWNS = ("W@b3", "B@d4")
GAME_1_MOVES = ("b3-c3", "d4-e4", "c3-d3", "e4-c4", "d3-d5", "c4-b4", "d5-d2")  # "d2 wins"
# The "better, but still losing" line as far as it can be played, then White's impossible e2-e4.
GAME_1_BETTER_LINE = ("b3-c3", "d4-e4", "c3-d3", "e4-e5", "d3-e3", "e5-d5", "e3-e2", "d5-c5")
# Note 1: "The two light blue pairs b5/c5 and b2/c2"; note 2: "the single dark green (c3)", "the red on e4".
GAME_1_NAMED_COLOURS = {
    "b5": "light-blue",
    "c5": "light-blue",
    "b2": "light-blue",
    "c2": "light-blue",
    "c3": "dark-green",
    "e4": "red",
}

GAME_2_TILES_A = ("b6", "a4", "b2", "c5", "b4", "b3", "d5", "e5", "e4", "e3", "a3", "c4", "a5")
GAME_2_TILES_B = ("e2", "d4", "d3", "c1", "c3", "d2", "e1", "a2", "d1", "b1", "c2", "b5")
GAME_2_PAWNS = ("W@c2", "B@d3")
GAME_2_MOVES = (
    *("c2-c1", "d3-d2", "c1-b1", "d2-e2", "b1-d1", "e2-e3", "d1-d4"),
    *("e3-c3", "d4-e4", "c3-b3", "e4-c4", "b3-b2", "c4-c5", "b2-b4"),  # "b4 wins"
)
# Note 5: "the last two moves e.g. either c5-d5, b4-a4 or c5-b5, b4-b5 would be played out".
GAME_2_PLAYED_OUT = (("c5-d5", "b4-a4"), ("c5-b5", "b4-b5"))

# -- the reconstructed colourings (see the docstring: not the lost originals) ----------------------------------------
# Printed by this module's __main__ (seed 0 for both games).

GAME_1_BOARD = """
6     LG
5  RD LB LB YE DP
4  PK LP OR DB RD
3  OR YE DG YE LG
2  DB LB LB RD PK
1     RD OR LP DP
"""

GAME_2_BOARD = """
6     DB
5  PK DG DP LB RD
4  LB RD LB YE LG
3  LG LP OR DB RD
2  YE OR DP YE LP
1     RD PK LB OR
"""


def tiles_of(grid: str) -> dict[str, str]:
    """Return square -> colour name for a board drawn like WatchState.render(), top row first."""
    tiles = {}
    for line in grid.strip().splitlines():
        row = line[0]
        for index, col in enumerate("abcde"):
            code = line[3 + 3 * index : 5 + 3 * index].strip()
            if code:
                tiles[f"{col}{row}"] = COLOUR_NAMES[COLOUR_CODES.index(code)]
    return tiles


def grid_of(colours: Colours) -> str:
    """Return ``colours`` drawn as in ``GAME_1_BOARD`` (the inverse of ``tiles_of``)."""
    lines = []
    for row in range(6, 0, -1):
        cells = [
            COLOUR_CODES[COLOUR_NAMES.index(colours[f"{c}{row}"])] if f"{c}{row}" in colours else "  " for c in "abcde"
        ]
        lines.append(f"{row}  " + " ".join(cells).rstrip())
    return "\n" + "\n".join(lines) + "\n"


GAME_1_COLOURS = tiles_of(GAME_1_BOARD)
GAME_2_COLOURS = tiles_of(GAME_2_BOARD)

# -- helpers ----------------------------------------------------------------------------------------------------------


def dressing_order(tiles_a: Sequence[str], tiles_b: Sequence[str]) -> list[str]:
    """Return the squares in the order they were dressed: A, B, A, ... (A places the 25th)."""
    order = []
    for index, square in enumerate(tiles_a):
        order.append(square)
        if index < len(tiles_b):
            order.append(tiles_b[index])
    return order


def start(order: Sequence[str], colours: Colours, pawns: Sequence[str]) -> WatchState:
    """Return the game after dressing ``order`` with ``colours`` and placing ``pawns``, all checked."""
    state = engines.get("watch").new_initial_state()
    for square in order:
        state.apply_notation(f"{colours[square]}@{square}")
    for pawn in pawns:
        state.apply_notation(pawn)
    return state


def after(state: WatchState, moves: Iterable[str]) -> WatchState:
    """Return a copy of ``state`` after ``moves``; fail if the game ends before the last of them."""
    state = state.clone()
    for move in moves:
        assert not state.is_terminal(), f"the game ended ({state.outcome()}) before {move}"
        state.apply_notation(move)
    return state


def game_1(moves: Iterable[str] = (), colours: Colours = GAME_1_COLOURS) -> WatchState:
    return after(start(dressing_order(GAME_1_TILES_A, GAME_1_TILES_B), colours, GAME_1_PAWNS), moves)


def game_2(moves: Iterable[str] = (), colours: Colours = GAME_2_COLOURS) -> WatchState:
    return after(start(dressing_order(GAME_2_TILES_A, GAME_2_TILES_B), colours, GAME_2_PAWNS), moves)


def moves_of(state: WatchState) -> set[str]:
    return {state.action_to_string(action) for action in state.legal_actions()}


def winning_moves(state: WatchState) -> set[str]:
    """Return the moves that win the game at once for the player to move."""
    mover = state.current_player()
    wins = set()
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if child.is_terminal() and child.outcome().winner == mover:
            wins.add(state.action_to_string(action))
    return wins


def losing_moves(state: WatchState) -> set[str]:
    """Return the moves after which the opponent can win at once."""
    losing = set()
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if not child.is_terminal() and winning_moves(child):
            losing.add(state.action_to_string(action))
    return losing


def best_play_winner(state: WatchState, known: dict[tuple[object, ...], int] | None = None) -> int:
    """Return the player who wins from ``state`` if both play perfectly."""
    if state.is_terminal():
        return state.outcome().winner
    known = {} if known is None else known
    mover = state.current_player()
    key = (*state.tiles, *state.pawns, mover)
    if key not in known:
        known[key] = 1 - mover
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            if best_play_winner(child, known) == mover:
                known[key] = mover
                break
    return known[key]


def same_colour_neighbours(colours: Colours) -> set[frozenset[str]]:
    """Return the pairs of orthogonally neighbouring squares whose tiles share a colour."""
    pairs = set()
    for square in SQUARE_NAMES:
        for neighbour in NEIGHBOURS[SQUARE_INDEX[square]]:
            if colours[square] == colours[SQUARE_NAMES[neighbour]]:
                pairs.add(frozenset((square, SQUARE_NAMES[neighbour])))
    return pairs


def walk(pawns: Sequence[str], moves: Sequence[str]) -> dict[str, list[str]]:
    """Replay ``moves`` knowing only which squares hold a tile; return the empty squares each move passes over.

    Fails unless each move starts from the mover's pawn and ends on the nearest
    tile in its direction. Colours play no part, so this holds on the lost boards.
    """
    tiles = [0] * NUM_SQUARES  # every square dressed; the colour does not matter here
    squares = [pawn.split("@")[1] for pawn in pawns]
    passed_over = {}
    for index, move in enumerate(moves):
        origin, target = move.split("-")
        assert origin == squares[index % 2], f"{move}: the pawn to move is on {squares[index % 2]}"
        assert SQUARE_INDEX[target] in destinations(tiles, SQUARE_INDEX[origin]), f"{move} is not a move"
        between = squares_between(origin, target)
        assert all(tiles[SQUARE_INDEX[square]] == EMPTY for square in between)
        if between:
            passed_over[move] = between
        tiles[SQUARE_INDEX[origin]] = EMPTY
        squares[index % 2] = target
    return passed_over


def squares_between(origin: str, target: str) -> list[str]:
    """Return the squares strictly between two squares on one file or one rank, nearest ``origin`` first."""
    (col_1, row_1), (col_2, row_2) = ((ord(s[0]), int(s[1])) for s in (origin, target))
    steps = max(abs(col_2 - col_1), abs(row_2 - row_1))
    d_col, d_row = (col_2 - col_1) // steps, (row_2 - row_1) // steps
    return [f"{chr(col_1 + d_col * i)}{row_1 + d_row * i}" for i in range(1, steps)]


def reachable_from(square: str, empty: Iterable[str]) -> set[str]:
    """Return the squares a pawn on ``square`` can reach when only ``empty`` squares lack a tile."""
    tiles = [0] * NUM_SQUARES
    for name in empty:
        tiles[SQUARE_INDEX[name]] = EMPTY
    return {SQUARE_NAMES[sq] for sq in destinations(tiles, SQUARE_INDEX[square])}


# -- what the text fixes whatever the colours -------------------------------------------------------------------------


def test_it_finds_every_square_in_each_games_tile_lists_once() -> None:
    for tiles_a, tiles_b in ((GAME_1_TILES_A, GAME_1_TILES_B), (GAME_2_TILES_A, GAME_2_TILES_B)):
        order = dressing_order(tiles_a, tiles_b)
        assert sorted(order) == sorted(SQUARE_NAMES)
        assert (len(tiles_a), len(tiles_b)) == (13, 12)


def test_it_places_the_example_pawns_apart_or_diagonally() -> None:
    # "The black pawn may not initially be placed next to the white pawn (except diagonally)"
    assert SQUARE_INDEX["d3"] not in NEIGHBOURS[SQUARE_INDEX["c2"]]  # game 2: diagonal
    assert SQUARE_INDEX["d4"] not in NEIGHBOURS[SQUARE_INDEX["b3"]]  # game 1: two files apart


def test_it_moves_over_the_emptied_squares_game_1_crosses() -> None:
    assert walk(GAME_1_PAWNS, GAME_1_MOVES) == {
        "e4-c4": ["d4"],
        "d3-d5": ["d4"],
        "d5-d2": ["d4", "d3"],
    }


def test_it_moves_over_the_emptied_squares_game_2_crosses() -> None:
    assert walk(GAME_2_PAWNS, GAME_2_MOVES) == {
        "b1-d1": ["c1"],
        "d1-d4": ["d2", "d3"],
        "e3-c3": ["d3"],
        "e4-c4": ["d4"],
        "b2-b4": ["b3"],
    }


def test_it_leaves_game_2s_white_only_the_two_moves_note_5_plays_out() -> None:
    emptied = ("c2", "d3", "c1", "d2", "b1", "e2", "d1", "e3", "d4", "c3", "e4", "b3", "c4", "b2")
    assert reachable_from("c5", emptied) == {"b5", "d5"}
    assert walk(GAME_2_PAWNS, (*GAME_2_MOVES, "c5-d5", "b4-a4")) == walk(GAME_2_PAWNS, GAME_2_MOVES)
    # c5-b5 puts White right above Black, so b4-b5 takes it.
    assert walk(GAME_2_PAWNS, (*GAME_2_MOVES, "c5-b5", "b4-b5")) == walk(GAME_2_PAWNS, GAME_2_MOVES)


def test_it_cannot_reach_e4_from_e2_in_game_1s_better_line() -> None:
    assert walk(GAME_1_PAWNS, GAME_1_BETTER_LINE) == {}
    emptied = ("b3", "d4", "c3", "e4", "d3", "e5", "e3", "d5")
    assert reachable_from("e2", emptied) == {"d2", "e1"}
    # No other first step gets White to c4 next either (the docstring's "no single square" claim).
    assert all("c4" not in reachable_from(step, (*emptied, "e2")) for step in ("d2", "e1"))


def test_it_plays_blacks_end_of_game_1s_better_line() -> None:
    # Black's c5-b5, b5-b6, b6-b4 needs only its own trail: b6-b4 passes the b5 it left.
    emptied = ("d4", "e4", "e5", "d5", "c5", "b5")
    assert reachable_from("b6", emptied) == {"b4"}


# -- the notes' claims, on the reconstructed boards ------------------------------------------------------------------


def claim_game_1_uses_the_colours_the_notes_name(colours: Colours) -> None:
    """Note 1: light blue pairs b5/c5 and b2/c2; note 2: the single dark green (c3), the red on e4."""
    assert {square: colours[square] for square in GAME_1_NAMED_COLOURS} == GAME_1_NAMED_COLOURS
    assert {square for square, colour in colours.items() if colour == "light-blue"} == {"b5", "c5", "b2", "c2"}
    assert {square for square, colour in colours.items() if colour == "dark-green"} == {"c3"}


def claim_game_1_avoids_other_same_colour_neighbours(colours: Colours) -> None:
    """Note 1: "It is often good practice not to place tiles of the same colour adjacent" (the blues aside)."""
    assert same_colour_neighbours(colours) == {frozenset(("b5", "c5")), frozenset(("b2", "c2"))}


def claim_game_1_is_played_as_printed(colours: Colours) -> None:
    """Every printed placement and move is legal and the game goes on until d5-d2."""
    state = game_1(GAME_1_MOVES[:-1], colours)
    assert not state.is_terminal()
    assert GAME_1_MOVES[-1] in moves_of(state)


def claim_game_1_black_can_only_move_to_the_red_on_e4(colours: Colours) -> None:
    """Note 2: "Player B can only move to the red on e4; any other move loses the game."""
    state = game_1(GAME_1_MOVES[:1], colours)
    assert moves_of(state) - losing_moves(state) == {"d4-e4"}
    assert state.observation(1)["board"]["e4"] == "red"


def claim_game_1_white_can_next_go_to_d3_and_c2_but_not_c4_or_a3(colours: Colours) -> None:
    """Note 2: "... in the next turn will be able to move to d3 and c2 but not c4 or a3"."""
    state = game_1(GAME_1_MOVES[:2], colours)
    assert moves_of(state) == {"c3-d3", "c3-c2", "c3-c4", "c3-a3"}
    assert losing_moves(state) == {"c3-c4", "c3-a3"}


def claim_game_1_d2_wins_by_trapping_black_between_the_light_blues(colours: Colours) -> None:
    """ "d5-d2 wins"; note 3: "Player B has lost the game by becoming trapped between the light blue tiles."

    The game goes on after d5-d2 (read like game 2's "b4 wins"), but every Black
    move loses at once, and the two onto light blue lose to White's d2-c2.
    """
    state = game_1(GAME_1_MOVES, colours)
    assert not state.is_terminal()
    assert moves_of(state) == losing_moves(state) == {"b4-b5", "b4-b2", "b4-a4"}
    for black_move in ("b4-b5", "b4-b2"):
        assert "d2-c2" in winning_moves(after(state, [black_move]))


def claim_game_1_better_line_is_still_losing(colours: Colours) -> None:
    """Note 3: "Better, but still losing, would have been": Black's e4-e5 instead of e4-c4."""
    state = game_1(GAME_1_BETTER_LINE[:4], colours)
    assert best_play_winner(state) == 0


def claim_game_1_better_line_breaks_at_e2_e4(colours: Colours) -> None:
    """The better line plays up to Black's d5-c5; White's printed e2-e4 is then refused."""
    state = game_1(GAME_1_BETTER_LINE, colours)
    assert not state.is_terminal()
    with pytest.raises(IllegalActionError, match=r"'e2-e4' is not legal now; legal now: e2-e1, e2-d2$"):
        state.apply_notation("e2-e4")


def claim_game_2_avoids_same_colour_neighbours(colours: Colours) -> None:
    """Note 1: "Both players have attempted ... to avoid placing tiles of the same colour adjacent"."""
    assert same_colour_neighbours(colours) == set()


def claim_game_2_is_played_as_printed(colours: Colours) -> None:
    """Every printed placement and move is legal, and b2-b4 does not end the game (note 5)."""
    assert not game_2(GAME_2_MOVES, colours).is_terminal()


def claim_game_2_c2_c1_is_forced(colours: Colours) -> None:
    """Note 2: "A's c2-c1 is a forced move." """
    state = game_2((), colours)
    assert moves_of(state) - losing_moves(state) == {"c2-c1"}


def claim_game_2_c1_b1_is_forced_again(colours: Colours) -> None:
    """Note 3: "Forced again is c1-b1. If c1-d1 then d2-d1 wins or if c1-c3 then d2-b2 wins." """
    state = game_2(GAME_2_MOVES[:2], colours)
    assert moves_of(state) == {"c1-b1", "c1-d1", "c1-c3"}
    assert losing_moves(state) == {"c1-d1", "c1-c3"}
    assert winning_moves(after(state, ["c1-d1"])) == {"d2-d1"}
    assert "d2-b2" in winning_moves(after(state, ["c1-c3"]))


def claim_game_2_e3_c3_leaves_white_only_d4_e4(colours: Colours) -> None:
    """Note 4: "B's e3-c3 restricts A's possible moves to d4-e4 only." """
    state = game_2(GAME_2_MOVES[:8], colours)
    assert moves_of(state) - losing_moves(state) == {"d4-e4"}


def claim_game_2_b4_wins(colours: Colours) -> None:
    """ "b2-b4 wins": White's every reply lets Black win at once."""
    state = game_2(GAME_2_MOVES, colours)
    assert moves_of(state) == losing_moves(state) == {"c5-d5", "c5-b5"}


def claim_game_2_last_two_moves_play_out_as_note_5_says(colours: Colours) -> None:
    """Note 5: "the last two moves e.g. either c5-d5, b4-a4 or c5-b5, b4-b5 would be played out"."""
    for white_move, black_move in GAME_2_PLAYED_OUT:
        state = game_2((*GAME_2_MOVES, white_move, black_move), colours)
        outcome = state.outcome()
        assert outcome is not None
        assert outcome.winner == 1
        assert [stats["moves"] for stats in outcome.stats] == [8, 8]


GAME_1_CLAIMS: list[Callable[[Colours], None]] = [
    claim_game_1_uses_the_colours_the_notes_name,
    claim_game_1_avoids_other_same_colour_neighbours,
    claim_game_1_is_played_as_printed,
    claim_game_1_black_can_only_move_to_the_red_on_e4,
    claim_game_1_white_can_next_go_to_d3_and_c2_but_not_c4_or_a3,
    claim_game_1_d2_wins_by_trapping_black_between_the_light_blues,
    claim_game_1_better_line_breaks_at_e2_e4,
    claim_game_1_better_line_is_still_losing,  # the slowest: keep last for the search
]
GAME_2_CLAIMS: list[Callable[[Colours], None]] = [
    claim_game_2_avoids_same_colour_neighbours,
    claim_game_2_is_played_as_printed,
    claim_game_2_c2_c1_is_forced,
    claim_game_2_c1_b1_is_forced_again,
    claim_game_2_e3_c3_leaves_white_only_d4_e4,
    claim_game_2_b4_wins,
    claim_game_2_last_two_moves_play_out_as_note_5_says,
]


def claim_name(claim: Callable[[Colours], None]) -> str:
    return claim.__name__.removeprefix("claim_")


@pytest.mark.parametrize(
    ("colours", "count"), [(GAME_1_COLOURS, "game 1"), (GAME_2_COLOURS, "game 2")], ids=["game 1", "game 2"]
)
def test_the_reconstructions_use_the_rulebooks_tiles(colours: Colours, count: str) -> None:
    assert set(colours) == set(SQUARE_NAMES), count
    assert [list(colours.values()).count(colour) for colour in COLOUR_NAMES] == list(TILE_COUNTS)


@pytest.mark.parametrize("claim", GAME_1_CLAIMS, ids=claim_name)
def test_it_bears_out_game_1s_notes(claim: Callable[[Colours], None]) -> None:
    claim(GAME_1_COLOURS)


@pytest.mark.parametrize("claim", GAME_2_CLAIMS, ids=claim_name)
def test_it_bears_out_game_2s_notes(claim: Callable[[Colours], None]) -> None:
    claim(GAME_2_COLOURS)


def test_it_ends_game_2s_played_out_lines_by_colour_and_by_capture() -> None:
    reasons = [game_2((*GAME_2_MOVES, *line)).outcome().reason for line in GAME_2_PLAYED_OUT]
    assert reasons == ["colour", "capture"]


# -- the search that found the reconstructions (not part of the test run) --------------------------------------------


def failed_claims(claims: Sequence[Callable[[Colours], None]], colours: Colours) -> list[str]:
    """Return the names of the claims that do not hold for ``colours``."""
    failed = []
    for claim in claims:
        try:
            claim(colours)
        except (AssertionError, engines.ActionError):
            failed.append(claim_name(claim))
    return failed


def search(
    claims: Sequence[Callable[[Colours], None]], named: Colours, seed: int, steps: int = 5000
) -> tuple[dict[str, str], list[str]]:
    """Return a colouring that satisfies as many ``claims`` as a local search finds, and the claims it fails.

    Starts from a random colouring with the rulebook's tile counts and the
    ``named`` colours, then swaps the colours of two other squares while that
    does not make things worse (with a little noise to leave plateaus). Fewer
    failed claims is better, and then fewer same-colour neighbours, which steers
    the search towards the notes' "not ... adjacent" advice.
    """

    def badness(failed: list[str]) -> float:
        return len(failed) + len(same_colour_neighbours(colours)) / 100

    rng = random.Random(seed)
    supply = [colour for colour, count in zip(COLOUR_NAMES, TILE_COUNTS, strict=True) for _ in range(count)]
    for colour in named.values():
        supply.remove(colour)
    rng.shuffle(supply)
    free = [square for square in SQUARE_NAMES if square not in named]
    colours = {**named, **dict(zip(free, supply, strict=True))}
    failed = failed_claims(claims, colours)
    badness_now = badness(failed)
    for _ in range(steps):
        if not failed:
            break
        one, other = rng.sample(free, 2)
        colours[one], colours[other] = colours[other], colours[one]
        now_failed = failed_claims(claims, colours)
        if badness(now_failed) <= badness_now or rng.random() < 0.02:
            failed, badness_now = now_failed, badness(now_failed)
        else:
            colours[one], colours[other] = colours[other], colours[one]
    return colours, failed


if __name__ == "__main__":
    for title, claims, named in (
        ("GAME_1_BOARD", GAME_1_CLAIMS, GAME_1_NAMED_COLOURS),
        ("GAME_2_BOARD", GAME_2_CLAIMS, {}),
    ):
        for seed in range(20):
            found, failed = search(claims, named, seed)
            print(f"# {title}, seed {seed}: fails {failed or 'nothing'}", file=sys.stderr)
            if not failed:
                print(f'{title} = """{grid_of(found)}"""')
                break
