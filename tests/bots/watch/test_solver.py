"""The solver Watch bot: exact values, and choices that play to the series objective.

The yardstick is a plain minimax written here over the engine's own states
(no memo, no bit masks): White minimises the number of moves left, Black
maximises it, as the series scoring asks.
"""

from __future__ import annotations

import itertools
import random

import engines
from bots.policy import load_policy
from bots.watch import RandomPolicy, SolverPolicy
from bots.watch.local import play_series
from bots.watch.solver import FULL_BOARD, MovementSolver, black_squares, read_history
from engines.watch import WatchState
from engines.watch.game import EMPTY, NUM_SQUARES, PAWN_BASE


def plain_minimax(state: WatchState) -> int:
    """Return the number of moves left with White minimising and Black maximising it."""
    if state.is_terminal():
        return 0
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values.append(1 + plain_minimax(child))
    return min(values) if state.current_player() == 0 else max(values)


def dressed(seed: int, empty: int = 0) -> WatchState:
    """Return a game whose board was dressed at random, with ``empty`` squares still to fill."""
    rng = random.Random(seed)
    state = engines.get("watch").new_initial_state(seed=seed)
    while state.ply < NUM_SQUARES - empty:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def late_position(seed: int, tiles_left: int) -> WatchState | None:
    """Return a random position with ``tiles_left`` tiles and the game still on, or None if play ended first."""
    rng = random.Random(seed)
    state = dressed(seed)
    for _ in range(2):
        state.apply_action(rng.choice(state.legal_actions()))
    while sum(tile != EMPTY for tile in state.tiles) > tiles_left:
        going_on = []
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            if not child.is_terminal():
                going_on.append(action)
        if not going_on:
            return None
        state.apply_action(rng.choice(going_on))
    return state


def late_positions(count: int, tiles_left: int) -> list[WatchState]:
    positions = []
    for seed in itertools.count():
        state = late_position(seed, tiles_left)
        if state is not None:
            positions.append(state)
            if len(positions) == count:
                return positions
    raise AssertionError("unreachable")


def solver_value(state: WatchState) -> int:
    tiles = sum(1 << sq for sq in range(NUM_SQUARES) if state.tiles[sq] != EMPTY)
    mover = state.current_player()
    return MovementSolver(state.tiles).value(tiles, state.pawns[mover], state.pawns[1 - mover])


def solver_choice(state: WatchState, seed: int = 0) -> int:
    return SolverPolicy(seed=seed).choose(state.observation(state.current_player()), state.legal_actions())


def after(state: WatchState, action: int) -> WatchState:
    child = state.clone()
    child.apply_action(action)
    return child


def exhaustive_layout_value(solver: MovementSolver) -> int:
    """Return min over white squares of max over black replies of the exact value."""
    return min(
        max(solver.value(FULL_BOARD, white, black) for black in black_squares(solver.colours, white))
        for white in range(NUM_SQUARES)
    )


# -- the movement search ----------------------------------------------------------


def test_its_values_match_plain_minimax_on_late_positions() -> None:
    for tiles_left in (9, 12, 15, 16):
        for state in late_positions(60, tiles_left):
            assert solver_value(state) == plain_minimax(state), state.render()


def test_it_reads_the_position_the_engine_has() -> None:
    rng = random.Random(5)
    for seed in range(30):
        state = engines.get("watch").new_initial_state(seed=seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            colours, tiles, pawns = read_history(state.history)
            if state.ply >= NUM_SQUARES:
                assert tiles == sum(1 << sq for sq in range(NUM_SQUARES) if state.tiles[sq] != EMPTY)
                assert pawns == state.pawns
            assert [colours[sq] for sq in range(NUM_SQUARES) if state.tiles[sq] != EMPTY] == [
                tile for tile in state.tiles if tile != EMPTY
            ]


def test_as_white_it_moves_into_the_shortest_game() -> None:
    checked = 0
    # An odd number of tiles left means White is to move: every move removes one of 25.
    for index, state in enumerate(late_positions(60, 13)):
        if len(state.legal_actions()) < 2:
            continue
        assert state.current_player() == 0
        values = {action: 1 + plain_minimax(after(state, action)) for action in state.legal_actions()}
        assert values[solver_choice(state, index)] == min(values.values()), state.render()
        checked += 1
    assert checked > 10


def test_as_black_it_moves_into_the_longest_game() -> None:
    checked = 0
    for index, state in enumerate(late_positions(60, 12)):
        if len(state.legal_actions()) < 2:
            continue
        assert state.current_player() == 1
        values = {action: 1 + plain_minimax(after(state, action)) for action in state.legal_actions()}
        assert values[solver_choice(state, index)] == max(values.values()), state.render()
        checked += 1
    assert checked > 10


# -- pawn placement ---------------------------------------------------------------------


def test_its_layout_value_is_the_best_white_squares_longest_reply() -> None:
    for seed in range(3):
        solver = MovementSolver(dressed(seed).tiles)
        value, best = solver.layout_value()
        assert value == exhaustive_layout_value(solver)
        for white in best:
            assert max(solver.value(FULL_BOARD, white, b) for b in black_squares(solver.colours, white)) == value


def test_it_places_the_white_pawn_where_the_longest_black_reply_is_shortest() -> None:
    for seed in range(3):
        state = dressed(seed)
        square = solver_choice(state, seed) - PAWN_BASE
        solver = MovementSolver(state.tiles)
        worst_reply = max(solver.value(FULL_BOARD, square, b) for b in black_squares(state.tiles, square))
        assert worst_reply == exhaustive_layout_value(solver)


def test_it_places_the_black_pawn_for_the_longest_game() -> None:
    rng = random.Random(9)
    for seed in range(6):
        state = dressed(seed)
        state.apply_action(PAWN_BASE + rng.randrange(NUM_SQUARES))
        square = solver_choice(state, seed) - PAWN_BASE - NUM_SQUARES
        solver = MovementSolver(state.tiles)
        values = {b: solver.value(FULL_BOARD, state.pawns[0], b) for b in black_squares(state.tiles, state.pawns[0])}
        assert values[square] == max(values.values())


# -- tile placement ---------------------------------------------------------------------


def finished_layout_value(state: WatchState, cache: dict[tuple[int, ...], int]) -> int:
    """Return the layout value of ``state`` after the remaining placements, best for each placer."""
    key = tuple(state.tiles)
    if key not in cache:
        if state.ply == NUM_SQUARES:
            cache[key] = MovementSolver(state.tiles).layout_value()[0]
        else:
            values = [finished_layout_value(after(state, action), cache) for action in state.legal_actions()]
            cache[key] = min(values) if state.current_player() == 0 else max(values)
    return cache[key]


def test_it_finishes_the_layout_for_its_own_side() -> None:
    # Player 1 (Black) places the 22nd and 24th tiles, player 0 (White) the 23rd.
    for empty, seed in ((2, 0), (2, 1), (3, 2), (4, 3)):
        state = dressed(seed, empty)
        cache: dict[tuple[int, ...], int] = {}
        values = [finished_layout_value(after(state, action), cache) for action in state.legal_actions()]
        best = min(values) if state.current_player() == 0 else max(values)
        chosen = after(state, solver_choice(state, seed))
        assert finished_layout_value(chosen, cache) == best


def test_it_puts_early_tiles_in_line_with_their_colour_as_black_and_out_of_line_as_white() -> None:
    state = engines.get("watch").new_initial_state()
    state.apply_notation("red@c3")
    for seed in range(5):
        # Player 1 wants long games: another red, next to c3.
        assert state.action_to_string(solver_choice(state, seed)) in {"red@c2", "red@c4", "red@b3", "red@d3"}
    state.apply_notation("yellow@a2")
    for seed in range(5):
        # Player 0 wants short games: no tile in a row or column with one of its colour.
        placed = state.action_to_string(solver_choice(state, seed))
        colour, square = placed.split("@")
        assert (colour, square[0]) not in {("red", "c"), ("yellow", "a")}
        assert (colour, square[1]) not in {("red", "3"), ("yellow", "2")}


# -- whole games and series ----------------------------------------------------------


def test_it_loads_by_name() -> None:
    assert isinstance(load_policy("watch", "solver", seed=1), SolverPolicy)


def test_it_plays_only_legal_actions_and_repeats_itself_for_a_seed() -> None:
    for seed in range(3):
        runs = [
            play_series([SolverPolicy(seed=seed), load_policy("watch", "greedy", seed=seed + 1)], games=2, seed=seed)
            for _ in range(2)
        ]
        assert [game["forfeit"] for game in runs[0]["games"]] == [None, None]
        assert [game["actions"] for game in runs[0]["games"]] == [game["actions"] for game in runs[1]["games"]]


def test_it_beats_random_on_series_points() -> None:
    points = [0.0, 0.0]
    for seed in range(6):
        result = play_series([SolverPolicy(seed=seed), RandomPolicy(seed=seed + 1)], games=2, seed=seed)
        assert [game["forfeit"] for game in result["games"]] == [None, None]
        points[0] += result["score"]["points"][0]
        points[1] += result["score"]["points"][1]
    assert points[0] >= 10.0 > 2.0 >= points[1]


def test_its_moves_are_legal_from_any_position_a_random_game_reaches() -> None:
    rng = random.Random(3)
    for seed in range(10):
        state = engines.get("watch").new_initial_state(seed=seed)
        policy = SolverPolicy(seed=seed)
        while not state.is_terminal():
            if state.ply >= NUM_SQUARES - 1:
                legal = state.legal_actions()
                assert policy.choose(state.observation(state.current_player()), legal) in legal
            state.apply_action(rng.choice(state.legal_actions()))
