"""Watch notation: ``red@d4`` places a tile, ``W@b3``/``B@d4`` a pawn, ``b3-c3`` (or ``c3``) moves.

Formatting and parsing are inverse in every phase, and every error names what
was wrong and what would have been accepted, leaving the game unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import engines
from engines import IllegalActionError, MalformedActionError
from engines.watch import WatchState
from engines.watch.game import COLOUR_NAMES, MOVE_BASE, PAWN_BASE, SQUARE_INDEX

# A dressing with no colour coincidences next to c3 or e1 (see test_watch_rules.BOARD).
DRESSING = [
    "yellow@b6",
    "red@a5",
    "light-blue@b5",
    "orange@c5",
    "red@d5",
    "light-blue@e5",
    "light-blue@a4",
    "pink@b4",
    "red@c4",
    "dark-blue@d4",
    "orange@e4",
    "yellow@a3",
    "dark-green@b3",
    "light-green@c3",
    "yellow@d3",
    "pink@e3",
    "dark-purple@a2",
    "light-purple@b2",
    "orange@c2",
    "light-blue@d2",
    "dark-purple@e2",
    "red@b1",
    "dark-blue@c1",
    "light-green@d1",
    "light-purple@e1",
]


def game_after(*notation: str) -> WatchState:
    """Return a new game after applying ``notation`` through the checked path."""
    state = engines.get("watch").new_initial_state()
    for text in notation:
        state.apply_notation(text)
    return state


def dressed() -> WatchState:
    return game_after(*DRESSING)


def moving() -> WatchState:
    """Return the game with White on c3 and Black on e1, White to move."""
    return game_after(*DRESSING, "W@c3", "B@e1")


# -- formatting


def test_it_writes_a_tile_placement_as_colour_at_square() -> None:
    state = game_after()
    assert state.action_to_string(COLOUR_NAMES.index("red") * 25 + SQUARE_INDEX["d4"]) == "red@d4"
    assert state.action_to_string(COLOUR_NAMES.index("light-blue") * 25 + SQUARE_INDEX["b6"]) == "light-blue@b6"


def test_it_writes_pawn_placements_with_the_pawns_letter() -> None:
    state = dressed()
    assert state.action_to_string(PAWN_BASE + SQUARE_INDEX["b3"]) == "W@b3"
    assert state.action_to_string(PAWN_BASE + 25 + SQUARE_INDEX["d4"]) == "B@d4"


def test_it_writes_a_move_from_the_movers_square_to_the_target() -> None:
    state = moving()
    assert state.action_to_string(MOVE_BASE + SQUARE_INDEX["c4"]) == "c3-c4"
    state.apply_notation("c3-c4")
    assert state.action_to_string(MOVE_BASE + SQUARE_INDEX["e2"]) == "e1-e2"


def test_it_writes_a_move_as_its_target_square_once_the_game_is_over() -> None:
    # The rulebook's own records list only the squares a pawn visits.
    state = game_after(*DRESSING, "W@c3", "B@d5", "c3-c4")
    assert state.is_terminal()
    assert state.action_to_string(state.history[-1]) == "c4"


def test_it_rejects_an_action_id_that_is_not_a_watch_action() -> None:
    with pytest.raises(MalformedActionError, match=r"325 is not a Watch action id \(0..324\)"):
        game_after().action_to_string(325)


# -- parsing


@pytest.mark.parametrize(
    "text", ["red@d4", "RED@D4", " red @ d4 ", "RD@d4", "rd@d4", "Red@d4"], ids=lambda text: repr(text)
)
def test_it_reads_a_tile_placement_in_any_case_and_spacing(text: str) -> None:
    assert game_after().parse_action(text) == COLOUR_NAMES.index("red") * 25 + SQUARE_INDEX["d4"]


@pytest.mark.parametrize("text", ["light-blue@b6", "light blue@b6", "Light_Blue@b6", "lightblue@b6", "LB@b6"])
def test_it_reads_two_word_colours_however_they_are_joined(text: str) -> None:
    assert game_after().parse_action(text) == COLOUR_NAMES.index("light-blue") * 25 + SQUARE_INDEX["b6"]


@pytest.mark.parametrize("text", ["W@c3", "w@c3", "white@c3", "White @ C3", "c3"])
def test_it_reads_whites_placement(text: str) -> None:
    assert dressed().parse_action(text) == PAWN_BASE + SQUARE_INDEX["c3"]


@pytest.mark.parametrize("text", ["B@e1", "b@e1", "black@e1", "e1"])
def test_it_reads_blacks_placement(text: str) -> None:
    assert game_after(*DRESSING, "W@c3").parse_action(text) == PAWN_BASE + 25 + SQUARE_INDEX["e1"]


@pytest.mark.parametrize("text", ["c3-c4", "C3-C4", "c3 - c4", "c4"])
def test_it_reads_a_move_with_or_without_its_origin(text: str) -> None:
    assert moving().parse_action(text) == MOVE_BASE + SQUARE_INDEX["c4"]


def test_it_applies_notation_and_returns_the_action_id() -> None:
    state = moving()
    assert state.apply_notation("c3-c4") == MOVE_BASE + SQUARE_INDEX["c4"]
    assert state.observation(1)["pawns"]["white"] == "c4"


@pytest.mark.parametrize("seed", range(20))
def test_it_reads_back_whatever_it_writes_in_every_phase(seed: int) -> None:
    rng = random.Random(seed)
    state = game_after()
    while not state.is_terminal():
        for action in state.legal_actions():
            assert state.parse_action(state.action_to_string(action)) == action
        state.apply_action(rng.choice(state.legal_actions()))


# -- errors: each names the problem and what is accepted, and changes nothing

MALFORMED = [
    (game_after, 42, "notation must be a string, not int 42"),
    (game_after, None, "notation must be a string, not NoneType None"),
    (game_after, "purple@d4", "unknown colour 'purple'; colours are dark-green, light-green, .*, light-blue"),
    (game_after, "@d4", "unknown colour ''"),
    (game_after, "red@a1", "'a1' is not a square; squares are a2, a3, .*, e5"),
    (game_after, "red@f3", "'f3' is not a square"),
    (game_after, "red@", "'' is not a square"),
    (game_after, "d4", "while dressing name a colour and a square, like red@d4"),
    (moving, "c3-c9", "'c9' is not a square"),
    (moving, "z9", "'z9' is not a square"),
]

ILLEGAL = [
    (game_after, "W@c3", "'W@c3' places a pawn, but it is the dress phase; legal now: dark-green@a2, "),
    (game_after, "c3-c4", "'c3-c4' is a move, but it is the dress phase; legal now: dark-green@a2, "),
    (dressed, "B@e1", "'B@e1': it is the white pawn's turn to be placed; legal now: W@a2, "),
    (dressed, "red@d4", "'red@d4' is not legal now; legal now: W@a2, "),
    (moving, "b3-c3", "'b3-c3': the white pawn is on c3, not b3; legal now: c3-c4, c3-c2, c3-b3, c3-d3"),
    (moving, "c3-b4", "'c3-b4' is not legal now; legal now: c3-c4, c3-c2, c3-b3, c3-d3"),
    (moving, "c1", "'c1' is not legal now; legal now: c3-c4, c3-c2, c3-b3, c3-d3"),
    (moving, "W@c3", "'W@c3' places a pawn, but it is the move phase; legal now: c3-c4, "),
]


@pytest.mark.parametrize(("make", "text", "message"), MALFORMED, ids=[f"{m.__name__}:{t!r}" for m, t, _ in MALFORMED])
def test_it_rejects_text_that_is_not_watch_notation(make: Callable[[], WatchState], text: object, message: str) -> None:
    state = make()
    before = state.to_json()
    with pytest.raises(MalformedActionError, match=message):
        state.apply_notation(text)
    assert state.to_json() == before


@pytest.mark.parametrize(("make", "text", "message"), ILLEGAL, ids=[f"{m.__name__}:{t!r}" for m, t, _ in ILLEGAL])
def test_it_rejects_notation_for_an_action_that_is_not_legal_now(
    make: Callable[[], WatchState], text: str, message: str
) -> None:
    state = make()
    before = state.to_json()
    with pytest.raises(IllegalActionError, match=message):
        state.apply_notation(text)
    assert state.to_json() == before


def test_it_rejects_a_tile_on_a_square_that_already_has_one() -> None:
    state = game_after("red@d4")
    with pytest.raises(IllegalActionError, match="'yellow@d4' is not legal now; legal now: dark-green@a2"):
        state.apply_notation("yellow@d4")
    assert state.history == [COLOUR_NAMES.index("red") * 25 + SQUARE_INDEX["d4"]]


def test_it_rejects_any_notation_once_the_game_is_over() -> None:
    state = game_after(*DRESSING, "W@c3", "B@d5", "c3-c4")
    with pytest.raises(IllegalActionError, match="'c4-c5': the game is over: no action is legal"):
        state.apply_notation("c4-c5")
