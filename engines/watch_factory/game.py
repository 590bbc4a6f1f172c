"""The Watch factory (rulebook 000, Daniel Newman's *Watch*): 1-4 workers in a Soviet watch factory.

Twelve rounds of worker placement on eight action spots (four sections, a safe
and a risky spot each). The WATCH action sets face-down watch cards that catch
workers on the risky spots of their sections next round, who pay bribes;
every action also puts a token from the player board on one of six majority
tracks, whose places score gears, coins and crates at the end. Two players
share the board with a third worker moved by the die; a solo player plays
against a robot on the die, with random watch cards, the foreman's office
closed and a solo scoring card. RULES.md beside this file quotes the rulebook
sentence by sentence with the code and the tests that implement it;
engines/watch_factory/data.py holds every number the pictures held.

A turn is split into small decisions (RULES.md, *Decisions*): the spot, then
each optional part (how many gears to sell, which crate to upgrade, which
watch card, which document to keep, the majority track), then ``done``. Chance
(the market, document and solo-card draws, the die, the random watch cards) is
drawn by the referee.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engines.base import (
    Game,
    GameInfo,
    IllegalActionError,
    MalformedActionError,
    Outcome,
    State,
)
from engines.checks import integer_in
from engines.result import GameRecord
from engines.watch_factory import data
from engines.watch_factory.data import (
    CRATE_COLOURS,
    CRATE_VALUES,
    DOC_COLOURS,
    DOC_RATIOS,
    DOCK_ROW,
    DOCUMENTS,
    MARKETS,
    NUM_SPOTS,
    OFFICE_ROW,
    RISKY,
    SECTIONS,
    SOLO_CARDS,
    SPOTS,
    TRACK_BONUSES,
    TRACKS,
    WAREHOUSE_ROW,
    WORKSHOP_ROW,
    Bonus,
    crate_colour,
    section_of,
)

MIN_PLAYERS, MAX_PLAYERS = 1, 4
DEFAULT_PLAYERS = 2
ROWS = len(SECTIONS)
NUM_TRACKS = len(TRACKS)
MAX_SELL = 99  # gears sold in one SELL GEARS, at most (a platform limit on one decision's choices)
EMPTY, GEAR = -1, -2  # a majority track spot: empty, or blocked by a gear

# -- action ids ------------------------------------------------------------------------
DONE = 0
PLACE = 1  # + spot
CHOOSE_WATCH = PLACE + NUM_SPOTS  # + section
TRACK = CHOOSE_WATCH + ROWS  # + track: put the action's token there
MOVE_TRACK = TRACK + NUM_TRACKS  # + track: PRODUCE GEARS moves a token along it
UPGRADE_ROW = MOVE_TRACK + NUM_TRACKS  # + row
SELL = UPGRADE_ROW + ROWS  # + gears sold (0..MAX_SELL)
UPGRADE_CRATE = SELL + MAX_SELL + 1  # + crate value - 1 (light brown and white crates)
SMUGGLE_ICON = UPGRADE_CRATE + 6
DOC_SMUGGLE = SMUGGLE_ICON + 1  # + crate colour
KEEP = DOC_SMUGGLE + len(CRATE_COLOURS)  # + document card
TAKE_BONUS = KEEP + len(DOCUMENTS)
BANK_CARD = TAKE_BONUS + 1
REPAY = BANK_CARD + 1
DOC_MOVE = REPAY + 1  # + from track * 6 + to track
DIE = DOC_MOVE + NUM_TRACKS * NUM_TRACKS  # + face - 1
DRAW_DOC = DIE + 6  # + document card
DRAW_MARKET = DRAW_DOC + len(DOCUMENTS)  # + market card
DRAW_WATCH = DRAW_MARKET + len(MARKETS)  # + section
DRAW_SOLO = DRAW_WATCH + ROWS  # + solo card
NUM_ACTIONS = DRAW_SOLO + len(SOLO_CARDS)

# Phases and the decisions inside them (``step``).
PLACING, REVEAL, ACTING, FINAL, OVER = "place", "reveal", "act", "final smuggle", "over"
(
    S_PLACE,
    S_BRIBE,
    S_SMUGGLE,
    S_SELL,
    S_CRATE,
    S_MOVE,
    S_UPGRADE,
    S_KEEP,
    S_WATCH,
    S_REPAY_WATCH,
    S_TRACK,
    S_BONUS,
    S_END,
) = (
    "place worker",
    "bribe",
    "smuggle",
    "sell gears",
    "upgrade crate",
    "move on track",
    "upgrade",
    "keep documents",
    "set watch cards",
    "repay at 5",
    "majority track",
    "track bonus",
    "end of action",
)
WIN, SHARED, SOLO = "points", "shared", "solo"

# A generous bound: 12 rounds of four players, each at most ~40 decisions and draws, plus setup.
MAX_GAME_LENGTH = 4000

INFO = GameInfo(
    name="watch_factory",
    title="Watch factory (Daniel Newman)",
    rules_version="1",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    has_chance=True,
    has_hidden_information=True,
    max_game_length=MAX_GAME_LENGTH,
    num_distinct_actions=NUM_ACTIONS,
    summary=(
        "One to four workers in a Soviet watch factory, twelve rounds. Each round every worker moves to a new "
        "action spot: smuggle munitions crates for gears, sell gears, work overtime or produce gears, upgrade "
        "the player board or scrounge, search the foreman's files for documents, or WATCH: set the watch "
        "cards that catch next round's workers on risky spots, who pay bribes. Each action also puts a token "
        "on one of six majority tracks that multiply gears, coins and crates at the end. Most points wins. "
        "Solo, the player faces a robot on the die and random watch cards, and scores against the rulebook's "
        "benchmarks (75 keeps the job, 160 is a hero of Soviet labour)."
    ),
    reasons=(
        (WIN, "the most points after twelve rounds and the final smuggle"),
        (SHARED, "several players were level on the most points: they share the win"),
        (SOLO, "a solo game: its score is the result"),
    ),
)


class Player:
    """One player's possessions (the third worker and the robot have none)."""

    __slots__ = ("crates", "debts", "gears", "hand", "played", "removed", "returned", "rubles", "supply")

    def __init__(self) -> None:
        self.rubles = data.START_RUBLES
        self.gears = data.START_GEARS
        self.debts = 0
        #: Tokens removed from each row of the player board (the rightmost empty column).
        self.removed = [0] * ROWS
        #: Solo: tokens kept in the player's supply ("Keep the token in your supply").
        self.supply = 0
        self.crates: list[int] = []
        self.hand: list[int] = []
        self.played: list[int] = []
        #: Documents this player returned to the stack and may still be there (its own knowledge).
        self.returned: list[int] = []

    def copy(self) -> Player:
        new = Player.__new__(Player)
        new.rubles, new.gears, new.debts, new.supply = self.rubles, self.gears, self.debts, self.supply
        new.removed = self.removed[:]
        new.crates = self.crates[:]
        new.hand = self.hand[:]
        new.played = self.played[:]
        new.returned = self.returned[:]
        return new

    def column(self) -> int:
        """Return the rightmost column (1-5) with a removed token in any row, 0 when none."""
        return max(self.removed)

    def bribe(self) -> int:
        """Return the bribe this player's board shows ("the column that is the furthest to the right")."""
        column = self.column()
        return data.COLUMN_COST[column - 1] if column else data.NO_COLUMN_BRIBE

    def smuggle_icon(self) -> data.Smuggle:
        return DOCK_ROW[self.removed[data.DOCK]]

    def unlocked(self) -> int:
        """Return the most valuable crate colour this board can smuggle."""
        return max(max(icon.crates) for icon in DOCK_ROW[: self.removed[data.DOCK] + 1])

    def gear_icon(self) -> data.Yield:
        icon = WORKSHOP_ROW[self.removed[data.WORKSHOP]]
        return WORKSHOP_ROW[3] if icon.points else icon  # "If it shows points ... refer to the third column"

    def scrounge_icon(self) -> data.Yield:
        icon = WAREHOUSE_ROW[self.removed[data.WAREHOUSE]]
        return WAREHOUSE_ROW[3] if icon.points else icon

    def files_icon(self) -> data.Files:
        return OFFICE_ROW[self.removed[data.OFFICE]]

    def board_points(self) -> int:
        return sum(data.board_points(column, row) for row in range(ROWS) for column in range(1, self.removed[row] + 1))

    def documents(self) -> list[int]:
        return self.hand + self.played


def track_places(counts: Sequence[int]) -> tuple[list[int], list[int]]:
    """Return (first, second) place holders from tokens per owner ("In case of a tie ... lower places
    will not be awarded")."""
    best = max(counts, default=0)
    if best == 0:
        return [], []
    first = [owner for owner, count in enumerate(counts) if count == best]
    if len(first) > 1:
        return first, []
    rest = [count for count in counts if 0 < count < best]
    if not rest:
        return first, []
    second_count = max(rest)
    return first, [owner for owner, count in enumerate(counts) if count == second_count]


class WatchFactoryState(State):
    """A Watch factory position; ``num_players`` 1 is the solo game."""

    def __init__(self, game: WatchFactoryGame, config: dict[str, Any], num_players: int, seed: int | None) -> None:
        super().__init__(game, config, num_players, seed)
        self.solo = num_players == 1
        self.pawn = num_players if num_players <= 2 else None  # the third worker (2) or the robot (solo)
        self.players = [Player() for _ in range(num_players)]
        self.round = 1
        self.phase = PLACING
        self.step = ""
        self.to_move = -1
        #: Where each worker stands (players, then the third worker or the robot): a spot or -1.
        self.spots = [-1] * (num_players + (self.pawn is not None))
        self.track_len = data.TRACK_SPOTS if num_players == 4 else data.SPOTS_BELOW_FOUR
        self.tracks = [[EMPTY] * self.track_len for _ in range(NUM_TRACKS)]
        per_value = data.SOLO_CRATES if self.solo else num_players + 1  # "player count + 1 of them of each value"
        self.stock = {value: per_value for colour in CRATE_VALUES for value in colour}
        self.market = -1
        self.next_market = -1
        self.market_stack = list(range(len(MARKETS)))
        self.markets_seen: list[int] = []  # the market cards revealed so far, in order
        #: The document stack: segments drawn in turn, each drawn at random (a shuffled pile).
        self.doc_stack: list[list[int]] = [list(range(len(DOCUMENTS)))] if not self.solo else []
        self.watch_deck = list(range(ROWS))
        self.watch_set: list[int] = []  # the watch cards set for the next round
        self.watcher: int | None = None  # who set them (None: random)
        self.revealed: list[int] = []  # this round's revealed watch cards
        self.revealed_by: int | None = None
        self.black: int | None = None  # the black token's holder (None: on the WATCH spot)
        self.peeker: int | None = None  # this round's WATCH taker, who has seen the next market card
        self.solo_card = -1
        self.watches = data.SOLO_WATCHES if self.solo else 0
        self.pawn_die = 0  # the third worker's or the robot's last roll
        self.order: list[int] = []
        self.index = 0
        self.draws: list[tuple[str, int]] = []  # pending chance draws: (kind, for whom)
        self.queue: list[str] = []  # the acting player's remaining parts of the action
        self.searching: list[int] = []
        self.keep_left = 0
        self.watch_left = 0
        self.bonus: Bonus | None = None
        self.icon_used = False
        self.moved_doc = [False] * num_players
        self.caught: list[tuple[int, int]] = []  # (worker, bribe) still to settle this round
        self.log: list[str] = []  # this round's public events, for viewers
        self.decisions = [0] * num_players
        self.previous = self.spots[:]
        self.token_row = -1  # the row whose token the majority-track decision places (-1: already removed)
        self._outcome: Outcome | None = None
        # Setup: the first market card and the next ("Draw the topmost card and place it face up"),
        # the solo card or one document per player.
        self.draws = [("market", -1), ("market", -1)]
        if self.solo:
            self.draws.append(("solo", -1))
            self.spots[self.pawn] = data.SMUGGLE  # type: ignore[index]  # "Place the robot on the SMUGGLE action spot"
        else:
            self.draws += [("doc", player) for player in range(num_players)]
        self._begin_placing()
        self._advance()

    # -- whose turn ---------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return bool(self.draws) and self.phase != OVER

    @property
    def hand(self) -> int:
        """The watch hand: 0 (12 o'clock), 1 (3), 2 (6), 3 (9); it moves once a round."""
        return (self.round - 1) % 4

    def distance(self, spot: int) -> int:
        """How far clockwise a spot is from the watch hand (0: the first spot after it)."""
        return (spot - 2 * self.hand) % NUM_SPOTS

    def by_hand(self) -> list[int]:
        """Return the workers placed, closest to the watch hand in a clockwise direction first."""
        return sorted((w for w, spot in enumerate(self.spots) if spot >= 0), key=lambda w: self.distance(self.spots[w]))

    def closed(self, spot: int) -> bool:
        """Solo: "Close the Foreman's office"."""
        return self.solo and section_of(spot) == data.OFFICE

    # -- the machine ----------------------------------------------------------------------
    def _advance(self) -> None:
        """Run the game forward until a decision or a chance draw is due."""
        while not self.draws and self.phase != OVER and not self.step:
            if self.queue:
                self._next_part()
            elif self.phase == PLACING:
                self._place_next()
            elif self.phase == REVEAL:
                self._reveal_next()
            elif self.phase == ACTING:
                self._act_next()
            elif self.phase == FINAL:
                self._final_next()

    def _begin_placing(self) -> None:
        self.phase = PLACING
        self.log = []
        self.moved_doc = [False] * self.num_players
        if self.round == 1:
            # "Beginning with the start player and continuing around the table"; then the third worker.
            self.order = list(range(self.num_players)) + ([self.num_players] if self.num_players == 2 else [])
        elif self.solo:
            self.order = [self.pawn, 0]  # type: ignore[list-item]  # "The robot moves before you every round"
        else:
            self.order = self.by_hand()
        self.index = 0
        self.previous = self.spots[:]

    def _place_next(self) -> None:
        if self.index >= len(self.order):
            self.index = 0
            if self.round == 1:  # "As an exception, you then proceed immediately with phase 3."
                self._begin_acting()
            else:
                self.phase = REVEAL
                self._begin_reveal()
            return
        worker = self.order[self.index]
        if worker == self.pawn:
            if self.round == 1 and self.solo:
                self.index += 1  # "(Skip on first turn.)"
                return
            self.draws.append(("die", worker))
            return
        self._decide(worker, S_PLACE)

    def _move_pawn(self, roll: int) -> None:
        pawn = self.pawn
        assert pawn is not None
        self.pawn_die = roll
        if self.solo:
            # "A 5 will keep the robot on the same action spot, a 1 or a 6 will move it 1 step":
            # the five open spots but the player's, counted clockwise from the robot, itself last.
            here = self.spots[pawn]
            ring = [
                (here + k) % NUM_SPOTS
                for k in range(1, NUM_SPOTS + 1)
                if not self.closed((here + k) % NUM_SPOTS) and (here + k) % NUM_SPOTS != self.spots[0]
            ]
            self.spots[pawn] = ring[(roll - 1) % len(ring)]
        elif self.round == 1:
            # "Roll the die and count an empty spot for each rolled pip (from the hand of the watch)."
            empty = [s for s in range(NUM_SPOTS) if s not in self.spots]
            self.spots[pawn] = empty[(roll - 1) % len(empty)]
        else:
            # "moving it one step per pip in a clockwise direction. Only count empty spots."
            here = self.spots[pawn]
            ring = [(here + k) % NUM_SPOTS for k in range(1, NUM_SPOTS) if (here + k) % NUM_SPOTS not in self.spots]
            self.spots[pawn] = ring[(roll - 1) % len(ring)]
        self.log.append(f"{self.worker_name(pawn)} rolled {roll}: {SPOTS[self.spots[pawn]]}")
        self.index += 1

    def worker_name(self, worker: int) -> str:
        if worker == self.pawn:
            return "the robot" if self.solo else "the third worker"
        return f"P{worker}"

    def _begin_reveal(self) -> None:
        self.revealed, self.revealed_by = self.watch_set, self.watcher
        self.watch_set, self.watcher = [], None
        self.order = self.by_hand()
        self.index = 0
        if self.revealed:
            self.log.append(
                f"watch cards ({'random' if self.revealed_by is None else f'P{self.revealed_by}'}): "
                + ", ".join(SECTIONS[s] for s in self.revealed)
            )
        if self.solo and data.OFFICE in self.revealed and self.watches:
            # "The first three times the Foreman's office card is revealed, remove watches. When you
            # remove the third, also remove the Foreman's office card."
            self.watches -= 1
            if not self.watches:
                self.watch_deck.remove(data.OFFICE)

    def _reveal_next(self) -> None:
        if self.index >= len(self.order):
            self._begin_acting()
            return
        worker = self.order[self.index]
        spot = self.spots[worker]
        if spot not in RISKY or section_of(spot) not in self.revealed or worker == self.revealed_by:
            self.index += 1  # not caught, or "If you catch yourself, you don't pay a bribe."
            return
        if worker == self.pawn:
            # "If the third worker is caught, the bank pays its bribes. The amount of the bribe is
            # determined by the player board of the other player."
            if self.revealed_by is not None:
                other = self.players[1 - self.revealed_by]
                self.players[self.revealed_by].rubles += other.bribe()
                self.log.append(f"the third worker was caught: the bank pays P{self.revealed_by} {other.bribe()}")
            self.index += 1
            return
        player = self.players[worker]
        amount = player.bribe()
        if self.solo:
            self._pay_tokens(amount)
            self.index += 1
            return
        if amount and self.black == worker:
            self._bank_pays(worker, amount, "the black token")
            self.index += 1
        elif amount and self.players[worker].hand:
            # "When you get caught ... you can place this card next to your player board, so that the
            # bank pays the bribe instead of you." Asked of every caught player holding any document
            # (the hand's size is public), not only of a holder of the card: asking only then would
            # tell the table what the hand holds (RULES.md, *Hidden information*).
            self.caught = [(worker, amount)]
            self._decide(worker, S_BRIBE)
        else:
            self._pay_bribe(worker, amount)
            self.index += 1

    def _bank_pays(self, worker: int, amount: int, why: str) -> None:
        if self.revealed_by is not None:
            self.players[self.revealed_by].rubles += amount
        self.log.append(f"P{worker} was caught: {why} makes the bank pay the bribe of {amount}")

    def _pay_bribe(self, worker: int, amount: int) -> None:
        self._pay(worker, amount)
        if self.revealed_by is not None:
            self.players[self.revealed_by].rubles += amount
        to = "the bank" if self.revealed_by is None else f"P{self.revealed_by}"
        self.log.append(f"P{worker} was caught and pays {to} a bribe of {amount}")

    def _pay_tokens(self, amount: int) -> None:
        # "If caught, pay bribe in tokens. If you do not have enough tokens, pay 3 rubles for each
        # token you are short. If you do not have enough rubles, take out 5 coin loans".
        player = self.players[0]
        tokens = min(player.supply, amount)
        player.supply -= tokens
        short = amount - tokens
        self._pay(0, short * data.SOLO_TOKEN_RUBLES)
        self.log.append(f"P0 was caught: pays {tokens} tokens and {short * data.SOLO_TOKEN_RUBLES} rubles")

    def _pay(self, worker: int, rubles: int) -> None:
        """Pay rubles, taking debt markers of 5 rubles while short ("You may take multiple debt markers")."""
        player = self.players[worker]
        while player.rubles < rubles:
            player.debts += 1
            player.rubles += data.DEBT_RUBLES
        player.rubles -= rubles

    def _begin_acting(self) -> None:
        self.phase = ACTING
        self.order = self.by_hand()
        self.index = 0

    def _act_next(self) -> None:
        if self.index >= len(self.order):
            self._end_of_actions()
            return
        worker = self.order[self.index]
        self.index += 1
        if worker == self.pawn:
            if not self.solo:
                # "It places the token in the row that is the result of the die."
                self._place_token(worker, self.pawn_die - 1)
            return
        spot = self.spots[worker]
        self.to_move = worker
        self.queue = [SPOTS[spot], "solo token", "end", "solo watch"] if self.solo else [SPOTS[spot], "token", "end"]

    def _end_of_actions(self) -> None:
        """After phase 3: the random WATCH, then the end of the round (or of the game)."""
        if self.round < data.ROUNDS and not self.watch_set and self.watcher is None:
            # "In case that no player has chosen this action, the cards are determined randomly."
            self.draws += [("watch", -1)] * min(MARKETS[self.market].eyes, len(self.watch_deck))
            return
        if self.round == data.ROUNDS:
            # "The player whose worker is closest to the watch hand ... you may smuggle once again."
            self.order = [w for w in self.by_hand() if w < self.num_players]
            self.index = 0
            self.phase = FINAL
            return
        # Phase 4: the hand turns; phase 5: the next market card.
        self.peeker = None
        self.round += 1
        self.market = self.next_market
        self.markets_seen.append(self.market)
        self.next_market = -1
        if self.market_stack:
            self.draws.append(("market", -1))
        self._begin_placing()

    def _final_next(self) -> None:
        if self.index >= len(self.order):
            # "After each player has smuggled, you must pay your debts (each debt token costs 8 rubles)."
            for player in self.players:
                while player.debts and player.rubles >= data.REPAY:
                    player.debts -= 1
                    player.rubles -= data.REPAY
            self._finish()
            return
        worker = self.order[self.index]
        self.index += 1
        self.to_move = worker
        self.icon_used = False
        self.queue = ["final"]

    def _next_part(self) -> None:
        part = self.queue.pop(0)
        worker = self.to_move
        player = self.players[worker]
        if part in ("smuggle", "final"):
            self.icon_used = False
            self._decide(worker, S_SMUGGLE)
        elif part == "sell gears":
            self._decide(worker, S_SELL)
        elif part == "overtime":
            gears = player.gear_icon().gears + MARKETS[self.market].workshop_gears
            player.gears += gears
            self.log.append(f"P{worker} worked overtime: {gears} gears")
        elif part == "produce gears":
            player.gears += player.gear_icon().gears
            self.log.append(f"P{worker} produced {player.gear_icon().gears} gears")
            if not self.solo and self._track_moves(worker):
                self._decide(worker, S_MOVE)
        elif part == "upgrade":
            if any(r < data.COLUMNS for r in player.removed[: data.OFFICE if self.solo else ROWS]):
                self._decide(worker, S_UPGRADE)
        elif part == "scrounge":
            icon, market = player.scrounge_icon(), MARKETS[self.market]
            player.gears += icon.gears + market.warehouse_gears
            player.rubles += icon.rubles + market.warehouse_rubles
            self.log.append(
                f"P{worker} scrounged {icon.gears + market.warehouse_gears} gears and "
                f"{icon.rubles + market.warehouse_rubles} rubles"
            )
        elif part == "search files":
            files = player.files_icon()
            stacked = sum(len(segment) for segment in self.doc_stack)
            self.searching = []
            self.keep_left = files.keep
            self.draws += [("search", worker)] * min(files.draw, stacked)
            self.queue.insert(0, "keep")
        elif part == "keep":
            self.keep_left = min(self.keep_left, len(self.searching))
            if self.keep_left:
                self._decide(worker, S_KEEP)
        elif part == "watch":
            self.watch_set, self.watcher = [], worker
            self.watch_left = min(MARKETS[self.market].eyes, ROWS) if self.round < data.ROUNDS else 0
            # "You take the black token either from the action spot or from its current owner."
            self.black = worker
            self.peeker = worker  # "Additionally, you may peek at the market card of the next round"
            if self.watch_left:
                self._decide(worker, S_WATCH)
            self.queue.insert(0, "repay at 5")
        elif part == "repay at 5":
            if player.debts and player.rubles >= data.REPAY_WATCH:
                self._decide(worker, S_REPAY_WATCH)
        elif part == "token":
            # "If you have no token in the row of your section, you do not place a token this time."
            row = section_of(self.spots[worker])
            if player.removed[row] < data.COLUMNS:
                if self._open_tracks():
                    self.token_row = row
                    self._decide(worker, S_TRACK)
                else:
                    player.removed[row] += 1  # no empty spot on any track: the token leaves the board unplaced
        elif part == "upgrade token":
            if self._open_tracks():
                self.token_row = -1
                self._decide(worker, S_TRACK)
        elif part == "solo token":
            # "Then remove leftmost token from your player board in the row matching the factory
            # section you take the action of. Keep the token in your supply."
            row = section_of(self.spots[worker])
            if player.removed[row] < data.COLUMNS:
                player.removed[row] += 1
                player.supply += 1
        elif part == "bonus":
            self._bonus_part(worker)
        elif part == "end" and (player.hand or (player.debts and player.rubles >= data.REPAY)):
            # "At any time you can pay 8 rubles to return 1 debt marker" and a document that moves a
            # token: asked whenever either could be played. A player holding any document is asked,
            # so that being asked does not tell the table which document it holds.
            self._decide(worker, S_END)
        elif part == "solo watch" and self.round < data.ROUNDS:
            # "Set the watch cards for the next turn." (random, "every turn")
            self.draws += [("watch", -1)] * min(MARKETS[self.market].eyes, len(self.watch_deck))

    def _bonus_part(self, worker: int) -> None:
        bonus, self.bonus = self.bonus, None
        if bonus is None:
            return
        player = self.players[worker]
        if bonus.kind == "rubles":
            player.rubles += bonus.amount
        elif bonus.kind == "gears":
            player.gears += bonus.amount
        elif player.gears >= bonus.amount and bonus.colour <= player.unlocked() and self._crate_for(bonus.colour):
            self.bonus = bonus  # "you take it immediately or forfeit it"
            self._decide(worker, S_BONUS)

    def _decide(self, worker: int, step: str) -> None:
        self.to_move = worker
        self.step = step

    # -- helpers --------------------------------------------------------------------------
    def _crate_for(self, colour: int) -> int | None:
        """Return the crate a smuggle of ``colour`` takes: its most valuable, else a lower colour's."""
        for c in range(colour, -1, -1):
            for value in reversed(CRATE_VALUES[c]):
                if self.stock[value]:
                    return value
        return None

    def _take_crate(self, worker: int, colour: int) -> None:
        value = self._crate_for(colour)
        if value is not None:
            self.stock[value] -= 1
            self.players[worker].crates.append(value)

    def _open_tracks(self) -> list[int]:
        return [t for t in range(NUM_TRACKS) if EMPTY in self.tracks[t]]

    def _track_moves(self, worker: int) -> list[int]:
        return [t for t in range(NUM_TRACKS) if worker in self.tracks[t] and EMPTY in self.tracks[t]]

    def _place_token(self, owner: int, track: int) -> Bonus | None:
        """Put a token on the leftmost empty spot of a track; return the spot's bonus."""
        line = self.tracks[track]
        if EMPTY not in line:
            return None
        spot = line.index(EMPTY)
        line[spot] = owner
        return TRACK_BONUSES[track][spot]

    def _doc_in_hand(self, worker: int, kind: str) -> int | None:
        for card in sorted(self.players[worker].hand):
            if DOCUMENTS[card][1] == kind:
                return card
        return None

    def _play_doc(self, worker: int, kind: str) -> None:
        player = self.players[worker]
        card = self._doc_in_hand(worker, kind)
        assert card is not None
        player.hand.remove(card)
        player.played.append(card)

    # -- decisions ------------------------------------------------------------------------
    def _decisions(self) -> list[int]:
        worker, step = self.to_move, self.step
        player = self.players[worker]
        if step == S_PLACE:
            here = self.previous[worker] if self.round > 1 else -1
            return [
                PLACE + s
                for s in range(NUM_SPOTS)
                if s not in self.spots and s != here and not self.closed(s)
                # "On first turn, you may choose any action spot other than SMUGGLE" (the robot's).
            ]
        if step == S_BRIBE:
            return [DONE] + ([BANK_CARD] if self._doc_in_hand(worker, data.BANK_PAYS) is not None else [])
        if step == S_SMUGGLE:
            legal = [DONE]
            icon = player.smuggle_icon()
            if (
                not self.icon_used
                and player.gears >= icon.gears
                and any(self._crate_for(colour) is not None for colour in icon.crates)
            ):
                legal.append(SMUGGLE_ICON)  # not for gears alone: some crate must be left to take
            if self._doc_in_hand(worker, data.SMUGGLE_MORE) is not None:
                legal += [
                    DOC_SMUGGLE + c
                    for c in range(player.unlocked() + 1)
                    if player.gears >= DOC_RATIOS[c] and self._crate_for(c) is not None
                ]
            return legal
        if step == S_SELL:
            return [SELL + n for n in range(min(player.gears, MAX_SELL) + 1)]
        if step == S_CRATE:
            return [DONE] + [
                UPGRADE_CRATE + value - 1
                for value in sorted(set(player.crates))
                if crate_colour(value) < data.DARK and any(self.stock[v] for v in CRATE_VALUES[crate_colour(value) + 1])
            ]
        if step == S_MOVE:
            return [DONE] + [MOVE_TRACK + t for t in self._track_moves(worker)]
        if step == S_UPGRADE:
            # Solo: "Place 15 tokens on the upgrade spots of your player board (rows Loading dock,
            # Workshop and Warehouse ...)": the foreman's office row holds the watches, no token.
            rows = range(data.OFFICE) if self.solo else range(ROWS)
            return [DONE] + [UPGRADE_ROW + r for r in rows if player.removed[r] < data.COLUMNS]
        if step == S_KEEP:
            return [KEEP + card for card in sorted(set(self.searching))]
        if step == S_WATCH:
            return [CHOOSE_WATCH + s for s in range(ROWS) if s not in self.watch_set]
        if step == S_REPAY_WATCH:
            return [DONE, REPAY]
        if step == S_TRACK:
            return [TRACK + t for t in self._open_tracks()]
        if step == S_BONUS:
            return [DONE, TAKE_BONUS]
        if step == S_END:
            legal = [DONE]
            if player.debts and player.rubles >= data.REPAY:
                legal.append(REPAY)
            if not self.moved_doc[worker] and self._doc_in_hand(worker, data.MOVE_TOKEN) is not None:
                targets = self._open_tracks()
                legal += [
                    DOC_MOVE + source * NUM_TRACKS + target
                    for source in range(NUM_TRACKS)
                    if worker in self.tracks[source]
                    for target in targets
                ]
            return legal
        raise AssertionError(f"no decision at step {step!r}")

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.draws:
            raise IllegalActionError("no chance draw is due")
        kind, _ = self.draws[0]
        if kind == "market":
            options = [DRAW_MARKET + card for card in self.market_stack]
        elif kind in ("doc", "search"):
            segment = next(segment for segment in self.doc_stack if segment)
            options = [DRAW_DOC + card for card in sorted(set(segment))]
            return [(a, segment.count(a - DRAW_DOC) / len(segment)) for a in options]
        elif kind == "watch":
            options = [DRAW_WATCH + s for s in self.watch_deck if s not in self.watch_set]
        elif kind == "solo":
            options = [DRAW_SOLO + card for card in range(len(SOLO_CARDS))]
        else:
            options = [DIE + face for face in range(6)]
        return [(a, 1 / len(options)) for a in options]

    def apply_action(self, action: int) -> None:
        self._history.append(action)
        if self.draws:
            self._apply_chance(action)
        else:
            self.decisions[self.to_move] += 1
            self._apply_decision(action)
        self._advance()

    def _apply_chance(self, action: int) -> None:
        kind, whom = self.draws.pop(0)
        if kind == "market":
            card = action - DRAW_MARKET
            self.market_stack.remove(card)
            if self.market < 0:
                self.market = card
                self.markets_seen.append(card)
            else:
                self.next_market = card
        elif kind in ("doc", "search"):
            card = action - DRAW_DOC
            segment = next(segment for segment in self.doc_stack if segment)
            segment.remove(card)
            self.doc_stack = [segment for segment in self.doc_stack if segment]
            if whom >= 0 and card in self.players[whom].returned:
                self.players[whom].returned.remove(card)  # the drawer sees it; the others do not know who drew what
            if kind == "doc":
                self.players[whom].hand.append(card)
            else:
                self.searching.append(card)
        elif kind == "watch":
            self.watch_set.append(action - DRAW_WATCH)
            self.watcher = None
        elif kind == "solo":
            self.solo_card = action - DRAW_SOLO
        else:
            roll = action - DIE + 1
            self._move_pawn(roll)

    def _apply_decision(self, action: int) -> None:
        worker, step = self.to_move, self.step
        player = self.players[worker]
        self.step = ""
        if step == S_PLACE:
            self.spots[worker] = action - PLACE
            self.index += 1
        elif step == S_BRIBE:
            _, amount = self.caught.pop()
            if action == BANK_CARD:
                self._play_doc(worker, data.BANK_PAYS)
                self._bank_pays(worker, amount, "a 'bank pays bribe' document")
            else:
                self._pay_bribe(worker, amount)
            self.index += 1
        elif step == S_SMUGGLE:
            if action == SMUGGLE_ICON:
                icon = player.smuggle_icon()
                player.gears -= icon.gears
                for colour in icon.crates:
                    self._take_crate(worker, colour)
                self.icon_used = True
                self.step = S_SMUGGLE
            elif action != DONE:
                colour = action - DOC_SMUGGLE
                self._play_doc(worker, data.SMUGGLE_MORE)
                player.gears -= DOC_RATIOS[colour]
                self._take_crate(worker, colour)
                self.step = S_SMUGGLE
            if self.step and not self._decisions()[1:] and not player.hand:
                # Nothing more to smuggle. A player holding documents is asked again even when none
                # is a smuggling card, so that the table cannot tell (the hand's size is public).
                self.step = ""
        elif step == S_SELL:
            sold = action - SELL
            player.gears -= sold
            player.rubles += sold + MARKETS[self.market].dock_rubles
            self.log.append(f"P{worker} sold {sold} gears (+{MARKETS[self.market].dock_rubles} rubles)")
            self.step = S_CRATE
            if len(self._decisions()) == 1:
                self.step = ""
        elif step == S_CRATE:
            if action != DONE:
                value = action - UPGRADE_CRATE + 1
                player.crates.remove(value)
                self.stock[value] += 1
                colour = crate_colour(value) + 1
                best = next(v for v in reversed(CRATE_VALUES[colour]) if self.stock[v])
                self.stock[best] -= 1
                player.crates.append(best)
        elif step == S_MOVE:
            if action != DONE:
                self._move_token(worker, action - MOVE_TRACK, action - MOVE_TRACK)
        elif step == S_UPGRADE:
            if action != DONE:
                row = action - UPGRADE_ROW
                self._pay(worker, data.COLUMN_COST[player.removed[row]])
                player.removed[row] += 1
                if self.solo:
                    player.supply += 1
                else:
                    self.queue.insert(0, "upgrade token")
        elif step == S_KEEP:
            card = action - KEEP
            self.searching.remove(card)
            player.hand.append(card)
            self.keep_left -= 1
            if self.keep_left:
                self.step = S_KEEP
            else:
                # "Shuffle the cards that you don't keep and place them back to the bottom of the stack."
                if self.searching:
                    self.doc_stack.append(self.searching)
                    player.returned += self.searching
                self.searching = []
        elif step == S_WATCH:
            self.watch_set.append(action - CHOOSE_WATCH)
            self.watch_left -= 1
            if self.watch_left:
                self.step = S_WATCH
        elif step == S_REPAY_WATCH:
            if action == REPAY:
                player.rubles -= data.REPAY_WATCH
                player.debts -= 1
                if player.debts and player.rubles >= data.REPAY_WATCH:
                    self.step = S_REPAY_WATCH
        elif step == S_TRACK:
            track = action - TRACK
            if self.token_row >= 0:
                player.removed[self.token_row] += 1
            self.bonus = self._place_token(worker, track)
            self.queue.insert(0, "bonus")
        elif step == S_BONUS:
            bonus = self.bonus
            self.bonus = None
            if action == TAKE_BONUS and bonus is not None:
                player.gears -= bonus.amount
                self._take_crate(worker, bonus.colour)
        elif step == S_END:
            if action == REPAY:
                player.rubles -= data.REPAY
                player.debts -= 1
                self.step = S_END
            elif action != DONE:
                source, target = divmod(action - DOC_MOVE, NUM_TRACKS)
                self._play_doc(worker, data.MOVE_TOKEN)
                self.moved_doc[worker] = True
                self._move_token(worker, source, target)
                self.queue.append("end")
            else:
                self.to_move = -1

    def _move_token(self, worker: int, source: int, target: int) -> None:
        """Move one of the worker's tokens from a track to the leftmost empty spot of a track; a gear
        blocks the spot it left ("to indicate that this spot is not empty for the remainder of the game")."""
        line = self.tracks[source]
        line[line.index(worker)] = GEAR
        self.bonus = self._place_token(worker, target)
        self.queue.insert(0, "bonus")

    # -- the end --------------------------------------------------------------------------
    def _finish(self) -> None:
        self.phase = OVER
        self.step = ""
        self.to_move = -1
        scores = [self.score(p)["total"] for p in range(self.num_players)]
        if self.solo:
            self._outcome = Outcome((0,), SOLO, (float(scores[0]),), (self._stats(0, scores),))
            return
        best = max(scores)
        winners = tuple(p for p, s in enumerate(scores) if s == best)
        n = self.num_players
        returns = tuple(
            (sum(s < scores[p] for s in scores) - sum(s > scores[p] for s in scores)) / (n - 1) for p in range(n)
        )
        self._outcome = Outcome(
            winners, SHARED if len(winners) > 1 else WIN, returns, tuple(self._stats(p, scores) for p in range(n))
        )

    def _stats(self, player: int, scores: Sequence[int]) -> dict[str, Any]:
        return {
            "score": scores[player],
            "rank": 1 + sum(s > scores[player] for s in scores),
            "breakdown": self.score(player),
            "moves": self.decisions[player],
        }

    def score(self, p: int) -> dict[str, int]:
        """Return player ``p``'s points by the scoring help's lines (solo: the solo card's)."""
        player = self.players[p]
        lines = {"crates": sum(player.crates), "board": player.board_points()}
        if self.solo:
            card = SOLO_CARDS[self.solo_card] if self.solo_card >= 0 else SOLO_CARDS[0]
            lines["gears"] = card.gears[0] * (player.gears // card.gears[1])
            lines["rubles"] = card.rubles[0] * (player.rubles // card.rubles[1])
            lines["tokens"] = card.tokens[0] * (player.supply // card.tokens[1])
        else:
            colours = [DOCUMENTS[card][0] for card in player.documents()]
            counts = [colours.count(c) for c in range(len(DOC_COLOURS))]
            lines["sets"] = sum(data.SET_POINTS[min(k, 7)] for k in counts) + (
                data.ALL_COLOURS_POINTS if all(counts) else 0
            )
            rates = []
            for track in range(NUM_TRACKS):
                owners = len(self.spots)
                counts = [self.tracks[track].count(owner) for owner in range(owners)]
                first, second = track_places(counts)
                rate = (0, 1)
                if p in first:
                    rate = data.PLACE_POINTS[track][0]
                elif p in second:
                    rate = data.PLACE_POINTS[track][1]
                rates.append(rate)

            def bonus(amount: int, tracks: Sequence[int]) -> int:
                return sum(rates[t][0] * amount // rates[t][1] for t in tracks)

            lines["gears bonus"] = min(data.GEARS_CAP, bonus(player.gears, (0, 1)))
            lines["coins bonus"] = min(data.COINS_CAP, bonus(player.rubles, (2, 3)))
            lines["crates bonus"] = bonus(len(player.crates), (4, 5))
        lines["debts"] = data.DEBT_POINTS * player.debts
        lines["total"] = sum(lines.values())
        return lines

    def outcome(self) -> Outcome | None:
        return self._outcome

    # -- notation -------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        if not integer_in(action, 0, NUM_ACTIONS - 1):
            raise MalformedActionError(f"{action!r} is not a Watch factory action id (0..{NUM_ACTIONS - 1})")
        if action == REPAY and self.step == S_REPAY_WATCH:
            return "repay at 5"
        return NOTATION[action]

    def parse_action(self, text: object) -> int:
        raw = self._read_notation(text)
        key = " ".join(raw.lower().split())
        action = PARSE.get(key, PARSE.get(key.replace(" at 5", "").replace(" at 8", "")))
        if action is None:
            raise MalformedActionError(
                f"{raw!r} is not Watch factory notation: for example 'done', 'place watch', 'track coins I', "
                "'sell 5', 'smuggle', 'keep doc 12', 'watch card workshop', 'upgrade row loading dock', 'repay'"
            )
        return self._legal_or_raise(action, raw)

    def why_illegal(self, action: int) -> str:
        """Return the rule that makes an in-range ``action`` illegal now (starting ``": "``), or ``""``."""
        if self.draws:
            return ": chance is being drawn (a card or the die)"
        step = self.step
        if PLACE <= action < CHOOSE_WATCH:
            if step != S_PLACE:
                return ": workers are placed only at the start of a round"
            spot = action - PLACE
            if self.closed(spot):
                return ": the foreman's office is closed in the solo game"
            if spot in self.spots:
                return f": a worker already stands on {SPOTS[spot]} (each spot takes one worker)"
            return ": a worker moves to another spot than last round's"
        if step == S_TRACK and TRACK <= action < MOVE_TRACK:
            return ": that majority track has no empty spot left"
        if step == S_SELL and SELL <= action < UPGRADE_CRATE:
            return f": P{self.to_move} has {self.players[self.to_move].gears} gears"
        if step == S_SMUGGLE and action in (SMUGGLE_ICON, *range(DOC_SMUGGLE, KEEP)):
            return ": it needs the gears, an unused smuggle (or a smuggling document) and a colour the board unlocks"
        if action == REPAY:
            return ": debts are repaid at the end of an action (8 rubles) or on WATCH (5), with the rubles"
        return f": the decision now is {step!r}" if step else ""

    # -- views ----------------------------------------------------------------------------
    def _player_view(self, p: int, viewer: int | None) -> dict[str, Any]:
        player = self.players[p]
        own = viewer is None or viewer == p
        view: dict[str, Any] = {
            "rubles": player.rubles,
            "gears": player.gears,
            "debts": player.debts,
            "removed": list(player.removed),
            "crates": sorted(player.crates),
            "played": list(player.played),
            "hand_size": len(player.hand),
            "spot": self.spots[p],
            "bribe": player.bribe(),
            "board_points": player.board_points(),
        }
        if self.solo:
            view["tokens"] = player.supply
        if own:
            view["hand"] = sorted(player.hand)
            view["returned"] = sorted(player.returned)
        return view

    def observation(self, player: int) -> dict[str, Any]:
        return self._view(self._check_seat(player))

    def _view(self, viewer: int | None) -> dict[str, Any]:
        secret_watch = self.watcher is not None and viewer is not None and viewer != self.watcher
        view: dict[str, Any] = {
            **self._view_header(viewer),
            "round": self.round,
            "phase": self.phase,
            "step": self.step,
            "watch_hand": self.hand,
            "market": self.market,
            "markets_left": len(self.market_stack) + (self.next_market >= 0),
            "players": [self._player_view(p, viewer) for p in range(self.num_players)],
            "pawn_spot": self.spots[self.pawn] if self.pawn is not None else None,
            "pawn_die": self.pawn_die,
            "tracks": [list(line) for line in self.tracks],
            "stock": {str(value): count for value, count in self.stock.items()},
            "doc_stack": [len(segment) for segment in self.doc_stack],
            "black": self.black,
            "watcher": self.watcher,
            "watch_set": len(self.watch_set) if secret_watch or self.watcher is None else list(self.watch_set),
            "revealed": list(self.revealed),
            "revealed_by": self.revealed_by,
            "watch_deck": list(self.watch_deck),
            "log": list(self.log),
            "markets_seen": list(self.markets_seen),
            "moved_doc": list(self.moved_doc),  # who played a move document this round (once a round)
            # Where every worker stood when this round's placements began (the play order's key).
            "previous_spots": list(self.previous),
            # The acting player's progress through its action, public as it happens.
            "acting": {
                "icon_used": self.icon_used,
                "keep_left": self.keep_left if self.step == S_KEEP else 0,
                "watch_left": self.watch_left if self.step == S_WATCH else 0,
                "upgrade_token": self.step == S_TRACK and self.token_row < 0,
            },
        }
        if viewer is None:
            view["watch_set"] = list(self.watch_set)
        if viewer is None or (viewer == self.peeker and self.next_market >= 0):
            view["next_market"] = self.next_market  # "you may peek at the market card of the next round"
        if self.step == S_KEEP and viewer in (None, self.to_move):
            view["searching"] = sorted(self.searching)
        if self.step == S_BONUS and self.bonus is not None:
            view["bonus"] = list(self.bonus)
        if self.solo:
            view["solo_card"] = self.solo_card
            view["watches"] = self.watches
        if self.phase == OVER:
            view["outcome"] = self._outcome.to_json()  # type: ignore[union-attr]
        return view

    def render(self) -> str:
        lines = [
            f"round {self.round}, {self.phase}{' / ' + self.step if self.step else ''}, hand at "
            f"{data.HAND_NAMES[self.hand]}, market {self.market}"
        ]
        for spot in range(NUM_SPOTS):
            who = [self.worker_name(w) for w, s in enumerate(self.spots) if s == spot]
            lines.append(f"  {SPOTS[spot]:<14}{'(risky) ' if spot in RISKY else '        '}{', '.join(who)}")
        for t, line in enumerate(self.tracks):
            cells = " ".join("." if o == EMPTY else "g" if o == GEAR else str(o) for o in line)
            lines.append(f"  track {TRACKS[t]:<10} {cells}")
        for p, player in enumerate(self.players):
            lines.append(
                f"  P{p}: {player.rubles} rubles, {player.gears} gears, {player.debts} debts, board "
                f"{player.removed}, crates {sorted(player.crates)}, documents {len(player.hand)}+{len(player.played)}"
            )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<WatchFactoryState players={self.num_players} round={self.round} phase={self.phase}>"

    # -- copies ---------------------------------------------------------------------------
    def clone(self) -> WatchFactoryState:
        new = self._shallow_copy()
        new.players = [player.copy() for player in self.players]
        new.spots = self.spots[:]
        new.previous = self.previous[:]
        new.tracks = [line[:] for line in self.tracks]
        new.stock = dict(self.stock)
        new.market_stack = self.market_stack[:]
        new.markets_seen = self.markets_seen[:]
        new.doc_stack = [segment[:] for segment in self.doc_stack]
        new.watch_deck = self.watch_deck[:]
        new.watch_set = self.watch_set[:]
        new.revealed = self.revealed[:]
        new.order = self.order[:]
        new.draws = self.draws[:]
        new.queue = self.queue[:]
        new.searching = self.searching[:]
        new.moved_doc = self.moved_doc[:]
        new.caught = self.caught[:]
        new.log = self.log[:]
        new.decisions = self.decisions[:]
        return new

    def to_json(self) -> dict[str, Any]:
        # The action list (chance included) is the authority: state_from_json replays it through
        # the checked path. The rest is a readable snapshot.
        return self._saved_view(self._view(None))


def _notation() -> list[str]:
    names = [""] * NUM_ACTIONS
    names[DONE] = "done"
    for spot in range(NUM_SPOTS):
        names[PLACE + spot] = f"place {SPOTS[spot]}"
    for section in range(ROWS):
        names[CHOOSE_WATCH + section] = f"watch card {SECTIONS[section]}"
        names[UPGRADE_ROW + section] = f"upgrade row {SECTIONS[section]}"
        names[DRAW_WATCH + section] = f"random watch {SECTIONS[section]}"
    for track in range(NUM_TRACKS):
        names[TRACK + track] = f"track {TRACKS[track]}"
        names[MOVE_TRACK + track] = f"move along {TRACKS[track]}"
        for target in range(NUM_TRACKS):
            names[DOC_MOVE + track * NUM_TRACKS + target] = f"document move {TRACKS[track]} to {TRACKS[target]}"
    for n in range(MAX_SELL + 1):
        names[SELL + n] = f"sell {n}"
    for value in range(1, 7):
        names[UPGRADE_CRATE + value - 1] = f"upgrade crate {value}"
    names[SMUGGLE_ICON] = "smuggle"
    for colour in range(len(CRATE_COLOURS)):
        names[DOC_SMUGGLE + colour] = f"document smuggle {CRATE_COLOURS[colour]}"
    for card in range(len(DOCUMENTS)):
        names[KEEP + card] = f"keep doc {card}"
        names[DRAW_DOC + card] = f"draw doc {card}"
    names[TAKE_BONUS] = "take bonus"
    names[BANK_CARD] = "bank pays"
    names[REPAY] = "repay"
    for face in range(6):
        names[DIE + face] = f"die {face + 1}"
    for card in range(len(MARKETS)):
        names[DRAW_MARKET + card] = f"market {card}"
    for card in range(len(SOLO_CARDS)):
        names[DRAW_SOLO + card] = f"solo card {card}"
    return names


NOTATION: tuple[str, ...] = tuple(_notation())
PARSE: dict[str, int] = {name.lower(): action for action, name in enumerate(NOTATION) if name}


class WatchFactoryGame(Game):
    """The Watch factory: 1-4 players, hidden documents and watch cards, chance (cards, die)."""

    info: ClassVar[GameInfo] = INFO
    default_config: ClassVar[Mapping[str, Any]] = {}
    state_class = WatchFactoryState
    state_name = "a Watch factory state"

    def score_series(self, games: Sequence[GameRecord], num_players: int) -> dict[str, Any]:
        """Return the series score: each game's rank points, ties sharing (scoring.py)."""
        from engines.watch_factory.scoring import score_series

        return score_series(games, num_players)

    def check_num_players(self, num_players: int | None) -> int:
        """Return the player count to use: two when none is given (one is the solo game, asked for by name)."""
        return super().check_num_players(DEFAULT_PLAYERS if num_players is None else num_players)
