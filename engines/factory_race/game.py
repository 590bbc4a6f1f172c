"""The factory race (rulebook 003, "Инструкция", Moscow 1942): 2-4 wartime factories race to assemble.

Each player runs a factory: a 3 x 3 production shop of square tiles whose
production lines carry resource cubes from three warehouses (west) through
machines to the assembly shop (east). Every round the players optimise their
factories with blueprints, place workers all at once and in secret (on
machines, housing, the design bureau, the distribution centre's "request for
modernisation" and, in "Вызов", the poster cell), then activate them in turn
from the first player. The first to fill every square of its assembly card
wins; ties break on blueprints, available workers, fewest machine tiles and,
in "Вызов", posters. RULES.md beside this file quotes the rulebook sentence by
sentence (Russian, with an English translation) with the code and tests that
implement it; engines/factory_race/data.py holds every number the pictures
held.

A turn is split into small decisions (RULES.md, *Decisions*): one optimisation,
one worker placement, one cube move at a time, each ended by ``done``. Actions
are ints (RULES.md, *Action ids*); chance (the tile stack, posters, events, the
start die) is drawn by the referee.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engines.base import (
    ConfigError,
    Game,
    GameInfo,
    MalformedActionError,
    Outcome,
    State,
    config_integer,
)
from engines.checks import integer_in
from engines.factory_race import data
from engines.factory_race.data import (
    CELLS,
    COLOURS,
    COLS,
    EVENTS,
    MAX_BLUEPRINTS,
    OPEN_POSTERS,
    OPEN_TILES,
    POSTERS,
    ROWS,
    TILE_COSTS,
    TILES,
    E,
    N,
    S,
    W,
    rotate,
)
from engines.result import GameRecord
from engines.win_points import won_outcome

MIN_PLAYERS, MAX_PLAYERS = 2, 4  # "два режима (2–4 игрока)"
BASE, CHALLENGE = "base", "challenge"  # "базовый" and «Вызов»
ROTATE_START, DIE_START = "rotate", "die"
MAX_ROUNDS_LIMIT = 100
DEFAULT_CONFIG: Mapping[str, Any] = {
    # "В игре предусмотрены два режима": "base" or "challenge" («Вызов»).
    "mode": BASE,
    # «Вызов»: "какие карточки техники вы будете использовать: с одной звездой, двумя или тремя";
    # 0 is the base technology (the only one of the base mode).
    "stars": 0,
    # "Игроки по очереди бросают игральный кубик": "die" rolls it (chance); "rotate" (the
    # default) lets seat 0 start, so that a series that rotates the seats starts each player once.
    "start": ROTATE_START,
    # A game nobody finishes ends after this many rounds (a platform limit): the factory with the
    # most cubes assembled wins, the rulebook's tie-breaks after (RULES.md, *Completion (round limit)*).
    "max_rounds": 30,
}

# -- action ids ------------------------------------------------------------------------
ASM_MAX = 4  # assembly machines on a card, at most
WAREHOUSES = len(COLOURS)
DONE = 0
ROTATE = 1  # + cell * 2 + (0 clockwise, 1 counter-clockwise)
MOVE = ROTATE + CELLS * 2  # + from * 9 + to
SWAP = MOVE + CELLS * CELLS  # + a * 9 + b, a < b
ROLLBACK = SWAP + CELLS * CELLS  # + cell * 12 + (cell 0-8 or 9 + warehouse)
USE = ROLLBACK + CELLS * (CELLS + WAREHOUSES)  # + poster id
STAFF = USE + len(POSTERS)  # + cell
STAFF_ASM = STAFF + CELLS  # + assembly machine
HOUSING = STAFF_ASM + ASM_MAX
BUREAU = HOUSING + 1
REQUEST = BUREAU + 1
POSTER_CELL = REQUEST + 1
TAKE_TILE = POSTER_CELL + 1  # + open slot
PUT = TAKE_TILE + OPEN_TILES  # + cell * 4 + quarter turns
DISCARD = PUT + CELLS * 4
RELOCATE = DISCARD + 1  # + cell
CUBE = RELOCATE + CELLS  # + source * 13 + destination
SOURCES = CELLS + WAREHOUSES  # 0-8 cells, 9-11 warehouses
DESTS = CELLS + ASM_MAX  # 0-8 cells, 9-12 assembly machines
TAKE_POSTER = CUBE + SOURCES * DESTS  # + open slot
TAKE_TOP = TAKE_POSTER + OPEN_POSTERS
CHOOSE = TAKE_TOP + 1  # + player
IMMUNITY = CHOOSE + MAX_PLAYERS
DRAW_TILE = IMMUNITY + 1  # + tile id
DRAW_POSTER = DRAW_TILE + len(TILES)  # + poster id
DRAW_EVENT = DRAW_POSTER + len(POSTERS)  # + event id
DIE = DRAW_EVENT + len(EVENTS)  # + face - 1
NUM_ACTIONS = DIE + 6

# Phases (``phase``) and the activation's steps.
SETUP, EVENT, SHIELD, OPTIMISE, PLACE, ACTIVATE, REFRESH, OVER = (
    "setup",
    "event",
    "immunity",
    "optimise",
    "place",
    "activate",
    "refresh",
    "over",
)
# Decisions inside the activation (``step``).
TAKE, PUTTING, DISPLACED, BONUS, MOVES, POSTER = (
    "take_tile",
    "put_tile",
    "displaced",
    "bonus_poster",
    "move_cubes",
    "take_poster",
)
ASSEMBLED, TIE_BREAK, SHARED = "assembled", "tie_break", "shared"
ROUND_CAP, ROUND_CAP_TIE = "round_cap", "round_cap_tie_break"

# One round of four players: a generous bound on decisions and draws (RULES.md, *Action ids*).
ROUND_BOUND = 800

INFO = GameInfo(
    name="factory_race",
    title="Factory race (Moscow, 1942)",
    rules_version="1",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    has_chance=True,
    has_hidden_information=True,
    max_game_length=MAX_ROUNDS_LIMIT * ROUND_BOUND,
    num_distinct_actions=NUM_ACTIONS,
    summary=(
        "Two to four players each run a wartime factory: a 3 x 3 shop of tiles whose production lines carry "
        "red, yellow and blue cubes from three warehouses through machines to an assembly shop. Each round "
        "they spend blueprints to rotate, move or swap tiles, then all place their workers at once and in "
        "secret: on machines (each moves one cube one machine on), on housing (a new worker), in the design "
        "bureau (blueprints) or at the distribution centre (buy a new tile). The first to fill every square "
        "of its assembly card wins; ties go to the most blueprints, then the most workers, then the fewest "
        "machines. The «Вызов» mode adds event cards, posters and harder new-technology cards."
    ),
    reasons=(
        (ASSEMBLED, "a factory assembled its batch first"),
        (TIE_BREAK, "several factories finished in one round and the tie-break decided"),
        (SHARED, "several factories finished in one round and stayed level: they share the win"),
        (ROUND_CAP, "nobody finished within the round limit: the factory with the most cubes assembled won"),
        (ROUND_CAP_TIE, "nobody finished within the round limit: the tie-break decided among the most advanced"),
    ),
)

CELL_NAMES = tuple(f"{'abc'[cell % COLS]}{cell // COLS + 1}" for cell in range(CELLS))
OPPOSITE = {N: S, S: N, E: W, W: E}
STEP = {N: -COLS, S: COLS, E: 1, W: -1}
ASSEMBLY = -1  # a destination: the production shop's east edge


def cell_mask(entry: tuple[int, int] | None) -> int:
    """Return the line ends of a placed (tile id, quarter turns), or 0 for an empty cell."""
    return 0 if entry is None else rotate(TILES_BY_KEY[entry[0]].shape, entry[1])


#: Every tile by its key: the distribution centre's by id (0-38), each factory's layout tiles as
#: 100 + factory * 10 + cell.
TILES_BY_KEY: dict[int, data.Tile] = {}
for _id, _tile in enumerate(TILES):
    TILES_BY_KEY[_id] = _tile
LAYOUTS: list[list[tuple[int, int] | None]] = []
for _factory in range(4):
    _cells: list[tuple[int, int] | None] = []
    for _index, _entry in enumerate(data.layout(_factory)):
        if _entry is None:
            _cells.append(None)
        else:
            TILES_BY_KEY[100 + _factory * 10 + _index] = _entry[0]
            _cells.append((100 + _factory * 10 + _index, _entry[1]))
    LAYOUTS.append(_cells)


def next_machines(grid: Sequence[tuple[int, int] | None], source: int) -> set[int]:
    """Return where a cube at ``source`` can go next: machine cells, or :data:`ASSEMBLY`.

    ``source`` is a cell 0-8 or ``CELLS + row`` for a row's warehouse. A cube
    follows joined production lines forward, up or down (never west: "вперёд,
    и/или вверх, и/или вниз"), through tiles without a machine, and stops at
    the first machine on each branch; a line that leaves the east edge reaches
    the assembly shop, but only from a machine: an assembly machine takes a cube
    "находящийся на предыдущем станке", a production machine also "на складе".
    """
    found: set[int] = set()
    seen: set[int] = set()
    stack: list[int] = []
    if source >= CELLS:
        first = (source - CELLS) * COLS
        if cell_mask(grid[first]) & W:
            stack.append(first)
    else:
        seen.add(source)
        stack.extend(_exits(grid, source))
    while stack:
        cell = stack.pop()
        if cell == ASSEMBLY:
            if source < CELLS:
                found.add(ASSEMBLY)
            continue
        if cell in seen:
            continue
        seen.add(cell)
        entry = grid[cell]
        if entry is not None and TILES_BY_KEY[entry[0]].machine:
            found.add(cell)
            continue
        stack.extend(_exits(grid, cell))
    return found


def _exits(grid: Sequence[tuple[int, int] | None], cell: int) -> list[int]:
    mask = cell_mask(grid[cell])
    out = []
    row, col = divmod(cell, COLS)
    for edge in (N, E, S):
        if not mask & edge:
            continue
        if edge == E and col == COLS - 1:
            out.append(ASSEMBLY)
            continue
        if (edge == N and row == 0) or (edge == S and row == ROWS - 1):
            continue
        other = cell + STEP[edge]
        if cell_mask(grid[other]) & OPPOSITE[edge]:
            out.append(other)
    return out


def joins(grid: Sequence[tuple[int, int] | None], cell: int, mask: int) -> bool:
    """Return True if a tile with line ends ``mask`` at ``cell`` joins at least one line around it."""
    row, col = divmod(cell, COLS)
    for edge in (N, E, S, W):
        if not mask & edge:
            continue
        if (edge == W and col == 0) or (edge == E and col == COLS - 1):
            return True  # the board's own lines: a warehouse, the assembly shop
        if (edge == N and row == 0) or (edge == S and row == ROWS - 1):
            continue
        if cell_mask(grid[cell + STEP[edge]]) & OPPOSITE[edge]:
            return True
    return False


def rows_have_machines(grid: Sequence[tuple[int, int] | None]) -> bool:
    """ "Необходимо, чтобы на каждой из этих линий был размещён хотя бы один жетон со станком"."""
    for row in range(ROWS):
        if not any(
            grid[cell] is not None and TILES_BY_KEY[grid[cell][0]].machine  # type: ignore[index]
            for cell in range(row * COLS, row * COLS + COLS)
        ):
            return False
    return True


class Factory:
    """One player's factory board: production shop, cubes, assembly card, workers, blueprints."""

    __slots__ = (
        "asm_staffed",
        "asm_used",
        "assembly",
        "blueprints",
        "bureau",
        "card",
        "cubes",
        "factory",
        "grid",
        "housing",
        "housing_left",
        "immune",
        "poster_cell",
        "posters",
        "request",
        "set_aside",
        "staffed",
        "used",
        "warehouses",
        "workers",
    )

    def __init__(self, factory: int, stars: int) -> None:
        self.factory = factory
        self.grid: list[tuple[int, int] | None] = list(LAYOUTS[factory])
        self.cubes: list[int | None] = [None] * CELLS
        self.card = data.ASSEMBLY_CARDS[stars][factory]
        self.warehouses = list(data.cubes_needed(stars, factory))
        self.assembly: list[list[int | None]] = [[None] * len(machine.squares) for machine in self.card]
        self.blueprints = 0
        self.workers = data.START_WORKERS
        self.housing_left = len(data.HOUSING_COSTS)
        #: Held posters: [poster id, round acquired, the player it also serves or -1].
        self.posters: list[list[int]] = []
        self.set_aside = 0
        self.immune = False
        self.clear_round()

    def clear_round(self) -> None:
        self.staffed: set[int] = set()
        self.asm_staffed: set[int] = set()
        self.used: set[int] = set()
        self.asm_used: set[int] = set()
        #: The workers on the housing cell this round (its price), or 0.
        self.housing = 0
        self.bureau = 0
        self.request = False
        self.poster_cell = False

    def copy(self) -> Factory:
        new = Factory.__new__(Factory)
        for name in self.__slots__:
            value = getattr(self, name)
            if isinstance(value, list):
                value = [v[:] if isinstance(v, list) else v for v in value]
            elif isinstance(value, set):
                value = set(value)
            setattr(new, name, value)
        return new

    def placed(self) -> int:
        """Return the workers placed this round."""
        return (
            len(self.staffed) * data.MACHINE_WORKERS
            + sum(self.card[k].workers for k in self.asm_staffed)
            + self.housing
            + self.bureau
            + self.request
            + data.POSTER_WORKERS * self.poster_cell
        )

    def placements(self) -> dict[str, Any]:
        """Return where this round's workers stand, JSON-ready: machines, assembly machines and the other cells."""
        return {
            "machines": sorted(CELL_NAMES[c] for c in self.staffed),
            "assembly": sorted(self.asm_staffed),
            "housing": self.housing,
            "bureau": self.bureau,
            "request": self.request,
            "poster_cell": self.poster_cell,
        }

    def complete(self) -> bool:
        return all(colour is not None for machine in self.assembly for colour in machine)

    def delivered(self) -> int:
        return sum(colour is not None for machine in self.assembly for colour in machine)

    def machines(self) -> int:
        return sum(1 for entry in self.grid if entry is not None and TILES_BY_KEY[entry[0]].machine)

    def gain(self, amount: int) -> None:
        self.blueprints = max(0, min(MAX_BLUEPRINTS, self.blueprints + amount))


class FactoryRaceState(State):
    """A position of the factory race. Build one with :meth:`FactoryRaceGame.new_initial_state`."""

    def __init__(self, game: FactoryRaceGame, config: dict[str, Any], num_players: int, seed: int | None) -> None:
        super().__init__(game, config, num_players, seed)
        self.challenge = config["mode"] == CHALLENGE
        self.factories = [Factory(player, config["stars"]) for player in range(num_players)]
        # "Жетоны со станками других игроков не замешиваются в эту стопку."
        self.tile_stack = [
            tile_id
            for tile_id in range(OPEN_TILES, len(TILES))
            if (icon := TILES[tile_id].factory) is None or icon < num_players
        ]
        self.open_tiles: list[int | None] = list(data.START_LINE)
        self.poster_stack = list(range(len(POSTERS))) if self.challenge else []
        self.open_posters: list[int | None] = [None] * OPEN_POSTERS
        self.event_deck = list(range(len(EVENTS))) if self.challenge else []
        self.event: int | None = None
        #: Public: the tiles that left the game, the posters on the discard pile, the events drawn.
        self.tiles_out: list[int] = []
        self.poster_discard: list[int] = []
        self.events_drawn: list[int] = []
        self.round = 0
        self.first = 0
        self.phase = SETUP
        self.step = ""
        self.order_index = 0
        self.to_move = 0
        #: Chance still to draw, in order: ("tile", slot), ("poster", slot), ("top", player),
        #: ("event",), ("die", player).
        self.draws: list[tuple[Any, ...]] = []
        self.dice: dict[int, int] = {}
        self.taken: int | None = None  # the tile a player bought, waiting to be put down
        self.taken_slot = -1
        self.displaced: tuple[int, int] | None = None
        #: A poster for "the owner and one chosen player" waiting for its owner's choice: (poster, owner, keep).
        self.choosing: tuple[int, int, bool] | None = None
        self.shield_queue: list[int] = []
        self.winners: tuple[int, ...] = ()
        self.reason = ""
        #: Decisions each player made (the series table's "moves").
        self.decisions = [0] * num_players
        if self.challenge:
            self.draws.extend(("poster", slot) for slot in range(OPEN_POSTERS))
        if config["start"] == DIE_START:
            self.draws.extend(("die", player) for player in range(num_players))
        self._advance()

    # -- whose turn --------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return bool(self.draws) and self.phase != OVER

    def order(self) -> list[int]:
        """Return the players in this round's order: the first player, then clockwise."""
        return [(self.first + offset) % self.num_players for offset in range(self.num_players)]

    # -- the flow ----------------------------------------------------------------------
    def _advance(self) -> None:
        """Run every automatic step until a player must decide, chance must be drawn, or the game is over."""
        while True:
            self._skip_empty_draws()
            if self.draws or self.phase == OVER:
                return
            if self.choosing is not None:
                self.to_move = self.choosing[1]
                return
            if self.phase == SETUP:
                self._start_round()
            elif self.phase == EVENT:
                self._after_event()
            elif self.phase == SHIELD:
                if self.shield_queue:
                    self.to_move = self.shield_queue[0]
                    return
                self._apply_event()
                self._begin_optimise()
            elif self.phase in (OPTIMISE, PLACE):
                if self.order_index >= self.num_players:
                    if self.phase == OPTIMISE:
                        self._begin_place()
                    else:
                        self._begin_activate()
                    continue
                self.to_move = self.order()[self.order_index]
                if self._decisions() != [DONE]:
                    return
                self.order_index += 1
            elif self.phase == ACTIVATE:
                if self.order_index >= self.num_players:
                    self._end_round()
                    continue
                self.to_move = self.order()[self.order_index]
                if self._activation_step():
                    return
            elif self.phase == REFRESH:
                self._start_round()

    def _start_round(self) -> None:
        if self.phase == SETUP and self.dice:
            self._settle_die()
            if self.draws:
                return
        if self.round >= self.config["max_rounds"]:
            self._decide(list(range(self.num_players)), capped=True)
            return
        self.round += 1
        self.event = None
        for factory in self.factories:
            factory.clear_round()
            factory.immune = False
            factory.workers += factory.set_aside
            factory.set_aside = 0
        if self.challenge and self.round >= 2 and self.event_deck:
            self.phase = EVENT
            self.draws.append(("event",))
        else:
            self._begin_optimise()

    def _settle_die(self) -> None:
        best = max(self.dice.values())
        tied = sorted(player for player, face in self.dice.items() if face == best)
        if len(tied) == 1:
            self.first = tied[0]
            self.dice = {}
        else:  # the players who rolled the highest roll again
            self.dice = {}
            self.draws.extend(("die", player) for player in tied)

    def _after_event(self) -> None:
        self.phase = SHIELD
        self.shield_queue = []
        if self.event in data.HARMFUL_EVENTS:
            self.shield_queue = [player for player in self.order() if self._shield_poster(player) is not None]

    def _shield_poster(self, player: int) -> int | None:
        """Return a Vigilance poster ``player`` may use against this round's event, or None."""
        if self.event is None or EVENTS[self.event].effect == "heads_down":
            return None
        for poster, got, _chosen in self.factories[player].posters:
            if POSTERS[poster].effect == "immunity" and got < self.round:
                return poster
        return None

    def _apply_event(self) -> None:
        event = EVENTS[self.event]  # type: ignore[index]
        players = self.order()
        if event.target == "most":
            top = max(self.factories[p].blueprints for p in players)
            players = [p for p in players if self.factories[p].blueprints == top]
        elif event.target == "fewest":
            low = min(self.factories[p].blueprints for p in players)
            players = [p for p in players if self.factories[p].blueprints == low]
        elif event.target == "first":
            players = [self.first]
        players = [p for p in players if not self.factories[p].immune]
        if event.effect == "blueprints":
            for player in players:
                self.factories[player].gain(event.amount)
        elif event.effect == "worker":
            for player in players:
                self._free_worker(player)
        elif event.effect == "rest":
            for player in players:
                factory = self.factories[player]
                if factory.workers:
                    factory.workers -= 1
                    factory.set_aside = 1
        elif event.effect == "refresh_tiles":
            self.tiles_out.extend(tile for tile in self.open_tiles if tile is not None)
            for slot in range(OPEN_TILES):
                self.open_tiles[slot] = None
            self.draws.extend(("tile", slot) for slot in range(OPEN_TILES))
        elif event.effect == "refresh_posters":
            self.poster_discard.extend(poster for poster in self.open_posters if poster is not None)
            for slot in range(OPEN_POSTERS):
                self.open_posters[slot] = None
            self.draws.extend(("poster", slot) for slot in range(OPEN_POSTERS))

    def event_touches(self, player: int, effect: str, space: str = "") -> bool:
        """Return True if this round's event has ``effect`` (and ``space``) for ``player``."""
        if self.event is None or self.factories[player].immune:
            return False
        event = EVENTS[self.event]
        return event.effect == effect and (not space or event.space == space)

    def _free_worker(self, player: int) -> None:
        factory = self.factories[player]
        if factory.housing_left:
            factory.housing_left -= 1
            factory.workers += 1

    def _begin_optimise(self) -> None:
        # "Фаза оптимизации завода (не используется в первом раунде)"
        self.phase = OPTIMISE if self.round >= 2 else PLACE
        self.order_index = 0

    def _begin_place(self) -> None:
        self.phase = PLACE
        self.order_index = 0

    def _begin_activate(self) -> None:
        self.phase = ACTIVATE
        self.order_index = 0
        self.step = "bureau"

    def _activation_step(self) -> bool:
        """Do the current player's next activation step; return True when it waits for their decision."""
        player = self.to_move
        factory = self.factories[player]
        step = self.step
        if step == "bureau":
            # 1. "Игрок двигает шайбу-маркер ... на столько делений вперёд, сколько фигурок рабочих"
            if factory.bureau:
                bonus = self._bureau_bonus(player) + (
                    EVENTS[self.event].amount if self.event_touches(player, "bureau") else 0  # type: ignore[index]
                )
                factory.gain(factory.bureau + bonus)
                factory.bureau = 0  # the workers go back beside the board (``workers`` counts them all)
            self.step = TAKE
            return False
        if step == TAKE:
            # 2. the request for modernisation
            if factory.request and self._decisions() != [DONE]:
                return True
            factory.request = False
            self.step = "housing"
            return False
        if step in (PUTTING, DISPLACED, BONUS):
            return True
        if step == "housing":
            # 3. "забирает все выставленные ... фигурки рабочих из самой левой ячейки жилья, включая нового"
            if factory.housing:
                # The new worker is the one on the cell the workers stood on, unless a poster or an
                # event has brought that one home already.
                cell = data.HOUSING_COSTS.index(factory.housing)
                if factory.housing_left and len(data.HOUSING_COSTS) - factory.housing_left == cell:
                    self._free_worker(self.to_move)
                factory.housing = 0
            self.step = MOVES
            return False
        if step == MOVES:
            # 4. the cubes; then "рабочие с этих станков снимаются"
            if self._decisions() != [DONE]:
                return True
            factory.staffed.clear()
            factory.asm_staffed.clear()
            self.step = POSTER
            return False
        if step == POSTER:
            # 5. «Создание плаката»
            if factory.poster_cell and self._decisions() != [DONE]:
                return True
            factory.poster_cell = False
            self.order_index += 1
            self.step = "bureau"
            return False
        raise AssertionError(f"unknown activation step {step!r}")

    def _bureau_bonus(self, player: int) -> int:
        bonus = 0
        for owner, factory in enumerate(self.factories):
            for poster, got, _chosen in factory.posters:
                card = POSTERS[poster]
                if card.effect == "bureau" and got < self.round and (owner == player or card.target == data.ALL):
                    bonus += card.amount
        return bonus

    def _end_round(self) -> None:
        done = [player for player in range(self.num_players) if self.factories[player].complete()]
        if done:
            self._decide(done)
            return
        # "Фаза обновления линии плакатов и линии жетонов"
        if self.challenge:
            self._shift(self.open_posters, OPEN_POSTERS - 1, "poster")
        self._shift(self.open_tiles, OPEN_TILES - 1, "tile")
        # "первым игроком следующего раунда становится игрок по левую руку"
        self.first = (self.first + 1) % self.num_players
        self.phase = REFRESH

    def _shift(self, line: list[int | None], slot: int, kind: str) -> None:
        """Remove ``line[slot]``, move everything left of it one cell right, and draw into cell 0."""
        if line[slot] is not None:  # out of the game, or onto the discard pile face up
            (self.tiles_out if kind == "tile" else self.poster_discard).append(line[slot])  # type: ignore[arg-type]
        for index in range(slot, 0, -1):
            line[index] = line[index - 1]
        line[0] = None
        self.draws.append((kind, 0))

    def tie_key(self, player: int) -> tuple[int, ...]:
        """Return the rulebook's tie-break values for ``player``: larger is better, in order."""
        factory = self.factories[player]
        key = [factory.blueprints, factory.workers + factory.set_aside, -factory.machines()]
        if self.challenge:
            key.append(len(factory.posters))
        return tuple(key)

    def _decide(self, done: list[int], capped: bool = False) -> None:
        """End the game among the players ``done`` (finished, or all of them at the round limit)."""
        self.phase = OVER
        if capped:
            # The platform's limit: the most cubes on the assembly card lead, then the rulebook's tie-breaks.
            most = max(self.factories[player].delivered() for player in done)
            done = [player for player in done if self.factories[player].delivered() == most]
        if len(done) == 1:
            self.winners, self.reason = (done[0],), ROUND_CAP if capped else ASSEMBLED
            return
        best = max(self.tie_key(player) for player in done)
        self.winners = tuple(player for player in done if self.tie_key(player) == best)
        if len(self.winners) > 1:
            self.reason = SHARED
        else:
            self.reason = ROUND_CAP_TIE if capped else TIE_BREAK

    # -- decisions -----------------------------------------------------------------------
    def _decisions(self) -> list[int]:
        player = self.to_move
        phase = self.phase
        if self.choosing is not None:
            return [CHOOSE + other for other in range(self.num_players) if other != player]
        if phase == OPTIMISE:
            return self._optimisations(player)
        if phase == PLACE:
            return self._placements(player)
        if phase == SHIELD:
            return [DONE, IMMUNITY]
        step = self.step
        if step == TAKE:
            return [DONE, *self._takeable(player)]
        if step == PUTTING:
            return self._puts(player, self.taken)  # type: ignore[arg-type]
        if step == DISPLACED:
            factory = self.factories[player]
            out = [DISCARD]
            if factory.blueprints >= 1:
                out += [RELOCATE + cell for cell in range(CELLS) if factory.grid[cell] is None]
            return out
        if step == BONUS:
            return [DONE, *(TAKE_POSTER + slot for slot in range(OPEN_POSTERS) if self.open_posters[slot] is not None)]
        if step == MOVES:
            return [DONE, *self._cube_moves(player)]
        if step == POSTER:
            out = [TAKE_POSTER + slot for slot in range(OPEN_POSTERS) if self.open_posters[slot] is not None]
            if self.poster_stack:
                out.append(TAKE_TOP)
            return out or [DONE]
        raise AssertionError(f"no decisions in {phase}/{step}")

    def _optimisations(self, player: int) -> list[int]:
        factory = self.factories[player]
        grid = factory.grid
        money = factory.blueprints
        out = [DONE]
        if money >= 1:
            for cell in range(CELLS):
                entry = grid[cell]
                if entry is None:
                    continue
                mask = cell_mask(entry)
                for direction, turn in ((0, 1), (1, 3)):
                    new = rotate(mask, turn)
                    if new != mask and joins(grid, cell, new):
                        out.append(ROTATE + cell * 2 + direction)
            for cell in range(CELLS):
                if grid[cell] is None:
                    continue
                for target in range(CELLS):
                    if grid[target] is None and self._after_move_ok(grid, cell, target):
                        out.append(MOVE + cell * CELLS + target)
        if money >= 2:
            for a in range(CELLS):
                for b in range(a + 1, CELLS):
                    if grid[a] is not None and grid[b] is not None and grid[a] != grid[b]:
                        swapped = list(grid)
                        swapped[a], swapped[b] = grid[b], grid[a]
                        if rows_have_machines(swapped):
                            out.append(SWAP + a * CELLS + b)
        if money >= 1:
            for cell in range(CELLS):
                colour = factory.cubes[cell]
                if colour is None:
                    continue
                for back in self._rollbacks(factory, cell, colour):
                    out.append(ROLLBACK + cell * SOURCES + back)
        if not self.event_touches(player, "heads_down"):
            for poster, got, _chosen in factory.posters:
                card = POSTERS[poster]
                if card.timing == data.UNTIL_USED and card.effect != "immunity" and got < self.round:
                    out.append(USE + poster)
        return sorted(set(out))

    @staticmethod
    def _after_move_ok(grid: Sequence[tuple[int, int] | None], cell: int, target: int) -> bool:
        moved = list(grid)
        moved[target], moved[cell] = grid[cell], None
        return rows_have_machines(moved)

    @staticmethod
    def _rollbacks(factory: Factory, cell: int, colour: int) -> list[int]:
        """Return where a cube at ``cell`` may roll back to: one machine (or its warehouse) behind."""
        out = []
        for source in range(SOURCES):
            if source < CELLS:
                if source == cell or factory.cubes[source] is not None:
                    continue
                entry = factory.grid[source]
                if entry is None or not TILES_BY_KEY[entry[0]].machine:
                    continue
            elif source - CELLS != colour:
                continue
            if cell in next_machines(factory.grid, source):
                out.append(source)
        return out

    def _placements(self, player: int) -> list[int]:
        factory = self.factories[player]
        free = factory.workers - factory.placed()
        out = [DONE]
        if free <= 0:
            return out
        for cell in range(CELLS):
            entry = factory.grid[cell]
            if entry is not None and TILES_BY_KEY[entry[0]].machine and cell not in factory.staffed:
                out.append(STAFF + cell)
        for k, machine in enumerate(factory.card):
            if k not in factory.asm_staffed and machine.workers <= free:
                out.append(STAFF_ASM + k)
        if (
            factory.housing_left
            and not factory.housing
            and data.HOUSING_COSTS[len(data.HOUSING_COSTS) - factory.housing_left] <= free
            and not self.event_touches(player, "closed", "housing")
        ):
            out.append(HOUSING)
        if factory.bureau < data.BUREAU_SPACES and not self.event_touches(player, "closed", "bureau"):
            out.append(BUREAU)
        if not factory.request:
            out.append(REQUEST)
        if self.challenge and not factory.poster_cell and free >= data.POSTER_WORKERS:
            out.append(POSTER_CELL)
        return out

    def tile_cost(self, player: int, slot: int) -> int:
        """Return what the open tile in ``slot`` costs ``player`` this round, in blueprints."""
        cost = TILE_COSTS[slot]
        if self.event_touches(player, "cost"):
            cost += EVENTS[self.event].amount  # type: ignore[index]
        # A Thrift poster helps its owner (and, for the two-player kind, the player it chose).
        for owner, factory in enumerate(self.factories):
            for poster, got, chosen in factory.posters:
                if POSTERS[poster].effect == "discount" and got < self.round and player in (owner, chosen):
                    cost -= POSTERS[poster].amount
        return max(0, cost)

    def _takeable(self, player: int) -> list[int]:
        factory = self.factories[player]
        out = []
        for slot, tile_id in enumerate(self.open_tiles):
            if tile_id is None:
                continue
            icon = TILES[tile_id].factory
            if icon is not None and icon != factory.factory:
                continue
            if self.tile_cost(player, slot) > factory.blueprints:
                continue
            if self._puts(player, tile_id):
                out.append(TAKE_TILE + slot)
        return out

    def _puts(self, player: int, tile_id: int) -> list[int]:
        """Return where ``tile_id`` may go: an empty cell, or in place of a tile without a worker or a cube."""
        factory = self.factories[player]
        out = []
        shape = TILES[tile_id].shape
        for cell in range(CELLS):
            if cell in factory.staffed or factory.cubes[cell] is not None:
                continue
            grid = list(factory.grid)
            grid[cell] = (tile_id, 0)
            if not rows_have_machines(grid):
                continue
            seen = set()
            for turns in range(4):
                mask = rotate(shape, turns)
                if mask not in seen:
                    seen.add(mask)
                    out.append(PUT + cell * 4 + turns)
        return out

    def _cube_moves(self, player: int) -> list[int]:
        factory = self.factories[player]
        out = []
        for source in range(SOURCES):
            if source < CELLS:
                colour = factory.cubes[source]
                if colour is None or source in factory.used:
                    continue
            else:
                colour = source - CELLS
                if not factory.warehouses[colour]:
                    continue
            for dest in next_machines(factory.grid, source):
                if dest == ASSEMBLY:
                    for k in self._assembly_reach(factory, colour):
                        out.append(CUBE + source * DESTS + CELLS + k)
                elif dest in factory.staffed and dest not in factory.used and factory.cubes[dest] is None:
                    out.append(CUBE + source * DESTS + dest)
        return sorted(out)

    @staticmethod
    def _assembly_reach(factory: Factory, colour: int) -> list[int]:
        """Return the assembly machines a cube of ``colour`` can reach now, passing staffed machines on the way."""
        out = []
        for k in range(len(factory.card)):
            if k not in factory.asm_staffed:
                break
            if k not in factory.asm_used and any(
                square == colour and factory.assembly[k][i] is None for i, square in enumerate(factory.card[k].squares)
            ):
                out.append(k)
        return out

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.draws or self.phase == OVER:
            return super().chance_outcomes()
        kind = self.draws[0][0]
        if kind == "tile":
            actions = [DRAW_TILE + tile for tile in self.tile_stack]
        elif kind in ("poster", "top"):
            actions = [DRAW_POSTER + poster for poster in self.poster_stack]
        elif kind == "event":
            actions = [DRAW_EVENT + event for event in self.event_deck]
        else:
            actions = [DIE + face for face in range(6)]
        return [(action, 1.0 / len(actions)) for action in actions]

    # -- applying ----------------------------------------------------------------------
    def apply_action(self, action: int) -> None:
        self._history.append(action)
        if self.draws:
            self._apply_chance(action)
        else:
            self._apply_decision(action)
        self._advance()

    def _skip_empty_draws(self) -> None:
        # A stack that has run out leaves its cell empty; a poster taken from the top of an empty stack is none.
        while self.draws:
            kind = self.draws[0][0]
            stacks = {"tile": self.tile_stack, "poster": self.poster_stack, "top": self.poster_stack}
            if not stacks.get(kind, self.event_deck if kind == "event" else [True]):
                self.draws.pop(0)
            else:
                return

    def _apply_chance(self, action: int) -> None:
        need = self.draws.pop(0)
        kind = need[0]
        if kind == "tile":
            tile = action - DRAW_TILE
            self.tile_stack.remove(tile)
            self.open_tiles[need[1]] = tile
        elif kind == "poster":
            poster = action - DRAW_POSTER
            self.poster_stack.remove(poster)
            self.open_posters[need[1]] = poster
        elif kind == "top":
            poster = action - DRAW_POSTER
            self.poster_stack.remove(poster)
            self._acquire(need[1], poster)
        elif kind == "event":
            event = action - DRAW_EVENT
            self.event_deck.remove(event)
            self.events_drawn.append(event)
            self.event = event
        else:
            self.dice[need[1]] = action - DIE + 1

    def _apply_decision(self, action: int) -> None:
        player = self.to_move
        self.decisions[player] += 1
        factory = self.factories[player]
        phase = self.phase
        if self.choosing is not None:
            poster, _owner, keep = self.choosing
            self.choosing = None
            self._run_poster(player, poster, keep, chosen=action - CHOOSE)
            return
        if phase == SHIELD:
            self.shield_queue.pop(0)
            if action == IMMUNITY:
                shield = self._shield_poster(player)
                assert shield is not None  # offered only to a holder
                factory.posters = [held for held in factory.posters if held[0] != shield]
                self.poster_discard.append(shield)
                factory.immune = True
            return
        if phase == OPTIMISE:
            if action == DONE:
                self.order_index += 1
            else:
                self._optimise(player, action)
            return
        if phase == PLACE:
            if action == DONE:
                self.order_index += 1
            else:
                self._place(factory, action)
            return
        step = self.step
        if step == TAKE:
            factory.request = False
            if action == DONE:
                self.step = "housing"
                return
            slot = action - TAKE_TILE
            tile = self.open_tiles[slot]
            factory.gain(-self.tile_cost(player, slot))
            self.open_tiles[slot] = None
            self._shift(self.open_tiles, slot, "tile")
            self.taken, self.taken_slot, self.step = tile, slot, PUTTING
        elif step == PUTTING:
            cell, turns = divmod(action - PUT, 4)
            old = factory.grid[cell]
            factory.grid[cell] = (self.taken, turns)  # type: ignore[assignment]
            self.taken = None
            if old is not None:
                self.displaced, self.step = old, DISPLACED
            else:
                self._after_tile(player)
        elif step == DISPLACED:
            if action == DISCARD:
                self.tiles_out.append(self.displaced[0])  # type: ignore[index]
            else:
                factory.grid[action - RELOCATE] = self.displaced
                factory.gain(-1)
            self.displaced = None
            self._after_tile(player)
        elif step == BONUS:
            self.step = "housing"
            if action != DONE:
                self._take_open_poster(player, action - TAKE_POSTER)
        elif step == MOVES:
            if action == DONE:
                # The step ends on the next pass of _advance (no move left is the same as done).
                factory.used = set(range(CELLS))
                factory.asm_used = set(range(ASM_MAX))
            else:
                self._move_cube(factory, action)
        elif step == POSTER:
            factory.poster_cell = False
            self.order_index += 1
            self.step = "bureau"
            if action == TAKE_TOP:
                self.draws.append(("top", player))
            elif action != DONE:
                self._take_open_poster(player, action - TAKE_POSTER)

    def _after_tile(self, player: int) -> None:
        # "Если игрок приобретал один из двух жетонов за пять чертежей, он может также получить один из
        # открытых плакатов"
        if self.challenge and TILE_COSTS[self.taken_slot] == 5 and any(p is not None for p in self.open_posters):
            self.step = BONUS
        else:
            self.step = "housing"
        self.taken_slot = -1

    def _optimise(self, player: int, action: int) -> None:
        factory = self.factories[player]
        grid = factory.grid
        if action < MOVE:
            cell, direction = divmod(action - ROTATE, 2)
            tile, turns = grid[cell]  # type: ignore[misc]
            grid[cell] = (tile, (turns + (1 if direction == 0 else 3)) % 4)
            factory.gain(-1)
        elif action < SWAP:
            cell, target = divmod(action - MOVE, CELLS)
            grid[target], grid[cell] = grid[cell], None
            factory.cubes[target], factory.cubes[cell] = factory.cubes[cell], None
            factory.gain(-1)
        elif action < ROLLBACK:
            a, b = divmod(action - SWAP, CELLS)
            grid[a], grid[b] = grid[b], grid[a]
            factory.cubes[a], factory.cubes[b] = factory.cubes[b], factory.cubes[a]
            factory.gain(-2)
        elif action < USE:
            cell, back = divmod(action - ROLLBACK, SOURCES)
            colour = factory.cubes[cell]
            factory.cubes[cell] = None
            if back < CELLS:
                factory.cubes[back] = colour
            else:
                factory.warehouses[back - CELLS] += 1
            factory.gain(-1)
        else:
            poster = action - USE
            factory.posters = [held for held in factory.posters if held[0] != poster]
            self._run_poster(player, poster, keep=False)

    def _place(self, factory: Factory, action: int) -> None:
        if action < STAFF_ASM:
            factory.staffed.add(action - STAFF)
        elif action < HOUSING:
            factory.asm_staffed.add(action - STAFF_ASM)
        elif action == HOUSING:
            factory.housing = data.HOUSING_COSTS[len(data.HOUSING_COSTS) - factory.housing_left]
        elif action == BUREAU:
            factory.bureau += 1
        elif action == REQUEST:
            factory.request = True
        else:
            factory.poster_cell = True
        if factory.placed() > factory.workers:
            raise AssertionError("placed more workers than the player has")

    def _move_cube(self, factory: Factory, action: int) -> None:
        source, dest = divmod(action - CUBE, DESTS)
        if source < CELLS:
            colour = factory.cubes[source]
            factory.cubes[source] = None
        else:
            colour = source - CELLS
            factory.warehouses[colour] -= 1
        if dest < CELLS:
            factory.cubes[dest] = colour
            factory.used.add(dest)
            return
        k = dest - CELLS
        # "транзитом": the machines on the way only need their workers; the one it stops on has taken its cube.
        factory.asm_used.add(k)
        squares = factory.card[k].squares
        for index, square in enumerate(squares):
            if square == colour and factory.assembly[k][index] is None:
                factory.assembly[k][index] = colour
                return
        raise AssertionError("no free square of that colour")

    def _take_open_poster(self, player: int, slot: int) -> None:
        poster = self.open_posters[slot]
        self.open_posters[slot] = None
        self._shift(self.open_posters, slot, "poster")
        self._acquire(player, poster)  # type: ignore[arg-type]

    def _acquire(self, player: int, poster: int) -> None:
        card = POSTERS[poster]
        if card.timing == data.INSTANT:
            # "Эффект зачитывается обладателем карточки плаката сразу после её получения и тут же применяется."
            self._run_poster(player, poster, keep=False)
        elif card.target == data.OWNER_AND_CHOSEN and card.timing == data.PERMANENT:
            self._run_poster(player, poster, keep=True)
        else:
            self.factories[player].posters.append([poster, self.round, -1])

    def _run_poster(self, player: int, poster: int, keep: bool, chosen: int | None = None) -> None:
        """Apply ``poster``'s effect for its owner ``player`` (or, with ``keep``, hold it for them and ``chosen``)."""
        card = POSTERS[poster]
        if card.target == data.OWNER_AND_CHOSEN and chosen is None:
            self.choosing = (poster, player, keep)  # the owner names the other player first
            return
        if keep:
            self.factories[player].posters.append([poster, self.round, -1 if chosen is None else chosen])
            return
        if card.target == data.OWNER:
            targets = [player]
        elif card.target == data.OTHERS:
            targets = [p for p in range(self.num_players) if p != player]
        elif card.target == data.ALL:
            targets = list(range(self.num_players))
        else:
            targets = [player, chosen]  # type: ignore[list-item]
        # "Карточки плакатов после активации уходят в сброс лицевой стороной вверх."
        self.poster_discard.append(poster)
        for target in targets:
            if card.effect == "blueprints":
                self.factories[target].gain(card.amount)
            elif card.effect == "worker":
                self._free_worker(target)

    # -- notation -----------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        if not integer_in(action, 0, NUM_ACTIONS - 1):
            raise MalformedActionError(f"{action!r} is not a factory race action id (0..{NUM_ACTIONS - 1})")
        return NOTATION[action]

    def parse_action(self, text: object) -> int:
        raw = self._read_notation(text)
        key = " ".join(raw.lower().split())
        action = PARSE.get(key)
        if action is None:
            raise MalformedActionError(
                f"{raw!r} is not factory race notation: for example 'done', 'rotate b2 cw', 'move a1 to c3', "
                "'swap a1 b2', 'staff b2', 'staff asm1', 'bureau', 'housing', 'request', 'take tile 5', "
                "'put c1 turn 1', 'cube red>a1', 'cube c2>asm1'"
            )
        return self._legal_or_raise(action, raw)

    def why_illegal(self, action: int) -> str:
        """Return the rule that makes an in-range ``action`` illegal now (starting ``": "``), or ``""``."""
        if self.draws:
            return ": chance is being drawn (a tile, a poster, an event or the die)"
        player = self.to_move
        factory = self.factories[player]
        phase, step = self.phase, self.step
        if ROTATE <= action < USE and phase != OPTIMISE:
            return ": the factory is optimised only in the optimisation phase, from the second round"
        if STAFF <= action < TAKE_TILE and phase != PLACE:
            return ": workers are placed only in the placement phase"
        if phase == OPTIMISE and ROTATE <= action < USE:
            cost = 2 if SWAP <= action < ROLLBACK else 1
            if factory.blueprints < cost:
                return f": it costs {cost} blueprint{'s' * (cost > 1)} and P{player} has {factory.blueprints}"
            if action < MOVE:
                cell = (action - ROTATE) // 2
                if factory.grid[cell] is None:
                    return f": there is no tile on {CELL_NAMES[cell]}"
                return ": the turned tile's production line must join another line"
            if action < SWAP:
                cell, target = divmod(action - MOVE, CELLS)
                if factory.grid[cell] is None:
                    return f": there is no tile on {CELL_NAMES[cell]}"
                if factory.grid[target] is not None:
                    return f": {CELL_NAMES[target]} is not free"
                return ": every row of the production shop must keep a machine"
            if action < ROLLBACK:
                return ": a swap needs two different tiles and must leave a machine in every row"
            return ": a cube rolls back only to the machine (or warehouse of its colour) just behind it, if free"
        if phase == PLACE and STAFF <= action < TAKE_TILE:
            free = factory.workers - factory.placed()
            if action < STAFF_ASM:
                entry = factory.grid[action - STAFF]
                if entry is None or not TILES_BY_KEY[entry[0]].machine:
                    return f": there is no machine on {CELL_NAMES[action - STAFF]}"
                if free < 1:
                    return f": P{player} has no worker left"
                return ": that machine is already staffed"
            if action < HOUSING:
                k = action - STAFF_ASM
                if k >= len(factory.card):
                    return f": the assembly card has {len(factory.card)} machines"
                return f": that machine takes exactly {factory.card[k].workers} workers; P{player} has {free} left"
            if action in (HOUSING, BUREAU) and self.event_touches(
                player, "closed", "housing" if action == HOUSING else "bureau"
            ):
                return f": this round's event, {EVENTS[self.event].title}, shuts it"  # type: ignore[index]
            if action == HOUSING:
                return ": only the leftmost housing cell, once a round, with exactly the workers it shows"
            if action == BUREAU:
                return f": the bureau holds {data.BUREAU_SPACES} workers"
            if action == REQUEST:
                return ": one worker per player on the request for modernisation"
            if not self.challenge:
                return ": the poster cell is in the «Вызов» mode only"
            return ": the poster cell takes exactly two workers of a player, once"
        if CUBE <= action < TAKE_POSTER:
            if step != MOVES:
                return ": cubes move in the fourth step of a player's activation"
            return (
                ": a cube moves one machine on, along a joined line, forward, up or down, onto a staffed machine "
                "that is free (production) or has a free square of its colour (assembly)"
            )
        if TAKE_TILE <= action < PUT:
            if step != TAKE:
                return ": a tile is taken in the second step of the activation, with a worker on the request"
            return ": the tile must be open, affordable, of no other factory's icon, and fit somewhere"
        if PUT <= action < DISCARD:
            cell = (action - PUT) // 4
            if step != PUTTING:
                return ": a tile is put down right after it is taken"
            if cell in factory.staffed or factory.cubes[cell] is not None:
                return f": the tile on {CELL_NAMES[cell]} has a worker or a cube and cannot be replaced"
            return ": every row of the production shop must keep a machine"
        return ""

    # -- results -----------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        return won_outcome(
            self.winners,
            self.reason,
            self.num_players,
            stats=tuple(
                {
                    "factory": data.FACTORY_NAMES[factory.factory],
                    "moves": self.decisions[player],
                    "rounds": self.round,
                    "delivered": factory.delivered(),
                    "needed": sum(len(machine.squares) for machine in factory.card),
                    "blueprints": factory.blueprints,
                    "workers": factory.workers + factory.set_aside,
                    "machines": factory.machines(),
                    "posters": len(factory.posters),
                }
                for player, factory in enumerate(self.factories)
            ),
        )

    # -- views -------------------------------------------------------------------------
    def _factory_view(self, player: int, viewer: int | None) -> dict[str, Any]:
        factory = self.factories[player]
        hidden = self.phase == PLACE and viewer is not None and viewer != player
        view: dict[str, Any] = {
            "factory": data.FACTORY_NAMES[factory.factory],
            "grid": [
                None
                if entry is None
                else {
                    "tile": entry[0],
                    "turns": entry[1],
                    "lines": "".join(name for bit, name in data.EDGE_NAMES.items() if cell_mask(entry) & bit),
                    "machine": TILES_BY_KEY[entry[0]].machine,
                    "cube": None if factory.cubes[cell] is None else COLOURS[factory.cubes[cell]],  # type: ignore[index]
                }
                for cell, entry in enumerate(factory.grid)
            ],
            "warehouses": {COLOURS[c]: factory.warehouses[c] for c in range(len(COLOURS))},
            "assembly": [
                {
                    "workers": machine.workers,
                    "squares": [COLOURS[c] for c in machine.squares],
                    "filled": [None if c is None else COLOURS[c] for c in factory.assembly[k]],
                }
                for k, machine in enumerate(factory.card)
            ],
            "blueprints": factory.blueprints,
            "housing_left": factory.housing_left,
            "next_housing_cost": (
                data.HOUSING_COSTS[len(data.HOUSING_COSTS) - factory.housing_left] if factory.housing_left else None
            ),
            "posters": [
                {"id": poster, "round": got, "chosen": None if chosen < 0 else chosen}
                for poster, got, chosen in factory.posters
            ],
            "immune": factory.immune,
            "set_aside": factory.set_aside,
        }
        if hidden:
            # "Все игроки одновременно расставляют": nothing of this round's placement shows yet.
            view["workers"] = factory.workers
            view["placed"] = None
        else:
            view["workers"] = factory.workers - factory.placed()
            view["placed"] = {
                **factory.placements(),
                # The machines that took a cube this activation (each takes one a round).
                "used": sorted(CELL_NAMES[c] for c in factory.used if c in factory.staffed),
                "assembly_used": sorted(k for k in factory.asm_used if k in factory.asm_staffed),
            }
        return view

    def observation(self, player: int) -> dict[str, Any]:
        return self._view(self._check_seat(player))

    def _view(self, viewer: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            **self._view_header(viewer),
            "round": self.round,
            "phase": self.phase,
            "step": self.step if self.phase == ACTIVATE else "",
            "first_player": self.first,
            "factories": [self._factory_view(p, viewer) for p in range(self.num_players)],
            "open_tiles": [
                None
                if tile is None
                else {
                    "tile": tile,
                    "lines": "".join(name for bit, name in data.EDGE_NAMES.items() if TILES[tile].shape & bit),
                    "machine": TILES[tile].machine,
                    "icon": None if (icon := TILES[tile].factory) is None else data.FACTORY_NAMES[icon],
                    "cost": TILE_COSTS[slot],
                }
                for slot, tile in enumerate(self.open_tiles)
            ],
            "open_tiles_ids": list(self.open_tiles),
            "tile_stack": len(self.tile_stack),
            "tiles_out": list(self.tiles_out),
            "taken_tile": self.taken,
            "taken_slot": self.taken_slot if self.taken_slot >= 0 else None,
            "displaced_tile": None if self.displaced is None else list(self.displaced),
            "choosing": None if self.choosing is None else list(self.choosing),
            "immunity_queue": list(self.shield_queue),
        }
        if self.challenge:
            view["open_posters"] = list(self.open_posters)
            view["poster_stack"] = len(self.poster_stack)
            view["poster_discard"] = list(self.poster_discard)
            view["events_drawn"] = list(self.events_drawn)
            view["event"] = self.event
            view["events_left"] = len(self.event_deck)
        if self.phase == OVER:
            view["outcome"] = self.outcome().to_json()  # type: ignore[union-attr]
        return view

    def render(self) -> str:
        lines = [f"round {self.round}, phase {self.phase}{' / ' + self.step if self.phase == ACTIVATE else ''}"]
        for player, factory in enumerate(self.factories):
            lines.append(
                f"P{player} {data.FACTORY_NAMES[factory.factory]}: blueprints {factory.blueprints}, "
                f"workers {factory.workers}, housing left {factory.housing_left}, "
                f"delivered {factory.delivered()}/{sum(len(m.squares) for m in factory.card)}"
            )
            for row in range(ROWS):
                cells = []
                for col in range(COLS):
                    cell = row * COLS + col
                    entry = factory.grid[cell]
                    if entry is None:
                        cells.append("  .  ")
                        continue
                    lines_text = "".join(n for b, n in data.EDGE_NAMES.items() if cell_mask(entry) & b)
                    cube = factory.cubes[cell]
                    mark = "M" if TILES_BY_KEY[entry[0]].machine else "-"
                    cells.append(f"{mark}{lines_text:<3}{data.COLOUR_LETTERS[cube] if cube is not None else ' '}")
                lines.append(f"  {data.COLOUR_LETTERS[row]}{factory.warehouses[row]} | " + " | ".join(cells) + " |")
            lines.append(
                "  assembly: "
                + "  ".join(
                    "".join(data.COLOUR_LETTERS[c] if c is not None else "." for c in filled)
                    for filled in factory.assembly
                )
            )
        lines.append(
            "open tiles: "
            + ", ".join(
                "-" if t is None else f"{'M' if TILES[t].machine else '-'}{SHAPE_CODE[TILES[t].shape]}({TILE_COSTS[s]})"
                for s, t in enumerate(self.open_tiles)
            )
        )
        if self.phase == OVER:
            names = ", ".join(f"P{w}" for w in self.winners) or "nobody"
            lines.append(f"over: {names} ({self.reason})")
        return "\n".join(lines)

    @classmethod
    def from_observation(cls, game: FactoryRaceGame, view: Mapping[str, Any]) -> FactoryRaceState:
        """Return a state that agrees with everything ``view`` (one seat's observation) shows.

        The stacks hold what is not seen anywhere (their order is chance, drawn
        when needed, so nothing is lost); what the view hides, another seat's
        placements during the placement phase, is taken as nothing placed. For
        bots that look ahead (bots/factory_race/search.py); the state has no
        history.
        """
        num_players = view["num_players"]
        state = cls(game, game.merged_config(view["config"]), game.check_num_players(num_players), None)
        state.draws = []
        state.dice = {}
        state.round = view["round"]
        state.first = view["first_player"]
        state.phase = view["phase"]
        state.step = view["step"] or ("bureau" if view["phase"] == ACTIVATE else "")
        state.to_move = view["to_move"] if view["to_move"] is not None else 0
        state.order_index = (state.to_move - state.first) % num_players
        seen_tiles: set[int] = set()
        for factory, seen in zip(state.factories, view["factories"], strict=True):
            factory.grid = [None if cell is None else (cell["tile"], cell["turns"]) for cell in seen["grid"]]
            seen_tiles.update(cell["tile"] for cell in seen["grid"] if cell is not None)
            factory.cubes = [
                None if cell is None or cell["cube"] is None else COLOURS.index(cell["cube"]) for cell in seen["grid"]
            ]
            factory.warehouses = [seen["warehouses"][colour] for colour in COLOURS]
            factory.assembly = [
                [None if colour is None else COLOURS.index(colour) for colour in machine["filled"]]
                for machine in seen["assembly"]
            ]
            factory.blueprints = seen["blueprints"]
            factory.housing_left = seen["housing_left"]
            factory.posters = [
                [p["id"], p["round"], -1 if p["chosen"] is None else p["chosen"]] for p in seen["posters"]
            ]
            factory.immune = seen["immune"]
            factory.set_aside = seen["set_aside"]
            factory.clear_round()
            placed = seen["placed"]
            if placed is not None:
                index = {name: cell for cell, name in enumerate(CELL_NAMES)}
                factory.staffed = {index[name] for name in placed["machines"]}
                factory.asm_staffed = set(placed["assembly"])
                factory.used = {index[name] for name in placed["used"]}
                factory.asm_used = set(placed["assembly_used"])
                factory.housing = placed["housing"]
                factory.bureau = placed["bureau"]
                factory.request = placed["request"]
                factory.poster_cell = placed["poster_cell"]
            factory.workers = seen["workers"] + factory.placed()
        state.open_tiles = list(view["open_tiles_ids"])
        state.tiles_out = list(view["tiles_out"])
        state.taken = view["taken_tile"]
        state.taken_slot = -1 if view["taken_slot"] is None else view["taken_slot"]
        displaced, choosing = view["displaced_tile"], view["choosing"]
        state.displaced = None if displaced is None else (displaced[0], displaced[1])
        state.choosing = None if choosing is None else (choosing[0], choosing[1], choosing[2])
        state.shield_queue = list(view["immunity_queue"])
        gone = seen_tiles | set(state.tiles_out) | {t for t in state.open_tiles if t is not None}
        gone |= {t for t in (state.taken, state.displaced and state.displaced[0]) if t is not None}
        state.tile_stack = [tile for tile in state.tile_stack if tile not in gone]
        if state.challenge:
            state.open_posters = list(view["open_posters"])
            state.poster_discard = list(view["poster_discard"])
            held = {p[0] for factory in state.factories for p in factory.posters}
            out = held | set(state.poster_discard) | {p for p in state.open_posters if p is not None}
            if state.choosing is not None:
                out.add(state.choosing[0])
            state.poster_stack = [poster for poster in range(len(POSTERS)) if poster not in out]
            state.events_drawn = list(view["events_drawn"])
            state.event_deck = [event for event in range(len(EVENTS)) if event not in state.events_drawn]
            state.event = view["event"]
        state._history = []
        return state

    def __repr__(self) -> str:
        return f"<FactoryRaceState players={self.num_players} round={self.round} phase={self.phase}>"

    # -- copies ------------------------------------------------------------------------
    def clone(self) -> FactoryRaceState:
        new = self._shallow_copy()
        new.factories = [factory.copy() for factory in self.factories]
        new.tile_stack = self.tile_stack[:]
        new.open_tiles = self.open_tiles[:]
        new.poster_stack = self.poster_stack[:]
        new.open_posters = self.open_posters[:]
        new.event_deck = self.event_deck[:]
        new.draws = self.draws[:]
        new.dice = dict(self.dice)
        new.decisions = self.decisions[:]
        new.shield_queue = self.shield_queue[:]
        new.tiles_out = self.tiles_out[:]
        new.poster_discard = self.poster_discard[:]
        new.events_drawn = self.events_drawn[:]
        return new

    def to_json(self) -> dict[str, Any]:
        # The action list (chance included) is the authority: state_from_json replays it
        # through the checked path. The rest is a readable snapshot.
        view = self._saved_view(self._view(None))
        view.update(
            {
                "tile_stack_contents": sorted(self.tile_stack),
                "poster_stack_contents": sorted(self.poster_stack),
            }
        )
        return view


SHAPE_CODE = {data.STRAIGHT: "I", data.CORNER: "L", data.TEE: "T", data.CROSS: "X"}


def _notation() -> list[str]:
    names = [""] * NUM_ACTIONS
    names[DONE] = "done"
    for cell in range(CELLS):
        names[ROTATE + cell * 2] = f"rotate {CELL_NAMES[cell]} cw"
        names[ROTATE + cell * 2 + 1] = f"rotate {CELL_NAMES[cell]} ccw"
        names[STAFF + cell] = f"staff {CELL_NAMES[cell]}"
        names[RELOCATE + cell] = f"relocate {CELL_NAMES[cell]}"
        for other in range(CELLS):
            names[MOVE + cell * CELLS + other] = f"move {CELL_NAMES[cell]} to {CELL_NAMES[other]}"
            names[SWAP + cell * CELLS + other] = f"swap {CELL_NAMES[cell]} {CELL_NAMES[other]}"
        for back in range(SOURCES):
            where = CELL_NAMES[back] if back < CELLS else COLOURS[back - CELLS]
            names[ROLLBACK + cell * SOURCES + back] = f"rollback {CELL_NAMES[cell]} to {where}"
        for turns in range(4):
            names[PUT + cell * 4 + turns] = f"put {CELL_NAMES[cell]} turn {turns}"
    for poster in range(len(POSTERS)):
        names[USE + poster] = f"use poster {poster}"
        names[DRAW_POSTER + poster] = f"draw poster {poster}"
    for k in range(ASM_MAX):
        names[STAFF_ASM + k] = f"staff asm{k + 1}"
    names[HOUSING], names[BUREAU], names[REQUEST], names[POSTER_CELL] = "housing", "bureau", "request", "poster cell"
    for slot in range(OPEN_TILES):
        names[TAKE_TILE + slot] = f"take tile {slot + 1}"
    names[DISCARD] = "discard"
    for source in range(SOURCES):
        start = CELL_NAMES[source] if source < CELLS else COLOURS[source - CELLS]
        for dest in range(DESTS):
            end = CELL_NAMES[dest] if dest < CELLS else f"asm{dest - CELLS + 1}"
            names[CUBE + source * DESTS + dest] = f"cube {start}>{end}"
    for slot in range(OPEN_POSTERS):
        names[TAKE_POSTER + slot] = f"take poster {slot + 1}"
    names[TAKE_TOP] = "take poster top"
    for player in range(MAX_PLAYERS):
        names[CHOOSE + player] = f"choose P{player}"
    names[IMMUNITY] = "immunity"
    for tile in range(len(TILES)):
        names[DRAW_TILE + tile] = f"draw tile {tile}"
    for event in range(len(EVENTS)):
        names[DRAW_EVENT + event] = f"event {event}"
    for face in range(6):
        names[DIE + face] = f"die {face + 1}"
    return names


NOTATION: tuple[str, ...] = tuple(_notation())
PARSE: dict[str, int] = {name.lower(): action for action, name in enumerate(NOTATION) if name}


class FactoryRaceGame(Game):
    """The factory race: 2-4 players, simultaneous placement, chance (tiles, posters, events, die)."""

    info: ClassVar[GameInfo] = INFO
    default_config: ClassVar[Mapping[str, Any]] = DEFAULT_CONFIG
    state_class = FactoryRaceState
    state_name = "a factory race state"

    def score_series(self, games: Sequence[GameRecord], num_players: int) -> dict[str, Any]:
        """Return the series score: a point for each game won, each shared win too (scoring.py)."""
        from engines.factory_race.scoring import score_series

        return score_series(games)

    def validate_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        full = super().validate_config(config)
        mode = full["mode"]
        if mode not in (BASE, CHALLENGE):
            raise ConfigError(f"mode must be {BASE!r} or {CHALLENGE!r} («Вызов»), not {mode!r}")
        stars = full["stars"]
        if not integer_in(stars, 0, 3):
            raise ConfigError(f"stars must be 0 (base technology) to 3, not {stars!r}")
        if stars and mode != CHALLENGE:
            raise ConfigError(f"new technology ({stars} stars) is played in the {CHALLENGE!r} mode only")
        start = full["start"]
        if start not in (ROTATE_START, DIE_START):
            raise ConfigError(f"start must be {ROTATE_START!r} (seat 0 starts) or {DIE_START!r}, not {start!r}")
        config_integer(full, "max_rounds", 1, MAX_ROUNDS_LIMIT)
        return full
