"""Watch, the 2-6 player race of three shared pawns round a watch face: the rules.

Three pawns (green, blue, orange) start on the red start square of a ring.
Each player holds secret objective cards, each one an order of the three
pawns. In turn the players spend tokens to move a pawn clockwise that many
squares; a pawn that lands on a yellow square lets its mover swap a card,
unseen. When the hidden timer rings, the holder of the card that matches the
order of the pawns wins. RULES.md beside this file quotes the rulebook
sentence by sentence with the code and tests that implement each one, and
every completion of the rulebook the engine makes.

Actions are ints in six ranges (see ``RULES.md``, *Action ids*):

* ``pawn * 45 + steps - 1`` (0-134): move pawn 0-2 (G, B, O) ``steps`` squares;
* ``135``: keep your cards after landing on a yellow square;
* ``136 + own_slot * 24 + target``: swap your card ``own_slot`` with ``target``,
  which is ``player * 3 + their_slot`` (0-17) or ``18 + pile_index``;
* ``208 + card``: chance, deal card 0-5 (the next card of the deal);
* ``214 + turns - 1``: chance, the timer rings after ``turns`` turns (1-200).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engines.base import (
    ConfigError,
    Game,
    GameInfo,
    IllegalActionError,
    MalformedActionError,
    Outcome,
    State,
    config_integer,
)
from engines.checks import integer_in, is_integer
from engines.result import GameRecord
from engines.win_points import won_outcome

# -- the material -------------------------------------------------------------
# "3 pawns (GREEN, BLUE and ORANGE) and 90 tokens."
PAWN_LETTERS = ("G", "B", "O")
PAWN_NAMES = ("green", "blue", "orange")
NUM_PAWNS = 3
TOTAL_TOKENS = 90
# "6 Objective cards (final position)": every order of the three pawns, first to last.
CARDS: tuple[tuple[int, ...], ...] = tuple(itertools.permutations(range(NUM_PAWNS)))
CARD_NAMES: tuple[str, ...] = tuple("".join(PAWN_LETTERS[p] for p in card) for card in CARDS)
CARD_INDEX: dict[tuple[int, ...], int] = {card: i for i, card in enumerate(CARDS)}
NUM_CARDS = len(CARDS)  # 6
MIN_PLAYERS, MAX_PLAYERS = 2, 6  # "For 2 to 6 players"


def cards_each(num_players: int) -> int:
    """Return how many objective cards each player is dealt.

    "With less than 4 players, you can decide to take several objective cards
    for each player": with 2 players 3 each, with 3 players 2 each (option 2,
    always on here); otherwise one each.
    """
    return {2: 3, 3: 2}.get(num_players, 1)


# -- configuration --------------------------------------------------------------
# Completions of the rulebook (RULES.md, *Platform choices*). The board in the
# rulebook is "a watch": the ring has 30 squares, two minutes each (RULES.md says why
# not 60); the yellow squares sit at 10 and 20 (four and eight o'clock). "Wind up the Timer to 5
# minutes": for bots the timer is a hidden number of turns, uniform over
# ``timer_turns`` (both ends included). A game whose winning card lies among the
# remaining cards is replayed at most ``max_replays`` times, then drawn.
DEFAULT_CONFIG: Mapping[str, Any] = {
    "ring_length": 30,
    "yellow_squares": [10, 20],
    "timer_turns": [5, 45],
    "max_replays": 10,
}
MIN_RING, MAX_RING = 4, 1000
MAX_TIMER_TURNS = 200
MAX_REPLAYS = 20

# -- actions --------------------------------------------------------------------
MAX_STEPS = TOTAL_TOKENS // MIN_PLAYERS  # 45: nobody ever holds more tokens
MAX_HAND = 3
MAX_PILE = NUM_CARDS
KEEP = NUM_PAWNS * MAX_STEPS  # 135
SWAP_BASE = KEEP + 1  # 136
PILE_TARGET = MAX_PLAYERS * MAX_HAND  # 18
NUM_TARGETS = PILE_TARGET + MAX_PILE  # 24
DEAL_BASE = SWAP_BASE + MAX_HAND * NUM_TARGETS  # 208
TIMER_BASE = DEAL_BASE + NUM_CARDS  # 214
NUM_ACTIONS = TIMER_BASE + MAX_TIMER_TURNS  # 414

# A round is the deal (6 chance actions), the timer (1), and at most 90 moves
# (each spends a token of the 90), each followed by at most one swap decision.
ROUND_LENGTH = NUM_CARDS + 1 + 2 * TOTAL_TOKENS  # 187

# Phases, and the reasons a game ends.
DEAL, TIMER, MOVE, SWAP, OVER = "deal", "timer", "move", "swap", "over"
RING = "timer"  # the timer rang
TOKENS_OUT = "tokens_out"  # nobody can move any more, so the timer could change nothing
DRAW_CAP = "draw_cap"  # the winning card was among the remaining cards too often

INFO = GameInfo(
    name="watch_race",
    title="Watch (the race of three pawns round a watch)",
    rules_version="1",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    has_chance=True,
    has_hidden_information=True,
    max_game_length=(MAX_REPLAYS + 1) * ROUND_LENGTH,
    num_distinct_actions=NUM_ACTIONS,
    summary=(
        "Two to six players share three pawns, green, blue and orange, on a circular course round a watch "
        "face. Each holds a secret objective card giving an order in which the pawns should finish. On your "
        "turn you spend as many of your tokens as you like to move one pawn that many squares clockwise; a "
        "pawn ending on a yellow square lets you swap objective cards with another player or the unused "
        "ones. A hidden timer stops the game; the pawns are ranked from the start square, and the player "
        "whose card matches wins the game. A series gives a point for each game won."
    ),
    reasons=(
        ("timer", "the timer rang"),
        ("tokens_out", "nobody could move any more"),
        ("draw_cap", "the winning card was face down too many rounds in a row"),
    ),
)


def move_action(pawn: int, steps: int) -> int:
    """Return the id of moving ``pawn`` (0-2) ``steps`` squares."""
    return pawn * MAX_STEPS + steps - 1


def swap_action(own_slot: int, player: int | None = None, their_slot: int = 0, pile: int | None = None) -> int:
    """Return the id of swapping card ``own_slot`` with ``player``'s card ``their_slot`` or with pile card ``pile``."""
    target = PILE_TARGET + pile if pile is not None else player * MAX_HAND + their_slot  # type: ignore[operator]
    return SWAP_BASE + own_slot * NUM_TARGETS + target


def pawn_order(positions: list[int]) -> tuple[int, ...]:
    """Return the pawns first to last: furthest along the lap first.

    A pawn that reaches or crosses the start square is back near 0, so it is
    last at once (rule 10). Pawns still sharing the start square at the
    beginning rank in letter order, green before blue before orange.
    """
    return tuple(sorted(range(NUM_PAWNS), key=lambda pawn: (-positions[pawn], pawn)))


def order_name(order: tuple[int, ...]) -> str:
    """Return an order of the pawns as its card name, like ``GBO``."""
    return "".join(PAWN_LETTERS[p] for p in order)


class WatchRaceState(State):
    """A position of the Watch race. Build one with :meth:`WatchRaceGame.new_initial_state`."""

    def __init__(self, game: WatchRaceGame, config: dict[str, Any], num_players: int, seed: int | None) -> None:
        super().__init__(game, config, num_players, seed)
        self.ring_length: int = config["ring_length"]
        self.yellow_squares: frozenset[int] = frozenset(config["yellow_squares"])
        self.hand_size = cards_each(num_players)
        self.replays = 0
        self.previous_rounds: list[dict[str, str]] = []
        self.winners: tuple[int, ...] = ()
        self.reason = ""
        self._start_round()

    def _start_round(self) -> None:
        self.phase = DEAL
        self.dealt: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(self.num_players)]
        self.pile: list[int] = []
        self.timer = 0
        self.positions = [0, 0, 0]
        self.tokens = [TOTAL_TOKENS // self.num_players] * self.num_players
        self.turn = 0
        self.to_move = 0
        self.moves = [0] * self.num_players
        self.swaps = [0] * self.num_players
        # (turn, player, pawn, steps, to)
        self.move_log: list[tuple[int, int, int, int, int]] = []
        # (turn, player, own_slot, other player or None, pile index or None, their_slot, card given, card received)
        self.swap_log: list[tuple[int, int, int, int | None, int | None, int, int, int]] = []

    # -- whose turn -------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase in (DEAL, TIMER)

    # -- actions ----------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == MOVE:
            return self.legal_moves(self.to_move)
        if phase == SWAP:
            return [KEEP, *self.legal_swaps(self.to_move)]
        if phase == DEAL:
            return [DEAL_BASE + card for card in range(NUM_CARDS) if card not in self.dealt]
        if phase == TIMER:
            low, high = self.config["timer_turns"]
            return [TIMER_BASE + turns - 1 for turns in range(low, high + 1)]
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase not in (DEAL, TIMER):
            return super().chance_outcomes()
        actions = self.legal_actions()
        return [(action, 1.0 / len(actions)) for action in actions]

    def legal_moves(self, player: int) -> list[int]:
        """Return ``player``'s legal moves: any pawn, 1 to all their tokens, not onto another pawn."""
        out = []
        positions = self.positions
        ring = self.ring_length
        most = self.tokens[player]
        for pawn in range(NUM_PAWNS):
            here = positions[pawn]
            others = {positions[p] for p in range(NUM_PAWNS) if p != pawn}
            base = pawn * MAX_STEPS - 1
            for steps in range(1, most + 1):
                if (here + steps) % ring not in others:
                    out.append(base + steps)
        return out

    def can_move(self, player: int) -> bool:
        """Return True if ``player`` has tokens and a square to move a pawn to."""
        most = self.tokens[player]
        if not most:
            return False
        positions = self.positions
        for pawn in range(NUM_PAWNS):
            others = {positions[p] for p in range(NUM_PAWNS) if p != pawn}
            for steps in range(1, most + 1):
                if (positions[pawn] + steps) % self.ring_length not in others:
                    return True
        return False

    def legal_swaps(self, player: int) -> list[int]:
        """Return the swaps open to ``player``: each own card with each other player's card or each pile card."""
        targets = [
            other * MAX_HAND + slot
            for other in range(self.num_players)
            if other != player
            for slot in range(len(self.hands[other]))
        ]
        targets += [PILE_TARGET + index for index in range(len(self.pile))]
        return [SWAP_BASE + own * NUM_TARGETS + target for own in range(len(self.hands[player])) for target in targets]

    def apply_action(self, action: int) -> None:
        self._history.append(action)
        phase = self.phase
        if phase == MOVE:
            pawn, steps = divmod(action, MAX_STEPS)
            steps += 1
            player = self.to_move
            self.tokens[player] -= steps
            square = (self.positions[pawn] + steps) % self.ring_length
            self.positions[pawn] = square
            self.turn += 1
            self.moves[player] += 1
            self.move_log.append((self.turn, player, pawn, steps, square))
            if square in self.yellow_squares:
                self.phase = SWAP  # the mover decides at once, before the timer can ring
            else:
                self._end_turn()
        elif phase == SWAP:
            if action != KEEP:
                self._swap(self.to_move, action)
            self._end_turn()
        elif phase == DEAL:
            self.dealt.append(action - DEAL_BASE)
            if len(self.dealt) == NUM_CARDS:
                self._hand_out()
                self.phase = TIMER
        elif phase == TIMER:
            self.timer = action - TIMER_BASE + 1
            self.phase = MOVE
            self.to_move = 0
            if not self.can_move(0):
                self._next_player()

    def _hand_out(self) -> None:
        # Dealt round the table like real cards: card i goes to player i mod n;
        # what is left after everyone has their share is the face-down pile.
        held = self.num_players * self.hand_size
        for index, card in enumerate(self.dealt[:held]):
            self.hands[index % self.num_players].append(card)
        self.pile = self.dealt[held:]

    def _swap(self, player: int, action: int) -> None:
        own_slot, target = divmod(action - SWAP_BASE, NUM_TARGETS)
        given = self.hands[player][own_slot]
        if target >= PILE_TARGET:
            index = target - PILE_TARGET
            received = self.pile[index]
            self.pile[index] = given
            other, pile_index, their_slot = None, index, 0
        else:
            other, their_slot = divmod(target, MAX_HAND)
            received = self.hands[other][their_slot]
            self.hands[other][their_slot] = given
            pile_index = None
        self.hands[player][own_slot] = received
        self.swaps[player] += 1
        self.swap_log.append((self.turn, player, own_slot, other, pile_index, their_slot, given, received))

    def _end_turn(self) -> None:
        if self.turn >= self.timer:
            self._end_round(RING)
        else:
            self._next_player()

    def _next_player(self) -> None:
        # Players who cannot move (no tokens left) pass at once: rule 5.
        for offset in range(1, self.num_players + 1):
            player = (self.to_move + offset) % self.num_players
            if self.can_move(player):
                self.to_move = player
                self.phase = MOVE
                return
        self._end_round(TOKENS_OUT)

    def _end_round(self, reason: str) -> None:
        card = CARD_INDEX[pawn_order(self.positions)]
        holders = [player for player, hand in enumerate(self.hands) if card in hand]
        if holders:
            self.winners, self.reason, self.phase = (holders[0],), reason, OVER
            return
        self.previous_rounds.append({"order": CARD_NAMES[card], "reason": reason})
        if self.replays >= self.config["max_replays"]:
            self.winners, self.reason, self.phase = (), DRAW_CAP, OVER
            return
        self.replays += 1
        self._start_round()

    # -- notation ---------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        if not integer_in(action, 0, NUM_ACTIONS - 1):
            raise MalformedActionError(f"{action!r} is not a Watch race action id (0..{NUM_ACTIONS - 1})")
        if action < KEEP:
            pawn, steps = divmod(action, MAX_STEPS)
            return f"{PAWN_LETTERS[pawn]}+{steps + 1}"
        if action == KEEP:
            return "keep"
        if action < DEAL_BASE:
            own_slot, target = divmod(action - SWAP_BASE, NUM_TARGETS)
            if target >= PILE_TARGET:
                return f"swap {own_slot} with pile {target - PILE_TARGET}"
            other, their_slot = divmod(target, MAX_HAND)
            return f"swap {own_slot} with P{other}.{their_slot}"
        if action < TIMER_BASE:
            return f"deal {CARD_NAMES[action - DEAL_BASE]}"
        return f"timer {action - TIMER_BASE + 1}"

    _MOVE_RE = re.compile(r"^(g|b|o|green|blue|orange)\s*\+\s*(\d+)$")
    _SWAP_RE = re.compile(r"^swap\s+(\d+)\s+with\s+(?:p(\d+)(?:\.(\d+))?|pile\s+(\d+))$")
    _DEAL_RE = re.compile(r"^deal\s+([gbo]{3})$")
    _TIMER_RE = re.compile(r"^timer\s+(\d+)$")

    def parse_action(self, text: object) -> int:
        raw = self._read_notation(text)
        lowered = " ".join(raw.lower().split())
        if match := self._MOVE_RE.match(lowered):
            pawn = "gbo".index(match.group(1)[0])
            steps = int(match.group(2))
            if not 1 <= steps <= MAX_STEPS:
                raise IllegalActionError(
                    f"{raw!r}: a pawn moves 1 to {MAX_STEPS} squares; legal now: {self._describe_legal()}"
                )
            return self._legal_or_raise(move_action(pawn, steps), raw)
        if lowered == "keep":
            return self._legal_or_raise(KEEP, raw)
        if match := self._SWAP_RE.match(lowered):
            own_slot = int(match.group(1))
            if own_slot >= MAX_HAND:
                raise IllegalActionError(f"{raw!r}: nobody holds card {own_slot}; legal now: {self._describe_legal()}")
            if match.group(4) is not None:
                index = int(match.group(4))
                if index >= MAX_PILE:
                    raise IllegalActionError(f"{raw!r}: no pile card {index}; legal now: {self._describe_legal()}")
                return self._legal_or_raise(swap_action(own_slot, pile=index), raw)
            other = int(match.group(2))
            if other >= self.num_players:
                raise IllegalActionError(f"{raw!r}: there is no player P{other}; legal now: {self._describe_legal()}")
            if match.group(3) is None:
                if len(self.hands[other]) != 1:
                    slots = " or ".join(f"P{other}.{slot}" for slot in range(len(self.hands[other])))
                    raise IllegalActionError(
                        f"{raw!r}: P{other} holds {len(self.hands[other])} cards: name one, {slots}"
                    )
                their_slot = 0
            else:
                their_slot = int(match.group(3))
            if their_slot >= MAX_HAND:
                raise IllegalActionError(
                    f"{raw!r}: nobody holds card {their_slot}; legal now: {self._describe_legal()}"
                )
            return self._legal_or_raise(swap_action(own_slot, other, their_slot), raw)
        if match := self._DEAL_RE.match(lowered):
            name = match.group(1).upper()
            if name not in CARD_NAMES:
                raise MalformedActionError(f"{raw!r}: {name} is not a card; cards are {', '.join(CARD_NAMES)}")
            return self._legal_or_raise(DEAL_BASE + CARD_NAMES.index(name), raw)
        if match := self._TIMER_RE.match(lowered):
            turns = int(match.group(1))
            if not 1 <= turns <= MAX_TIMER_TURNS:
                raise IllegalActionError(f"{raw!r}: the timer runs 1 to {MAX_TIMER_TURNS} turns")
            return self._legal_or_raise(TIMER_BASE + turns - 1, raw)
        raise MalformedActionError(
            f"{raw!r} is not Watch race notation: moves are like G+5 (pawn G, B or O, then squares), "
            "swaps like 'swap 0 with P2.0' or 'swap 0 with pile 1', and 'keep'"
        )

    def why_illegal(self, action: int) -> str:
        """Return a short reason (starting ``": "``) why an in-range ``action`` is illegal now, or ``""``."""
        phase = self.phase
        if phase in (DEAL, TIMER) and action < DEAL_BASE:
            return ": the cards and the timer are being set up"
        if phase == SWAP and action < KEEP:
            return ": the mover first decides whether to swap a card"
        if phase == MOVE and KEEP <= action < DEAL_BASE:
            return ": a swap is offered only right after landing on a yellow square"
        if phase == MOVE and action < KEEP:
            pawn, steps = divmod(action, MAX_STEPS)
            steps += 1
            tokens = self.tokens[self.to_move]
            if steps > tokens:
                return f": P{self.to_move} has {tokens} token{'s' * (tokens != 1)} left"
            square = (self.positions[pawn] + steps) % self.ring_length
            for other in range(NUM_PAWNS):
                if other != pawn and self.positions[other] == square:
                    return f": it would stop on square {square}, where {PAWN_LETTERS[other]} stands"
        if phase == SWAP and action > KEEP:
            return ": no such card to swap"
        return ""

    # -- results ------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        return won_outcome(
            self.winners,
            self.reason,
            self.num_players,
            stats=tuple(
                {
                    "moves": self.moves[player],
                    "swaps": self.swaps[player],
                    "tokens_left": self.tokens[player],
                    "replays": self.replays,
                    "cards": [CARD_NAMES[card] for card in self.hands[player]],
                }
                for player in range(self.num_players)
            ),
        )

    def order(self) -> tuple[int, ...]:
        """Return the pawns first to last right now."""
        return pawn_order(self.positions)

    # -- views --------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        player = self._check_seat(player)
        swaps = []
        for turn, mover, own_slot, other, pile_index, their_slot, given, received in self.swap_log:
            entry: dict[str, Any] = {"turn": turn, "player": mover, "slot": own_slot}
            if other is None:
                entry["pile"] = pile_index
            else:
                entry["with"] = other
                entry["their_slot"] = their_slot
            # Only the two players who swapped see a card: each the one they received.
            if player == mover:
                entry["received"] = CARD_NAMES[received]
            elif player == other:
                entry["received"] = CARD_NAMES[given]
            swaps.append(entry)
        observation = {
            **self._view_header(player),
            "phase": self.phase,
            "round": self.replays + 1,
            "replays": self.replays,
            "previous_rounds": [dict(r) for r in self.previous_rounds],
            "turn": self.turn,
            "positions": {PAWN_LETTERS[p]: self.positions[p] for p in range(NUM_PAWNS)},
            "order": order_name(self.order()),
            "tokens": list(self.tokens),
            "cards": [CARD_NAMES[card] for card in self.hands[player]],
            "hand_sizes": [len(hand) for hand in self.hands],
            "pile_size": len(self.pile) if self.phase != DEAL else 0,
            "moves": [
                {"turn": turn, "player": mover, "pawn": PAWN_LETTERS[pawn], "steps": steps, "to": to}
                for turn, mover, pawn, steps, to in self.move_log
            ],
            "swaps": swaps,
        }
        if self.phase == OVER:
            observation["outcome"] = self.outcome().to_json()  # type: ignore[union-attr]
        return observation

    def render(self) -> str:
        ring = self.ring_length
        top = ring // 4 + 1
        right = (ring - 2 * top) // 2
        left = ring - 2 * top - right
        cells = []
        for square in range(ring):
            here = "".join(PAWN_LETTERS[p] for p in range(NUM_PAWNS) if self.positions[p] == square)
            mark = "S" if square == 0 else "Y" if square in self.yellow_squares else "."
            cells.append(f"{here or mark:<3}")
        width = 3 * top
        lines = ["".join(cells[:top]).rstrip()]
        for row in range(max(left, right)):
            left_cell = cells[ring - 1 - row] if row < left else "   "
            right_cell = cells[top + row] if row < right else ""
            lines.append(left_cell + " " * (width - 6) + right_cell)
        bottom_start = top + right
        lines.append("".join(cells[bottom_start + top - 1 - i] for i in range(top)).rstrip())
        lines = [line.rstrip() for line in lines]
        lines.append(f"S start (square 0, clockwise is left to right along the top), Y yellow ({self._yellow_text()})")
        lines.append(
            "pawns: "
            + ", ".join(f"{PAWN_LETTERS[p]} on {self.positions[p]}" for p in range(NUM_PAWNS))
            + f"; order first to last: {order_name(self.order())}"
        )
        lines.append("tokens: " + ", ".join(f"P{p} {t}" for p, t in enumerate(self.tokens)))
        if self.phase == OVER:
            status = (
                f"P{self.winners[0]} won ({self.reason})" if self.winners else f"a draw ({self.reason})"
            ) + f" after {self.replays} replay{'s' * (self.replays != 1)}"
        elif self.phase in (DEAL, TIMER):
            status = f"round {self.replays + 1}: setting up ({self.phase})"
        else:
            doing = "to move" if self.phase == MOVE else "to decide on a swap"
            status = f"round {self.replays + 1}, turn {self.turn}: P{self.to_move} {doing}"
        lines.append(status)
        return "\n".join(lines)

    def _yellow_text(self) -> str:
        return ", ".join(str(square) for square in sorted(self.yellow_squares)) or "none"

    def __repr__(self) -> str:
        return (
            f"<WatchRaceState players={self.num_players} round={self.replays + 1} turn={self.turn} phase={self.phase}>"
        )

    # -- copies -------------------------------------------------------------------
    def clone(self) -> WatchRaceState:
        new = self._shallow_copy()
        new.previous_rounds = [dict(r) for r in self.previous_rounds]
        new.dealt = self.dealt[:]
        new.hands = [hand[:] for hand in self.hands]
        new.pile = self.pile[:]
        new.positions = self.positions[:]
        new.tokens = self.tokens[:]
        new.moves = self.moves[:]
        new.swaps = self.swaps[:]
        new.move_log = self.move_log[:]
        new.swap_log = self.swap_log[:]
        return new

    def to_json(self) -> dict[str, Any]:
        # The action list (chance included) is the authority: state_from_json
        # replays it through the checked path. The rest is a readable snapshot,
        # hidden parts included; never send it to a player.
        return {
            **self._saved_view(self._view_header(None)),
            "phase": self.phase,
            "round": self.replays + 1,
            "timer": self.timer or None,
            "turn": self.turn,
            "positions": list(self.positions),
            "tokens": list(self.tokens),
            "hands": [[CARD_NAMES[card] for card in hand] for hand in self.hands],
            "pile": [CARD_NAMES[card] for card in self.pile],
        }


class WatchRaceGame(Game):
    """Watch race: 2-6 players, chance (deal, timer), hidden cards and timer."""

    info: ClassVar[GameInfo] = INFO
    default_config: ClassVar[Mapping[str, Any]] = DEFAULT_CONFIG
    state_class = WatchRaceState
    state_name = "a Watch race state"

    def score_series(self, games: Sequence[GameRecord], num_players: int) -> dict[str, Any]:
        """Return the series score: one point per game won (engines/watch_race/scoring.py)."""
        from engines.watch_race.scoring import score_series

        return score_series(games)

    def validate_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        full = super().validate_config(config)
        ring = config_integer(full, "ring_length", MIN_RING, MAX_RING)
        yellows = full["yellow_squares"]
        if (
            not isinstance(yellows, list | tuple)
            or any(not integer_in(s, 1, ring - 1) for s in yellows)
            or len(set(yellows)) != len(yellows)
        ):
            raise ConfigError(f"yellow_squares must be distinct squares from 1 to {ring - 1}, not {yellows!r}")
        timer = full["timer_turns"]
        if (
            not isinstance(timer, list | tuple)
            or len(timer) != 2
            or any(not is_integer(t) for t in timer)
            or not 1 <= timer[0] <= timer[1] <= MAX_TIMER_TURNS
        ):
            raise ConfigError(
                f"timer_turns must be [fewest, most] turns with 1 <= fewest <= most <= {MAX_TIMER_TURNS}, not {timer!r}"
            )
        config_integer(full, "max_replays", 0, MAX_REPLAYS)
        full["yellow_squares"] = list(yellows)
        full["timer_turns"] = list(timer)
        return full
