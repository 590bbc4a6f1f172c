"""Watch by Derick Green (Games and Puzzles Journal 18, 2001): the rules.

Two players dress a 25-square board (a 5x5 board with a1 moved up to b6) with
25 coloured tiles, place a white and a black pawn, then move in turn up, down
or sideways to the nearest tile, removing the tile they leave. Moving onto the
opponent's tile or a tile of its colour wins, and so does leaving the opponent
on turn without a move. RULES.md beside this file quotes the rulebook
sentence by sentence with the code and tests that implement each one.

Player 0 is the rulebook's player A: they place the first tile and the white
pawn, and White moves first. Player 1 is player B, with the black pawn.

Actions are ints in three ranges:

* ``colour * 25 + square`` (0-249): place a tile of that colour while dressing;
* ``250 + square``: place the white pawn on that tile;
* ``275 + square``: place the black pawn on that tile;
* ``300 + square``: move your pawn to that square.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engines.base import (
    TERMINAL,
    Game,
    GameInfo,
    IllegalActionError,
    MalformedActionError,
    Outcome,
    State,
)
from engines.result import GameRecord

# -- the board ----------------------------------------------------------------
# "The box contains a 5x5 board that has the square a1 removed and replaced at
# the top of the board as the extra square b6."
SQUARE_NAMES: tuple[str, ...] = (
    *(f"a{r}" for r in range(2, 6)),
    *(f"b{r}" for r in range(1, 7)),
    *(f"{c}{r}" for c in "cde" for r in range(1, 6)),
)
NUM_SQUARES = len(SQUARE_NAMES)  # 25
SQUARE_INDEX: dict[str, int] = {name: i for i, name in enumerate(SQUARE_NAMES)}
COLUMNS = "abcde"
TOP_ROW = 6


def _coords(square: int) -> tuple[int, int]:
    name = SQUARE_NAMES[square]
    return COLUMNS.index(name[0]), int(name[1])


def _ray(square: int, d_col: int, d_row: int) -> tuple[int, ...]:
    # Squares outward from ``square`` in one direction, nearest first. No ray
    # crosses a missing square to reach a real one (a1 and row 6 but b6 sit on
    # the edge), so a ray simply ends at the first missing square.
    col, row = _coords(square)
    out: list[int] = []
    while True:
        col, row = col + d_col, row + d_row
        name = f"{COLUMNS[col]}{row}" if 0 <= col < len(COLUMNS) else ""
        if name not in SQUARE_INDEX:
            return tuple(out)
        out.append(SQUARE_INDEX[name])


# "up, down or sideways direction, but never diagonally"
DIRECTIONS = ((0, 1), (0, -1), (-1, 0), (1, 0))
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(ray for ray in (_ray(sq, dc, dr) for dc, dr in DIRECTIONS) if ray) for sq in range(NUM_SQUARES)
)
#: Orthogonal neighbours of each square ("next to the white pawn (except diagonally)").
NEIGHBOURS: tuple[frozenset[int], ...] = tuple(frozenset(ray[0] for ray in RAYS[sq]) for sq in range(NUM_SQUARES))

# -- the tiles ----------------------------------------------------------------
# "1 dark green, 2 light green, 2 dark purple, 2 light purple, 2 pink,
#  2 dark blue, 3 orange, 3 yellow, 4 red, 4 light blue."
COLOURS: tuple[tuple[str, str, int], ...] = (
    # name, two-letter code for the text board, number of tiles
    ("dark-green", "DG", 1),
    ("light-green", "LG", 2),
    ("dark-purple", "DP", 2),
    ("light-purple", "LP", 2),
    ("pink", "PK", 2),
    ("dark-blue", "DB", 2),
    ("orange", "OR", 3),
    ("yellow", "YE", 3),
    ("red", "RD", 4),
    ("light-blue", "LB", 4),
)
COLOUR_NAMES: tuple[str, ...] = tuple(c[0] for c in COLOURS)
COLOUR_CODES: tuple[str, ...] = tuple(c[1] for c in COLOURS)
TILE_COUNTS: tuple[int, ...] = tuple(c[2] for c in COLOURS)
NUM_COLOURS = len(COLOURS)
EMPTY = -1
assert sum(TILE_COUNTS) == NUM_SQUARES


def _colour_key(text: str) -> str:
    return text.lower().replace("-", "").replace("_", "").replace(" ", "")


COLOUR_LOOKUP: dict[str, int] = {
    **{_colour_key(name): i for i, name in enumerate(COLOUR_NAMES)},
    **{code.lower(): i for i, code in enumerate(COLOUR_CODES)},
}

# -- actions ------------------------------------------------------------------
PAWN_BASE = NUM_COLOURS * NUM_SQUARES  # 250: White's placement; Black's is 275
MOVE_BASE = PAWN_BASE + 2 * NUM_SQUARES  # 300
NUM_ACTIONS = MOVE_BASE + NUM_SQUARES  # 325
DRESSING_PLIES = NUM_SQUARES
WHITE_PAWN_PLY = DRESSING_PLIES  # 25
BLACK_PAWN_PLY = DRESSING_PLIES + 1  # 26
FIRST_MOVE_PLY = DRESSING_PLIES + 2  # 27
WHITE, BLACK = 0, 1
PAWN_NAMES = ("white", "black")
PAWN_LETTERS = ("W", "B")
_WHITE_PAWN_ACTIONS = tuple(PAWN_BASE + sq for sq in range(NUM_SQUARES))

# Reasons a game ends, in the order the rulebook lists them.
CAPTURE = "capture"  # (1) moves onto the tile occupied by the opponent
SAME_COLOUR = "colour"  # (2) moves onto a tile of the same colour as the opponent's
NO_MOVES = "no_moves"  # (3) the opponent is unable to move
REASONS = (CAPTURE, SAME_COLOUR, NO_MOVES)

INFO = GameInfo(
    name="watch",
    title="Watch (Derick Green)",
    rules_version="1",
    min_players=2,
    max_players=2,
    has_chance=False,
    has_hidden_information=False,
    # 25 tiles, 2 pawns, and at most 24 moves: each move removes a tile and the
    # 24th can only be the capture of the last other tile.
    max_game_length=DRESSING_PLIES + 2 + NUM_SQUARES - 1,
    num_distinct_actions=NUM_ACTIONS,
    summary=(
        "Two players, White and Black, each move a pawn over a board of 25 coloured tiles. A pawn moves in a "
        "straight line onto a tile of a colour it names, and the tile it leaves is removed, so the board shrinks "
        "as the game goes. You win by moving onto the other pawn, or when the other player cannot move. "
        "A series is scored by move counts: the lower total of moves made as White earns a point, and the "
        "higher total as Black earns one, whoever won the games."
    ),
    reasons=(
        ("capture", "moved onto the opponent's tile"),
        ("colour", "moved onto a tile of the opponent's colour"),
        ("no_moves", "left the opponent without a move"),
    ),
)


def destinations(tiles: list[int], square: int) -> list[int]:
    """Return the squares a pawn on ``square`` can move to: the nearest tile in each direction."""
    out = []
    for ray in RAYS[square]:
        for sq in ray:
            if tiles[sq] != EMPTY:
                out.append(sq)
                break
    return out


class WatchState(State):
    """A position of Watch. Build one with :meth:`WatchGame.new_initial_state`."""

    __slots__ = (
        "_drops",
        "_empties",
        "_history",
        "game",
        "pawns",
        "ply",
        "reason",
        "seed",
        "supply",
        "tiles",
        "winner",
    )

    def __init__(self, game: WatchGame, seed: int | None = None) -> None:
        self.game = game
        self.seed = seed
        self.tiles = [EMPTY] * NUM_SQUARES
        self.supply = list(TILE_COUNTS)
        self.pawns = [EMPTY, EMPTY]  # squares of the white and the black pawn
        self.ply = 0
        self.winner = EMPTY
        self.reason = ""
        self._history: list[int] = []
        # While dressing: the empty squares, and for each colour still in the
        # supply the placing actions on those squares in the same order, so
        # legal_actions() is a handful of list concatenations.
        self._empties: list[int] | None = list(range(NUM_SQUARES))
        self._drops: list[list[int]] | None = [
            [c * NUM_SQUARES + sq for sq in range(NUM_SQUARES)] for c in range(NUM_COLOURS)
        ]

    # -- whose turn -------------------------------------------------------------
    def current_player(self) -> int:
        if self.winner != EMPTY:
            return TERMINAL
        ply = self.ply
        if ply < WHITE_PAWN_PLY:
            return ply & 1  # A dresses first and last (plies 0, 2, ..., 24)
        if ply < FIRST_MOVE_PLY:
            return ply - WHITE_PAWN_PLY  # then A places White and B Black
        return (ply - FIRST_MOVE_PLY) & 1

    def is_terminal(self) -> bool:
        return self.winner != EMPTY

    @property
    def phase(self) -> str:
        """Return ``dress``, ``white_pawn``, ``black_pawn``, ``move`` or ``over``."""
        if self.winner != EMPTY:
            return "over"
        if self.ply < WHITE_PAWN_PLY:
            return "dress"
        if self.ply == WHITE_PAWN_PLY:
            return "white_pawn"
        if self.ply == BLACK_PAWN_PLY:
            return "black_pawn"
        return "move"

    # -- actions ----------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        if self.winner != EMPTY:
            return []
        ply = self.ply
        if ply < WHITE_PAWN_PLY:
            out: list[int] = []
            for drops in self._drops:  # type: ignore[union-attr]
                out += drops
            return out
        if ply >= FIRST_MOVE_PLY:
            out = []
            tiles = self.tiles
            for ray in RAYS[self.pawns[(ply - FIRST_MOVE_PLY) & 1]]:
                for sq in ray:
                    if tiles[sq] != EMPTY:
                        out.append(MOVE_BASE + sq)
                        break
            return out
        if ply == WHITE_PAWN_PLY:
            return list(_WHITE_PAWN_ACTIONS)
        base = PAWN_BASE + NUM_SQUARES
        return [base + sq for sq in self.black_pawn_squares()]

    def black_pawn_squares(self) -> list[int]:
        """Return where Black may be placed: not next to White (diagonals allowed), not on White's colour."""
        white = self.pawns[WHITE]
        near = NEIGHBOURS[white]
        colour = self.tiles[white]
        tiles = self.tiles
        return [sq for sq in range(NUM_SQUARES) if tiles[sq] != colour and sq not in near]

    def apply_action(self, action: int) -> None:
        ply = self.ply
        self._history.append(action)
        self.ply = ply + 1
        if ply < WHITE_PAWN_PLY:
            colour, square = divmod(action, NUM_SQUARES)
            self.tiles[square] = colour
            supply = self.supply
            supply[colour] -= 1
            empties = self._empties
            index = empties.index(square)  # type: ignore[union-attr]
            del empties[index]  # type: ignore[union-attr]
            drops = self._drops
            for drop in drops:  # type: ignore[union-attr]
                if drop:
                    del drop[index]
            if not supply[colour]:
                drops[colour] = []  # type: ignore[index]
            if ply == WHITE_PAWN_PLY - 1:
                self._drops = self._empties = None
        elif ply >= FIRST_MOVE_PLY:
            mover = (ply - FIRST_MOVE_PLY) & 1
            pawns = self.pawns
            tiles = self.tiles
            tiles[pawns[mover]] = EMPTY  # the tile left behind is removed from the game
            square = action - MOVE_BASE
            pawns[mover] = square
            opponent = pawns[1 - mover]
            if square == opponent:
                self.winner, self.reason = mover, CAPTURE
            elif tiles[square] == tiles[opponent]:
                self.winner, self.reason = mover, SAME_COLOUR
            else:
                for ray in RAYS[opponent]:
                    for sq in ray:
                        if tiles[sq] != EMPTY:
                            return
                self.winner, self.reason = mover, NO_MOVES
        else:
            self.pawns[ply - WHITE_PAWN_PLY] = (action - PAWN_BASE) % NUM_SQUARES

    # -- notation -----------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        if 0 <= action < PAWN_BASE:
            colour, square = divmod(action, NUM_SQUARES)
            return f"{COLOUR_NAMES[colour]}@{SQUARE_NAMES[square]}"
        if PAWN_BASE <= action < MOVE_BASE:
            pawn, square = divmod(action - PAWN_BASE, NUM_SQUARES)
            return f"{PAWN_LETTERS[pawn]}@{SQUARE_NAMES[square]}"
        if MOVE_BASE <= action < NUM_ACTIONS:
            target = SQUARE_NAMES[action - MOVE_BASE]
            if self.ply >= FIRST_MOVE_PLY and self.winner == EMPTY:
                return f"{SQUARE_NAMES[self.pawns[self.current_player()]]}-{target}"
            return target  # out of context: the rulebook's own record notation
        raise MalformedActionError(f"{action!r} is not a Watch action id (0..{NUM_ACTIONS - 1})")

    def parse_action(self, text: object) -> int:
        raw = self._read_notation(text)
        phase = self.phase
        lowered = raw.lower()
        if "@" in lowered:
            piece, _, square_name = lowered.partition("@")
            square = self._parse_square(square_name.strip(), raw)
            piece = piece.strip()
            if piece in ("w", "white", "b", "black"):
                letter = piece[0]
                if phase not in ("white_pawn", "black_pawn"):
                    raise IllegalActionError(
                        f"{raw!r} places a pawn, but it is the {phase} phase; legal now: {self._describe_legal()}"
                    )
                wanted = "w" if phase == "white_pawn" else "b"
                if letter != wanted:
                    raise IllegalActionError(
                        f"{raw!r}: it is the {PAWN_NAMES[wanted == 'b']} pawn's turn to be placed; "
                        f"legal now: {self._describe_legal()}"
                    )
                return self._legal_or_raise(PAWN_BASE + (letter == "b") * NUM_SQUARES + square, raw)
            colour = COLOUR_LOOKUP.get(_colour_key(piece))
            if colour is None:
                raise MalformedActionError(f"{raw!r}: unknown colour {piece!r}; colours are {', '.join(COLOUR_NAMES)}")
            return self._legal_or_raise(colour * NUM_SQUARES + square, raw)
        if "-" in lowered:
            origin_name, _, target_name = lowered.partition("-")
            origin = self._parse_square(origin_name.strip(), raw)
            target = self._parse_square(target_name.strip(), raw)
            if phase != "move":
                raise IllegalActionError(
                    f"{raw!r} is a move, but it is the {phase} phase; legal now: {self._describe_legal()}"
                )
            mover_square = self.pawns[self.current_player()]
            if origin != mover_square:
                raise IllegalActionError(
                    f"{raw!r}: the {PAWN_NAMES[self.current_player()]} pawn is on {SQUARE_NAMES[mover_square]}, "
                    f"not {SQUARE_NAMES[origin]}; legal now: {self._describe_legal()}"
                )
            return self._legal_or_raise(MOVE_BASE + target, raw)
        square = self._parse_square(lowered, raw)
        if phase == "move":
            return self._legal_or_raise(MOVE_BASE + square, raw)
        if phase in ("white_pawn", "black_pawn"):
            return self._legal_or_raise(PAWN_BASE + (phase == "black_pawn") * NUM_SQUARES + square, raw)
        raise MalformedActionError(f"{raw!r}: while dressing name a colour and a square, like red@d4")

    def _parse_square(self, name: str, raw: str) -> int:
        square = SQUARE_INDEX.get(name)
        if square is None:
            raise MalformedActionError(f"{raw!r}: {name!r} is not a square; squares are {', '.join(SQUARE_NAMES)}")
        return square

    # -- results ------------------------------------------------------------------
    def move_counts(self) -> tuple[int, int]:
        """Return how many pawn moves White and Black have made (placements are not moves)."""
        moves = max(0, self.ply - FIRST_MOVE_PLY)
        return (moves + 1) // 2, moves // 2

    def returns(self) -> list[float]:
        if self.winner == EMPTY:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == WHITE else [-1.0, 1.0]

    def outcome(self) -> Outcome | None:
        if self.winner == EMPTY:
            return None
        moves = self.move_counts()
        return Outcome(
            winners=(self.winner,),
            reason=self.reason,
            returns=tuple(self.returns()),
            stats=tuple({"pawn": PAWN_NAMES[p], "moves": moves[p]} for p in (WHITE, BLACK)),
        )

    # -- views --------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        # Watch has no hidden information: every player sees the whole position.
        if player not in (WHITE, BLACK):
            raise ValueError(f"Watch has players 0 and 1, not {player!r}")
        current = self.current_player()
        moves = self.move_counts()
        return {
            "game": INFO.name,
            "rules_version": INFO.rules_version,
            "player": player,
            "pawn": PAWN_NAMES[player],
            "phase": self.phase,
            "to_move": None if current == TERMINAL else current,
            "board": {
                name: (None if self.tiles[sq] == EMPTY else COLOUR_NAMES[self.tiles[sq]])
                for sq, name in enumerate(SQUARE_NAMES)
            },
            "supply": {COLOUR_NAMES[c]: self.supply[c] for c in range(NUM_COLOURS)},
            "pawns": {
                PAWN_NAMES[p]: (None if self.pawns[p] == EMPTY else SQUARE_NAMES[self.pawns[p]]) for p in (WHITE, BLACK)
            },
            "moves": {"white": moves[WHITE], "black": moves[BLACK]},
            "history": list(self._history),
        }

    def render(self) -> str:
        lines = ["     " + "    ".join(COLUMNS)]
        for row in range(TOP_ROW, 0, -1):
            cells = []
            for col in COLUMNS:
                sq = SQUARE_INDEX.get(f"{col}{row}")
                if sq is None:
                    cells.append("    ")
                    continue
                tile = self.tiles[sq]
                mark = "W" if self.pawns[WHITE] == sq else "B" if self.pawns[BLACK] == sq else " "
                cells.append((" .." if tile == EMPTY else " " + COLOUR_CODES[tile]) + mark)
            lines.append(f"  {row} " + " ".join(cells).rstrip())
        status = {
            "dress": "dressing the board",
            "white_pawn": "White to place",
            "black_pawn": "Black to place",
            # Not current_player(): this dict is built even once the game is over.
            "move": f"{PAWN_NAMES[(self.ply - FIRST_MOVE_PLY) & 1].capitalize()} to move",
        }.get(self.phase)
        if status is None:
            status = f"{PAWN_NAMES[self.winner].capitalize()} won ({self.reason})"
        white_moves, black_moves = self.move_counts()
        lines.append(f"  {status}; moves White {white_moves}, Black {black_moves}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<WatchState ply={self.ply} phase={self.phase}>"

    # -- copies -------------------------------------------------------------------
    def clone(self) -> WatchState:
        new = WatchState.__new__(WatchState)
        new.game = self.game
        new.seed = self.seed
        new.tiles = self.tiles[:]
        new.supply = self.supply[:]
        new.pawns = self.pawns[:]
        new.ply = self.ply
        new.winner = self.winner
        new.reason = self.reason
        new._history = self._history[:]
        new._empties = None if self._empties is None else self._empties[:]
        new._drops = None if self._drops is None else [d[:] for d in self._drops]
        return new

    def to_json(self) -> dict[str, Any]:
        # The action list is the authoritative state: replaying it through the
        # checked path rebuilds (and validates) every derived field. The
        # snapshot fields make the document readable on its own.
        return {
            "game": INFO.name,
            "rules_version": INFO.rules_version,
            "seed": self.seed,
            "history": list(self._history),
            "board": [None if t == EMPTY else COLOUR_NAMES[t] for t in self.tiles],
            "pawns": [None if p == EMPTY else SQUARE_NAMES[p] for p in self.pawns],
        }

    def identity(self) -> tuple[Any, ...]:
        """Return the history: Watch has two players and no configuration."""
        return (self._history,)


class WatchGame(Game):
    """Watch: two players, no chance, perfect information."""

    info: ClassVar[GameInfo] = INFO
    default_config: ClassVar[Mapping[str, Any]] = {}

    def score_series(self, games: Sequence[GameRecord], num_players: int) -> dict[str, Any]:
        """Return the Watch series score (engines/watch/scoring.py) of the referee's game records."""
        from engines.watch.scoring import score_referee_games

        return score_referee_games(games)

    def new_initial_state(
        self, seed: int | None = None, config: Mapping[str, Any] | None = None, num_players: int | None = None
    ) -> WatchState:
        if config is not None:
            self.validate_config(config)
        self.check_num_players(num_players)
        return WatchState(self, seed)

    def state_from_json(self, data: Mapping[str, Any]) -> WatchState:
        return self.replay_saved(data, "a Watch state", with_config=False)  # type: ignore[return-value]
