"""The ``solver`` reference bot for Watch: exact search, played to the series objective.

Watch's series scoring counts only pawn moves (the lower total as White and the
higher as Black earn a point), so every game is zero-sum over its length ``n``:
White wants it short, Black wants it long.

:class:`MovementSolver` values movement-phase positions of one tile layout. A
position is three ints (the mask of tiles left, the mover's square, the other
pawn's square); ``ends_within(tiles, mover, other, limit)`` answers "with best
play, does the game end within ``limit`` more moves?" (some White move must do
it, every Black move must), memoised as (lower, upper) bounds per position; a
position's value is the first limit that passes. White places its pawn on the
square of the smallest such limit over every black reply (the *layout value*),
Black replies with the highest exact value; each move is the lowest (White) or
highest (Black) exact value.

Ties go to the choice that does best against an opponent who errs (the mean
value over its replies), then to the seeded generator. Tiles: once at most
:data:`EXHAUSTIVE_LAYOUTS` ways to finish the layout are left, the bot searches
them all with the layout value at the leaves (player 0 minimises, player 1
maximises); before that it places a tile where the fewest (player 0) or most
(player 1) tiles of its colour are in line with it, neighbours counting double.
docs/bots.md explains the design and gives its measurements.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engines.watch.game import (
    EMPTY,
    MOVE_BASE,
    NEIGHBOURS,
    NUM_COLOURS,
    NUM_SQUARES,
    PAWN_BASE,
    RAYS,
    TILE_COUNTS,
)

FULL_BOARD = (1 << NUM_SQUARES) - 1
#: No game lasts this many moves (at most 24: each move removes one of 25 tiles).
LONGEST = NUM_SQUARES
#: Exhaustive tile placement once there are at most this many ways left to finish the layout.
EXHAUSTIVE_LAYOUTS = 24
#: Heuristic weights of a same-coloured tile next to the placed one, and further along the same line.
NEIGHBOUR_WEIGHT = 2
IN_LINE_WEIGHT = 1

_UNKNOWN = (0, LONGEST)


def _cross(square: int) -> list[int]:
    return [sq for ray in RAYS[square] for sq in ray]


def _destination_table(square: int) -> dict[int, tuple[int, ...]]:
    # Every subset of the squares in line with ``square`` -> the nearest tile in each direction.
    cross = _cross(square)
    table: dict[int, tuple[int, ...]] = {}
    for subset in range(1 << len(cross)):
        tiles = sum(1 << sq for i, sq in enumerate(cross) if subset >> i & 1)
        nearest = (next((sq for sq in ray if tiles >> sq & 1), None) for ray in RAYS[square])
        table[tiles] = tuple(sq for sq in nearest if sq is not None)
    return table


#: Per square, the bit mask of the squares in line with it.
CROSS_MASKS: tuple[int, ...] = tuple(sum(1 << sq for sq in _cross(square)) for square in range(NUM_SQUARES))
#: Per square, ``tiles & CROSS_MASKS[square]`` -> the squares a pawn there can move to.
DESTINATIONS: tuple[dict[int, tuple[int, ...]], ...] = tuple(_destination_table(sq) for sq in range(NUM_SQUARES))


def destinations(tiles: int, square: int) -> tuple[int, ...]:
    """Return the squares a pawn on ``square`` can move to when ``tiles`` is the mask of tiles left."""
    return DESTINATIONS[square][tiles & CROSS_MASKS[square]]


def black_squares(colours: Sequence[int], white: int) -> list[int]:
    """Return where the black pawn may be placed: not next to White (diagonals allowed), not on its colour."""
    return [sq for sq in range(NUM_SQUARES) if colours[sq] != colours[white] and sq not in NEIGHBOURS[white]]


def _make_ends_within(
    same_colour: tuple[int, ...], bounds: dict[int, tuple[int, int]]
) -> Callable[[int, int, int, int], bool]:
    # A closure over local names: this is the hot loop of every decision.
    table = DESTINATIONS
    cross = CROSS_MASKS
    unknown = _UNKNOWN

    def ends_within(tiles: int, mover: int, other: int, limit: int) -> bool:
        moves = table[mover][tiles & cross[mover]]
        if not moves:
            return True  # the previous move left this pawn stuck: that ended the game
        if limit <= 0:
            return False
        left = tiles & ~(1 << mover)
        ends_now = same_colour[other]
        if tiles.bit_count() & 1:  # White: one move that ends the game in time is enough
            for target in moves:
                if ends_now >> target & 1:
                    return True
            if limit == 1:  # only if any move leaves Black stuck (where White lands cannot change that)
                return not table[other][left & cross[other]]
            key = tiles | mover << 25 | other << 30
            low, high = bounds.get(key, unknown)
            if high <= limit:
                return True
            if low > limit:
                return False
            deeper = limit - 1
            result = False
            for target in moves:
                if ends_within(left, other, target, deeper):
                    result = True
                    break
        else:  # Black: every move must end the game in time
            going_on = [target for target in moves if not ends_now >> target & 1]
            if not going_on:
                return True
            if limit == 1:
                return not table[other][left & cross[other]]
            key = tiles | mover << 25 | other << 30
            low, high = bounds.get(key, unknown)
            if high <= limit:
                return True
            if low > limit:
                return False
            deeper = limit - 1
            result = True
            for target in going_on:
                if not ends_within(left, other, target, deeper):
                    result = False
                    break
        bounds[key] = (low, limit) if result else (limit + 1, high)
        return result

    return ends_within


class MovementSolver:
    """Exact values of movement-phase positions on one tile layout.

    ``colours`` gives each square's tile colour on the full layout. A position
    is ``(tiles, mover, other)``: the mask of tiles left and the two pawns'
    squares; its value is the number of moves still to be played with White
    minimising and Black maximising.
    """

    def __init__(self, colours: Sequence[int]) -> None:
        self.colours = tuple(colours)
        self.same_colour = tuple(
            0 if colour == EMPTY else sum(1 << sq for sq in range(NUM_SQUARES) if self.colours[sq] == colour)
            for colour in self.colours
        )
        self._bounds: dict[int, tuple[int, int]] = {}
        #: ``ends_within(tiles, mover, other, limit)``: does the game end within ``limit`` more moves?
        self.ends_within = _make_ends_within(self.same_colour, self._bounds)

    def value(self, tiles: int, mover: int, other: int) -> int:
        """Return the number of moves left in the game with best play by both sides."""
        limit = self._bounds.get(tiles | mover << 25 | other << 30, _UNKNOWN)[0]
        while not self.ends_within(tiles, mover, other, limit):
            limit += 1
        return limit

    def move_value(self, tiles: int, mover: int, other: int, target: int) -> int:
        """Return the value of moving the mover to ``target``, that move included."""
        if self.same_colour[other] >> target & 1:
            return 1
        return 1 + self.value(tiles & ~(1 << mover), other, target)

    def reply_mean(self, tiles: int, mover: int, other: int, target: int) -> float:
        """Return the mean value, over the opponent's replies, after the mover goes to ``target``.

        This is what the move is worth against an opponent who picks a reply at
        random and then plays perfectly; 0.0 if the move ends the game.
        """
        if self.same_colour[other] >> target & 1:
            return 0.0
        left = tiles & ~(1 << mover)
        replies = destinations(left, other)
        if not replies:
            return 0.0
        return sum(self.move_value(left, other, target, reply) for reply in replies) / len(replies)

    def layout_value(
        self, order: list[int] | None = None, refuters: dict[int, int] | None = None, guess: int | None = None
    ) -> tuple[int, list[int]]:
        """Return the value of the full layout before the pawns are placed, and White's best squares.

        The value is the smallest ``t`` for which White has a square where
        every legal black reply leads to a game of at most ``t`` moves. Without
        ``guess`` the tests deepen t = 1, 2, ... and every best square is
        returned. With a guess (the value of a similar layout) the first test is
        at the guess and the next ones walk down or up from it, which skips most
        of the shallow tests; then only one best square is returned.

        Proving that a square fails is quickest with the reply that refuted it
        before, so the caller may also pass ``order`` (white squares, most
        promising first) and ``refuters`` (white square -> black reply) from a
        similar layout; both are updated.
        """
        order = list(range(NUM_SQUARES)) if order is None else order
        refuters = {} if refuters is None else refuters
        replies = {}
        for white in order:
            blacks = black_squares(self.colours, white)
            refuter = refuters.get(white)
            if refuter in blacks:
                blacks.remove(refuter)
                blacks.insert(0, refuter)
            replies[white] = blacks
        ends_within = self.ends_within

        def squares_within(limit: int, first_only: bool) -> list[int]:
            # The white squares from which every black reply ends within ``limit`` moves.
            best = []
            for white in order:
                blacks = replies[white]
                for index, black in enumerate(blacks):
                    if not ends_within(FULL_BOARD, white, black, limit):
                        blacks.insert(0, blacks.pop(index))
                        refuters[white] = black
                        break
                else:
                    best.append(white)
                    if first_only:
                        break
            for white in reversed(best):
                order.remove(white)
                order.insert(0, white)
            return sorted(best)

        if guess is None:
            for limit in range(1, LONGEST + 1):
                best = squares_within(limit, first_only=False)
                if best:
                    return limit, best
            raise AssertionError("every Watch game ends within 24 moves")
        limit = max(1, min(guess, LONGEST))
        best = squares_within(limit, first_only=True)
        if best:
            while limit > 1:
                lower = squares_within(limit - 1, first_only=True)
                if not lower:
                    break
                limit, best = limit - 1, lower
            return limit, best
        while not best:
            limit += 1
            best = squares_within(limit, first_only=True)
        return limit, best


class DressingSearch:
    """Exhaustive search of the last tile placements, with the layout value at the leaves.

    Player 0 (who will place and move the white pawn) minimises the layout
    value, player 1 maximises it. Built per game; keeps the value of every
    finished layout it meets and bounds for every partial one.
    """

    def __init__(self) -> None:
        self._layout_values: dict[tuple[int, ...], int] = {}
        self._bounds: dict[tuple[int, ...], tuple[int, int]] = {}
        # Layouts met here differ in a few squares: what worked in one is tried first in the next.
        self._white_order = list(range(NUM_SQUARES))
        self._refuters: dict[int, int] = {}
        self._last_value: int | None = None

    def layout_value(self, colours: Sequence[int]) -> int:
        """Return the value of a finished layout (see :meth:`MovementSolver.layout_value`)."""
        key = tuple(colours)
        value = self._layout_values.get(key)
        if value is None:
            # Each leaf gets a fresh movement memo, dropped at once: a search meets dozens of layouts.
            solver = MovementSolver(key)
            value = solver.layout_value(self._white_order, self._refuters, self._last_value)[0]
            self._layout_values[key] = self._last_value = value
        return value

    def best_placements(self, colours: Sequence[int], supply: Sequence[int]) -> list[tuple[int, int]]:
        """Return the ``(colour, square)`` placements with the best exact value for the player to place."""
        board = list(colours)
        stock = list(supply)
        player = (NUM_SQUARES - board.count(EMPTY)) & 1
        children = _placements(board, stock, player)
        limit = 1
        if player == 0:
            while True:
                best = [child for child in children if self._child_within(board, stock, child, limit)]
                if best:
                    return best
                limit += 1
        alive = children
        while True:
            longer = [child for child in alive if not self._child_within(board, stock, child, limit)]
            if not longer:
                return alive
            alive = longer
            limit += 1

    def _child_within(self, board: list[int], stock: list[int], placement: tuple[int, int], limit: int) -> bool:
        colour, square = placement
        board[square] = colour
        stock[colour] -= 1
        try:
            return self.within(board, stock, limit)
        finally:
            board[square] = EMPTY
            stock[colour] += 1

    def within(self, board: list[int], stock: list[int], limit: int) -> bool:
        """Return whether the layout value, with best placement of the remaining tiles, is at most ``limit``."""
        empty = board.count(EMPTY)
        if not empty:
            return self.layout_value(board) <= limit
        key = tuple(board)
        low, high = self._bounds.get(key, _UNKNOWN)
        if high <= limit:
            return True
        if low > limit:
            return False
        player = (NUM_SQUARES - empty) & 1
        children = _placements(board, stock, player)
        if player == 0:
            result = any(self._child_within(board, stock, child, limit) for child in children)
        else:
            result = all(self._child_within(board, stock, child, limit) for child in children)
        self._bounds[key] = (low, limit) if result else (limit + 1, high)
        return result


def placement_score(colours: Sequence[int], colour: int, square: int) -> int:
    """Return how many tiles of ``colour`` are in line with ``square`` (those next to it count double)."""
    score = 0
    for ray in RAYS[square]:
        for distance, sq in enumerate(ray):
            if colours[sq] == colour:
                score += NEIGHBOUR_WEIGHT if distance == 0 else IN_LINE_WEIGHT
    return score


def _placements(board: Sequence[int], stock: Sequence[int], player: int) -> list[tuple[int, int]]:
    # Every distinct (colour, square) placement, the likeliest best for ``player`` first,
    # so that the search's any()/all() stop early.
    children = [
        (colour, square)
        for colour in range(NUM_COLOURS)
        if stock[colour]
        for square in range(NUM_SQUARES)
        if board[square] == EMPTY
    ]
    sign = 1 if player == 0 else -1
    children.sort(key=lambda child: sign * placement_score(board, child[0], child[1]))
    return children


def layouts_left(supply: Sequence[int]) -> int:
    """Return how many distinct finished layouts the tiles in ``supply`` can still make on the empty squares."""
    count = math.factorial(sum(supply))
    for left in supply:
        count //= math.factorial(left)
    return count


def read_history(history: Sequence[int]) -> tuple[list[int], int, list[int]]:
    """Return ``(colours, tiles, pawns)`` after ``history``: the layout, the mask of tiles left, both pawns' squares.

    The history is trusted (it comes from the referee's observation).
    """
    colours = [EMPTY] * NUM_SQUARES
    for action in history[:NUM_SQUARES]:
        colour, square = divmod(action, NUM_SQUARES)
        colours[square] = colour
    pawns = [EMPTY, EMPTY]
    for pawn, action in enumerate(history[NUM_SQUARES : NUM_SQUARES + 2]):
        pawns[pawn] = action - PAWN_BASE - pawn * NUM_SQUARES
    tiles = FULL_BOARD
    for index, action in enumerate(history[NUM_SQUARES + 2 :]):
        mover = index & 1
        tiles &= ~(1 << pawns[mover])
        pawns[mover] = action - MOVE_BASE
    return colours, tiles, pawns


class SolverPolicy:
    """Plays Watch to the series objective with exact search (see the module docstring)."""

    name = "solver"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        self._history: list[int] = []
        self._solver: MovementSolver | None = None
        self._dressing: DressingSearch | None = None

    def choose(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        """Return one of ``legal_actions``."""
        legal = list(legal_actions)
        history = list(observation["history"])
        if history[: len(self._history)] != self._history:  # a new game of the series
            self._solver = None
            self._dressing = None
        self._history = history
        if len(legal) == 1:
            return legal[0]
        colours, tiles, pawns = read_history(history)
        ply = len(history)
        if ply < NUM_SQUARES:
            return self._choose_tile(colours, legal)
        solver = self._solver_for(colours)
        if ply == NUM_SQUARES:
            return PAWN_BASE + self._choose_white_square(solver)
        if ply == NUM_SQUARES + 1:
            return PAWN_BASE + NUM_SQUARES + self._choose_black_square(solver, pawns[0])
        return MOVE_BASE + self._choose_move(solver, tiles, pawns, legal)

    # -- phases -------------------------------------------------------------------
    def _choose_tile(self, colours: list[int], legal: list[int]) -> int:
        supply = list(TILE_COUNTS)
        for colour in colours:
            if colour != EMPTY:
                supply[colour] -= 1
        if layouts_left(supply) <= EXHAUSTIVE_LAYOUTS:
            if self._dressing is None:
                self._dressing = DressingSearch()
            best = self._dressing.best_placements(colours, supply)
            return self._rng.choice([colour * NUM_SQUARES + square for colour, square in best])
        scores = {action: placement_score(colours, *divmod(action, NUM_SQUARES)) for action in legal}
        player = (NUM_SQUARES - colours.count(EMPTY)) & 1
        best_score = (min if player == 0 else max)(scores.values())
        return self._rng.choice([action for action in legal if scores[action] == best_score])

    def _choose_white_square(self, solver: MovementSolver) -> int:
        _, squares = solver.layout_value()
        colours = solver.colours

        def mean_reply(white: int) -> float:
            blacks = black_squares(colours, white)
            return sum(solver.value(FULL_BOARD, white, black) for black in blacks) / len(blacks)

        return self._pick(squares, lambda white: -mean_reply(white))

    def _choose_black_square(self, solver: MovementSolver, white: int) -> int:
        blacks = black_squares(solver.colours, white)
        values = {black: solver.value(FULL_BOARD, white, black) for black in blacks}
        longest = max(values.values())
        best = [black for black in blacks if values[black] == longest]
        return self._pick(
            best,
            lambda black: (
                sum(solver.move_value(FULL_BOARD, white, black, target) for target in destinations(FULL_BOARD, white))
                / len(destinations(FULL_BOARD, white))
            ),
        )

    def _choose_move(self, solver: MovementSolver, tiles: int, pawns: list[int], legal: list[int]) -> int:
        white_to_move = bool(tiles.bit_count() & 1)
        mover, other = (pawns[0], pawns[1]) if white_to_move else (pawns[1], pawns[0])
        targets = [action - MOVE_BASE for action in legal]
        values = {target: solver.move_value(tiles, mover, other, target) for target in targets}
        goal = min(values.values()) if white_to_move else max(values.values())
        best = [target for target in targets if values[target] == goal]
        sign = -1 if white_to_move else 1
        return self._pick(best, lambda target: sign * solver.reply_mean(tiles, mover, other, target))

    # -- helpers ------------------------------------------------------------------
    def _solver_for(self, colours: list[int]) -> MovementSolver:
        if self._solver is None or self._solver.colours != tuple(colours):
            self._solver = MovementSolver(colours)
        return self._solver

    def _pick(self, choices: list[int], preference: Callable[[int], float]) -> int:
        # The choices with the highest preference, then the seeded generator.
        if len(choices) == 1:
            return choices[0]
        scores = {choice: preference(choice) for choice in choices}
        top = max(scores.values())
        return self._rng.choice([choice for choice in choices if scores[choice] == top])
