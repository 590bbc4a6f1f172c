"""Watching Us (rulebook 002, Bearsharktopus Studios): 2-5 players against the monsters, and a DM.

The players' Characters share a table of Locations while a DM runs the decks.
Setup deals three Character/Item cards to each player (one becomes the
Character, the others its Items), votes a Location from two cards and an
Adversary from three Monsters (the DM returns the other two to the top of the
deck). Each turn a Monster is flipped: sharing a type with the Adversary it
becomes a Proxy, otherwise its Attack acts and it is discarded. Then the
active Character Investigates, performs a Ritual (and may roll its Ritual
Dice at a Monster's To Hit), uses an Item or Travels. The players win when
the Adversary and every Proxy are dead at the end of a turn, and lose when
every Character is dead. RULES.md beside this file quotes the rulebook
sentence by sentence with the code and tests of each; data.py holds the cards
(most are completions); to_hit.py parses the To Hit notation.

Seats: with ``gm="seat"`` (the default) the last seat is the GM (the DM), the
others are the players; with ``gm="builtin"`` every seat is a player and the
engine makes the DM's decisions with its reference policy (RULES.md, *The
built-in GM*). Seat 0 is the first player. A turn is small decisions (the
action, the Ritual kept, the Monster aimed at, how many dice, where to
Travel...), each with a short legal list; every deck draw, die and Ritual
success is a chance node drawn by the referee.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engines.base import (
    CHANCE,
    TERMINAL,
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
from engines.watching_us import data
from engines.watching_us.data import CHARACTERS, LOCATIONS, MONSTERS, RITUALS, TIMES, Effect
from engines.watching_us.to_hit import ToHit, parse

MAX_SEATS = 6
MAX_PLAYERS_SEATS = 5  # "para 2-5 jugadores y 1 DM"
NIGHT, MORNING = 3, 0
N_CHAR, N_LOC, N_MON, N_RIT = len(CHARACTERS), len(LOCATIONS), len(MONSTERS), len(RITUALS)
MAXK = data.MAX_DICE_ROLLED

# -- action ids ------------------------------------------------------------------------
CHOOSE = 0  # + slot of the dealt hand (0..2): that card is the Character
VOTE = CHOOSE + 3  # + option
TIEBREAK = VOTE + 3  # + option: the first player settles a tied vote
ORDER = TIEBREAK + 3  # + 0/1: the GM puts that returned Monster on top
INVESTIGATE = ORDER + 2
RITUAL = INVESTIGATE + 1
TRAVEL = RITUAL + 1
USE = TRAVEL + 1  # + card: discard that Item for its active effect
GIVE = USE + N_CHAR  # + player seat: the investigated Item goes to that player
PICK = GIVE + MAX_PLAYERS_SEATS  # + 0/1: the Ritual performed
JUDGE_OK = PICK + 2  # the next player judges a Ritual: it succeeded
JUDGE_FAIL = JUDGE_OK + 1
TARGET = JUDGE_FAIL + 1  # + Monster: roll at it
NO_ROLL = TARGET + N_MON
ROLL = NO_ROLL + 1  # + k - 1: roll k Ritual Dice
GO_NEW = ROLL + MAXK  # Travel: enter a new Location from the Location deck
GO_TO = GO_NEW + 1  # + Location index: move to an existing Location
SWAP_ADJ = GO_TO + MAX_PLAYERS_SEATS
SWAP_PLACE = SWAP_ADJ + 1
ADJ_PICK = SWAP_PLACE + 1  # + 0/1: which of the two drawn cards gives the Adjective
REVIVE = ADJ_PICK + 2  # + card: invert that Item into the new Character
STAY_DEAD = REVIVE + N_CHAR
GM_PICK = STAY_DEAD + 1  # + player seat: the DM's choice of Character
# chance
DEAL = GM_PICK + MAX_PLAYERS_SEATS  # + Character/Item card
DRAW_LOC = DEAL + N_CHAR  # + Location card
DRAW_MON = DRAW_LOC + N_LOC  # + Monster
DRAW_RIT = DRAW_MON + N_MON  # + Ritual
DIE = DRAW_RIT + N_RIT  # + face - 1
SUCCEED = DIE + 6
FAIL = SUCCEED + 1
TABLE_YES = FAIL + 1
TABLE_NO = TABLE_YES + 1
# Travel: change both the Adjective and the Place ("cambiando el Adjetivo y/o Lugar"); appended last so
# that the ids above keep their values.
SWAP_BOTH = TABLE_NO + 1
NUM_ACTIONS = SWAP_BOTH + 1

PLAYERS_WON, PLAYERS_LOST, NIGHT_NEVER_ENDED = "players_won", "players_lost", "night_never_ended"
MAX_TURNS_LIMIT = 200
# Setup under 60 plies; a turn at most: a flip and its draws, triggers (5 proxies and an adversary, a
# GM pick each), travels (4 decisions each), a Ritual (draws, pick, judge, target, k, 12 dice) and the
# revivals; 120 is generous.
MAX_GAME_LENGTH = 80 + 120 * MAX_TURNS_LIMIT

INFO = GameInfo(
    name="watching_us",
    title="Watching Us (Bearsharktopus Studios)",
    rules_version="1",
    min_players=3,
    max_players=MAX_SEATS,
    has_chance=True,
    has_hidden_information=True,
    max_game_length=MAX_GAME_LENGTH,
    num_distinct_actions=NUM_ACTIONS,
    summary=(
        "A co-operative horror card game: two to five players against the monsters a DM (the GM seat, or "
        "the engine's built-in GM) flips from the Monster deck. The players vote a Location and an Adversary; "
        "each turn a Monster is flipped and either becomes the Adversary's Proxy (sharing its type) or "
        "attacks. The active Character then Investigates (an Item, time passes), performs a Ritual (Ritual "
        "Dice on success, pain on failure, then a roll against a Monster's To Hit), uses an Item or Travels. "
        "Kill the Adversary and every Proxy to win; if every Character dies, the GM wins."
    ),
    reasons=(
        (PLAYERS_WON, "the Adversary and every Proxy were dead at the end of a turn: the players won"),
        (PLAYERS_LOST, "every Character was dead at the end of a turn (or the table failed a condition): the GM won"),
        (NIGHT_NEVER_ENDED, "the turn limit came with Monsters still in play: the night never ended, the GM won"),
    ),
)

DEFAULT_CONFIG: dict[str, Any] = {
    "gm": "seat",  # "seat": the last seat is the GM; "builtin": the engine's reference GM
    "max_turns": 60,  # the turn cap (a GM win: "the night never ended")
    "adversaries": 1,  # "Simultaneous Adversaries!": 2 picks two at the start
    "extra_adversaries": 0,  # "Multiple Adversaries!": how many take a dead Adversary's place
    "adversary_hp_bonus": 0,  # "Buff Adversaries! Give all Adversaries +1 or +2 HP"
    "double_or_nothing": False,  # "Adversaries require doubles to hit"
    "opening_cards": 3,  # "only draw two Item cards to pick from": 2
    "discard_unused": False,  # "discard the unused Items instead of turning them into their opening hand"
}


def _check_config(config: Mapping[str, Any]) -> None:
    gm = config["gm"]
    if gm not in ("seat", "builtin"):
        raise ConfigError(f"gm must be 'seat' (the last seat is the GM) or 'builtin', not {gm!r}")
    config_integer(config, "max_turns", 1, MAX_TURNS_LIMIT)
    config_integer(config, "adversaries", 1, 2)
    config_integer(config, "extra_adversaries", 0, 5)
    config_integer(config, "adversary_hp_bonus", 0, 2)
    config_integer(config, "opening_cards", 2, 3)
    for key in ("double_or_nothing", "discard_unused"):
        if not isinstance(config[key], bool):
            raise ConfigError(f"{key} must be true or false, not {config[key]!r}")


def seat_range(config: Mapping[str, Any]) -> tuple[int, int]:
    """Return the (min, max) seats for the config's ``gm``: 3..6 with a GM seat, 2..5 built-in."""
    return (3, 6) if config.get("gm", "seat") == "seat" else (2, 5)


def seat_roles(num_players: int, config: Mapping[str, Any]) -> tuple[str, ...]:
    """Return "player" or "gm" per seat; ConfigError for a config or a count this game refuses."""
    full = WatchingUsGame(config).config
    count = _check_count(num_players, full)
    gm = count - 1 if full["gm"] == "seat" else None
    return tuple("gm" if seat == gm else "player" for seat in range(count))


def _check_count(num_players: object, config: Mapping[str, Any]) -> int:
    low, high = seat_range(config)
    if not is_integer(num_players):
        raise ConfigError(f"num_players must be an integer, not {num_players!r}")
    if not low <= num_players <= high:
        what = "2 to 5 players and the GM seat" if config["gm"] == "seat" else "2 to 5 players (built-in GM)"
        raise ConfigError(
            f"watching_us with gm={config['gm']!r} is for {low} to {high} seats ({what}), not {num_players}"
        )
    return num_players


TO_HIT: tuple[ToHit, ...] = tuple(parse(m.to_hit) for m in MONSTERS)


class WatchingUsState(State):
    """A Watching Us position."""

    def __init__(self, game: WatchingUsGame, config: dict[str, Any], num_players: int, seed: int | None) -> None:
        super().__init__(game, config, num_players, seed)
        self.gm_seat: int | None = num_players - 1 if config["gm"] == "seat" else None
        P = self.P = num_players - (self.gm_seat is not None)
        self.char_deck = list(range(N_CHAR))
        self.char_discard: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(P)]
        self.character = [-1] * P
        self.hp = [0] * P
        self.dice = [0] * P
        self.loc = [0] * P
        self.alive = [False] * P
        self.items: list[list[int]] = [[] for _ in range(P)]
        self.damage_dealt = [0] * P
        self.loc_deck = list(range(N_LOC))
        self.loc_bottom: list[int] = []
        self.locations: list[list[int]] = []  # [adjective card, place card]
        self.mon_deck = list(range(N_MON))
        self.mon_top: list[list[Any]] = []  # [card, [seats that know it]] on top of the deck, in order
        self.returned: list[int] = []  # the Monsters the DM returned, still on top (public as a set)
        self.mon_discard: list[int] = []
        self.adversaries: list[list[int]] = []  # [card, hp]
        self.proxies: list[list[int]] = []
        self.slain: list[int] = []
        self.banished: list[int] = []  # N/A Proxies sent away with the last Adversary (never slain)
        self.chain_left = config["extra_adversaries"]
        self.rit_deck = list(range(N_RIT))
        self.rit_discard: list[int] = []
        self.time = 0
        self.turn = 0
        self.active = 0
        self.offer: list[int] = []
        self.votes: list[int] = [-1] * P
        self.vote_kind = ""
        self.ritual = -1
        self.target = -1
        self.roll_k = 0
        self.rolls: list[int] = []
        self.last_roll: list[int] = []
        self.lost_table = False
        self.log: list[str] = []
        self.decisions = [0] * num_players
        self.queue: list[tuple[Any, ...]] = []
        self.need: tuple[Any, ...] | None = None
        self._outcome: Outcome | None = None
        # Setup: "En la dirección contraria a las agujas del reloj, reparte tres Personajes a cada Jugador."
        order = [0, *range(P - 1, 0, -1)]
        for _ in range(config["opening_cards"]):
            self.queue += [("draw", "char", ("hand", p)) for p in order]
        self.queue += [("choose", p) for p in range(P)]
        self.queue += [("draw", "loc", ("offer",))] * 2 + [("vote", "location")]
        self.queue += [("draw", "mon", ("offer",))] * 3 + [("vote", "adversary")]
        if config["adversaries"] == 2:
            self.queue.append(("vote", "adversary"))
        self.queue += [("order",), ("start",)]
        self._advance()

    # -- whose turn ------------------------------------------------------------------------
    def current_player(self) -> int:
        if self._outcome is not None:
            return TERMINAL
        assert self.need is not None
        return CHANCE if self.need[0] == "chance" else self.need[1]

    def is_terminal(self) -> bool:
        return self._outcome is not None

    def legal_actions(self) -> list[int]:
        if self._outcome is not None or self.need is None:
            return []
        if self.need[0] == "chance":
            return [a for a, _ in self.need[2]]
        return list(self.need[2])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._outcome is None and self.need is not None and self.need[0] == "chance":
            return list(self.need[2])
        return super().chance_outcomes()

    # -- helpers ---------------------------------------------------------------------------
    def living(self) -> list[int]:
        return [p for p in range(self.P) if self.alive[p]]

    def name(self, p: int) -> str:
        return f"P{p} ({CHARACTERS[self.character[p]].character})" if self.character[p] >= 0 else f"P{p}"

    def passives(self, p: int, kind: str) -> list[Effect]:
        """Return the passive effects of ``kind`` that act on player ``p``'s Character."""
        out: list[Effect] = []
        if self.character[p] >= 0:
            out += [e for e in CHARACTERS[self.character[p]].character_effect if e.kind == kind]
        out += [e for card in self.items[p] for e in CHARACTERS[card].item_passive if e.kind == kind]
        for q in range(self.P):  # an Item passive on "here" acts on everyone at its holder's Location
            if q != p and self.alive[q] and self.loc[q] == self.loc[p]:
                out += [
                    e
                    for card in self.items[q]
                    for e in CHARACTERS[card].item_passive
                    if e.kind == kind and e.target == "here"
                ]
        if self.locations:
            adj, place = self.locations[self.loc[p]]
            out += [e for e in LOCATIONS[adj].adjective_effect if e.kind == kind]
            out += [e for e in LOCATIONS[place].place_effect if e.kind == kind]
        for card, _ in self.adversaries:
            out += [e for e in MONSTERS[card].adversary if e.trigger == "passive" and e.kind == kind]
        for card, _ in self.proxies:
            out += [e for e in MONSTERS[card].proxy if e.trigger == "passive" and e.kind == kind]
        return out

    def max_hp(self, p: int) -> int:
        return max(1, CHARACTERS[self.character[p]].hp + sum(e.amount for e in self.passives(p, "max_hp")))

    def roll_limit(self, p: int) -> int:
        return min([MAXK, *(e.amount for e in self.passives(p, "roll_limit"))])

    def monster_hp(self, card: int, adversary: bool) -> int:
        return MONSTERS[card].hp + (self.config["adversary_hp_bonus"] if adversary else 0)

    def to_hit(self, card: int, adversary: bool) -> ToHit:
        value = TO_HIT[card]
        return value.doubled() if adversary and self.config["double_or_nothing"] else value

    def _say(self, text: str) -> None:
        self.log.append(text)
        if len(self.log) > 40:
            del self.log[0]

    def _decide(self, seat: int, step: str, options: Sequence[int]) -> None:
        self.need = ("decide", seat, tuple(options), step)

    def _chance(self, kind: str, outcomes: Sequence[tuple[int, float]], dest: Any = None) -> None:
        self.need = ("chance", kind, tuple(outcomes), dest)

    # -- the machine ---------------------------------------------------------------------
    def _advance(self) -> None:
        self._clamp_hp()
        while self.need is None and self._outcome is None and self.queue:
            task = self.queue.pop(0)
            getattr(self, "_t_" + task[0])(*task[1:])
            self._clamp_hp()

    def _clamp_hp(self) -> None:
        """Bring every living Character's HP down to its maximum, which drops when a max-HP bonus ends."""
        for p in self.living():
            most = self.max_hp(p)
            if self.hp[p] > most:
                self.hp[p] = most

    def _push(self, *tasks: tuple[Any, ...]) -> None:
        self.queue[:0] = list(tasks)

    def _t_draw(self, deck: str, dest: tuple[Any, ...]) -> None:
        """Draw the top card of a deck into ``dest``: a chance node unless the top is known."""
        if deck == "mon":
            if self.mon_top and dest[0] != "peek":  # a peek looks under the cards already known
                card, _ = self.mon_top.pop(0)
                if card in self.returned:
                    self.returned.remove(card)
                self._got(dest, card)
                return
            if not self.mon_deck:
                # Completion: an empty Monster deck is the discard pile shuffled.
                self.mon_deck, self.mon_discard = sorted(self.mon_discard), []
                if not self.mon_deck:
                    return
        elif deck == "loc":
            if not self.loc_deck:
                if self.loc_bottom:
                    self._got(dest, self.loc_bottom.pop(0))
                return
        elif deck == "char":
            if not self.char_deck:
                self.char_deck, self.char_discard = sorted(self.char_discard), []
                if not self.char_deck:
                    return
        elif not self.rit_deck:
            self.rit_deck, self.rit_discard = sorted(self.rit_discard), []
        pool, base = self._deck(deck)
        share = 1.0 / len(pool)
        self._chance(deck, [(base + card, share) for card in pool], dest)

    def _deck(self, deck: str) -> tuple[list[int], int]:
        """Return a deck's draw pile ("char", "loc", "mon" or "rit") and the action that draws its card 0."""
        if deck == "char":
            return self.char_deck, DEAL
        if deck == "loc":
            return self.loc_deck, DRAW_LOC
        if deck == "mon":
            return self.mon_deck, DRAW_MON
        return self.rit_deck, DRAW_RIT

    def _got(self, dest: tuple[Any, ...], card: int) -> None:
        what = dest[0]
        if what == "hand":
            self.hands[dest[1]].append(card)
        elif what == "offer":
            self.offer.append(card)
        elif what == "flip":
            self._reveal(card)
        elif what == "peek":
            self.mon_top.append([card, []])
        elif what == "item":
            self._give_item(dest[1], card)
        elif what == "newadv":
            self.adversaries.append([card, self.monster_hp(card, True)])
            self._say(f"{MONSTERS[card].name} takes the dead Adversary's place")
        elif what == "swap":
            p, side = dest[1], dest[2]
            location = self.locations[self.loc[p]]
            old = location[side]
            location[side] = card
            self.loc_bottom.append(old)  # "go on the bottom of the Location deck"
            words = (
                (LOCATIONS[old].adjective, LOCATIONS[card].adjective)
                if side == 0
                else (LOCATIONS[old].place, LOCATIONS[card].place)
            )
            self._say(f"{self.name(p)} changes {words[0]} to {words[1]}: {self.location_name(self.loc[p])}")

    def location_name(self, index: int) -> str:
        adj, place = self.locations[index]
        return f"{LOCATIONS[adj].adjective} {LOCATIONS[place].place}"

    # -- setup ---------------------------------------------------------------------------
    def _t_choose(self, p: int) -> None:
        self._decide(p, "choose", [CHOOSE + i for i in range(len(self.hands[p]))])

    def _t_vote(self, kind: str) -> None:
        self.vote_kind = kind
        self.votes = [-1] * self.P
        self.queue[:0] = [("ballot", p) for p in range(self.P)] + [("count",)]

    def _t_ballot(self, p: int) -> None:
        self._decide(p, "vote", [VOTE + i for i in range(len(self.offer))])

    def _t_count(self) -> None:
        # Completion: the most votes wins; "ties: the first player decides" (seat 0's own vote when it is
        # among the tied, else seat 0 chooses among them).
        tally = [self.votes.count(i) for i in range(len(self.offer))]
        tied = [i for i, n in enumerate(tally) if n == max(tally)]
        if len(tied) == 1 or self.votes[0] in tied:
            self._elected(tied[0] if len(tied) == 1 else self.votes[0])
        else:
            self._decide(0, "tiebreak", [TIEBREAK + i for i in tied])

    def _elected(self, option: int) -> None:
        if self.vote_kind == "location":
            adj, place = self.offer[option], self.offer[1 - option]
            self.locations.append([adj, place])
            self._say(f"the players choose the {self.location_name(0)}")
            self.offer = []
        else:
            card = self.offer.pop(option)
            self.adversaries.append([card, self.monster_hp(card, True)])
            self._say(f"the players choose {MONSTERS[card].name} as the Adversary")

    def _t_order(self) -> None:
        # "El DM pone las otras dos sobre el mazo": the GM decides their order.
        if len(self.offer) < 2:
            self._return_monsters(0)
        elif self.gm_seat is None:
            self._return_monsters(self._gm_order())
        else:
            self._decide(self.gm_seat, "order", [ORDER, ORDER + 1])

    def _gm_order(self) -> int:
        """Built-in GM: the returned Monster whose Attack hurts most goes on top (then the first offered)."""

        def harm(card: int) -> int:
            return sum(e.amount for e in MONSTERS[card].attack if e.kind in ("damage", "lose_dice", "travel"))

        return 0 if harm(self.offer[0]) >= harm(self.offer[1]) else 1

    def _return_monsters(self, top: int) -> None:
        cards = [self.offer[top], *[c for i, c in enumerate(self.offer) if i != top]]
        knowers = [] if self.gm_seat is None else [self.gm_seat]
        self.mon_top = [[card, list(knowers)] for card in cards] + self.mon_top
        self.returned = sorted(cards)
        self.offer = []

    def _t_start(self) -> None:
        for p in range(self.P):
            self.alive[p] = True
            self.loc[p] = 0
            self.hp[p] = self.max_hp(p)
        self.time, self.turn, self.active = 0, 1, 0  # "Pon el Contador de Tiempo por la Mañana"; seat 0 first
        self._push(("turn",))

    # -- a turn --------------------------------------------------------------------------
    def _t_turn(self) -> None:
        self._say(f"turn {self.turn} ({TIMES[self.time]}): {self.name(self.active)}")
        self._push(("draw", "mon", ("flip",)), ("triggers", "turn"), ("action",), ("end_turn",))

    def _reveal(self, card: int) -> None:
        monster = MONSTERS[card]
        kinds = {t for adv, _ in self.adversaries for t in MONSTERS[adv].types}
        if kinds & set(monster.types):
            self.proxies.append([card, self.monster_hp(card, False)])
            self._say(f"{monster.name} becomes a Proxy")
        else:
            self._say(f"{monster.name} attacks")
            self.mon_discard.append(card)
            self._push(*[("effect", e, card, self.active) for e in monster.attack])

    def _t_triggers(self, trigger: str) -> None:
        tasks = [
            ("effect", e, card, self.active)
            for card, _ in self.adversaries
            for e in MONSTERS[card].adversary
            if e.trigger == trigger
        ]
        tasks += [
            ("effect", e, card, self.active)
            for card, _ in self.proxies
            for e in MONSTERS[card].proxy
            if e.trigger == trigger
        ]
        self._push(*tasks)

    def _t_effect(self, effect: Effect, source: int, actor: int) -> None:
        """Apply one effect; ``source`` is the Monster behind it (-1 for a Ritual or an Item)."""
        kind, amount, target = effect.kind, effect.amount, effect.target
        if kind == "monster_heal":
            for entry in self.adversaries + self.proxies:
                entry[1] = min(self.monster_hp(entry[0], entry in self.adversaries), entry[1] + amount)
            return
        if kind == "lose_unless":
            self._chance("table", [(TABLE_YES, data.TABLE_CHECK), (TABLE_NO, 1 - data.TABLE_CHECK)])
            return
        if target == "gm":
            living = self.living()
            if not living:
                return
            if self.gm_seat is None:
                self._push(("apply", effect, source, [self._gm_pick(kind, living)]))
            else:
                self.pending_effect = (effect, source)
                self._decide(self.gm_seat, "gm_pick", [GM_PICK + p for p in living])
            return
        if target in ("active", "self"):
            targets = [actor]
        elif target == "all":
            targets = self.living()
        else:
            targets = [p for p in self.living() if self.loc[p] == self.loc[actor]]
        self._push(("apply", effect, source, targets))

    def _gm_pick(self, kind: str, living: list[int]) -> int:
        """Built-in GM: harm the Character with the fewest HP (lose_dice: the most dice); ties, the first seat."""
        if kind == "lose_dice":
            return min(living, key=lambda p: (-self.dice[p], p))
        return min(living, key=lambda p: (self.hp[p], p))

    def _t_apply(self, effect: Effect, source: int, targets: list[int]) -> None:
        kind, amount = effect.kind, effect.amount
        for p in targets:
            if not self.alive[p]:
                continue
            if kind == "damage":
                hurt = amount
                if source >= 0:  # an attack "from" that Monster: immunities and armour
                    if any(e.arg in MONSTERS[source].types for e in self.passives(p, "immune")):
                        hurt = 0
                    hurt = max(0, hurt - sum(e.amount for e in self.passives(p, "armor")))
                self.hp[p] -= hurt
                if hurt:
                    self._say(f"{self.name(p)} takes {hurt} damage")
                if self.hp[p] <= 0:  # "Si un Personaje se queda sin vida, muere."
                    self.hp[p] = 0
                    self.alive[p] = False
                    self._say(f"{self.name(p)} dies")
            elif kind == "heal":  # up to the maximum, and never down to it
                self.hp[p] = max(self.hp[p], min(self.max_hp(p), self.hp[p] + amount))
            elif kind == "gain_dice":
                self.dice[p] += amount
            elif kind == "lose_dice":
                self.dice[p] = max(0, self.dice[p] - amount)
            elif kind == "travel":
                self._push(*[("travel", p)] * amount)
            elif kind == "peek":
                self._push(("peek", p, amount))
            elif kind == "advance_time":
                self._push(("time",))
            elif kind == "draw_item":
                self._push(("draw", "char", ("item", p)))

    def _t_peek(self, p: int, n: int) -> None:
        if len(self.mon_top) < n and self.mon_deck:
            self._push(("draw", "mon", ("peek",)), ("peek", p, n))
            return
        for entry in self.mon_top[:n]:
            if p not in entry[1]:
                entry[1].append(p)

    def _t_time(self) -> None:
        # "Mañana -> Mediodía -> Tarde -> Noche -> Mañana"; the end of a stage lets the dead revive.
        self.time = (self.time + 1) % 4
        self._say(f"time advances: {TIMES[self.time]}")
        tasks: list[tuple[Any, ...]] = [("revive", p) for p in range(self.P) if not self.alive[p] and self.items[p]]
        if self.time == NIGHT:
            tasks.append(("triggers", "night"))
        elif self.time == MORNING:
            tasks.append(("triggers", "morning"))
        self._push(*tasks)

    def _t_revive(self, p: int) -> None:
        if not self.alive[p] and self.items[p]:
            self._decide(p, "revive", [*(REVIVE + c for c in self.items[p]), STAY_DEAD])

    def _t_action(self) -> None:
        p = self.active
        if not self.alive[p]:
            return
        if self.passives(p, "peek_start") and (self.mon_deck or self.mon_top):
            top_known = self.mon_top and p in self.mon_top[0][1]
            if not top_known:
                self._push(("peek", p, 1), ("action",))
                return
        options = [INVESTIGATE, RITUAL]
        options += [USE + c for c in sorted(set(self.items[p])) if CHARACTERS[c].item_active]
        if self._travel_options(p):
            options.append(TRAVEL)
        self._decide(p, "action", options)

    def _travel_options(self, p: int) -> list[int]:
        options = []
        cards = len(self.loc_deck) + len(self.loc_bottom)
        if len(self.locations) < self.P and cards >= 2:  # "un máximo de una Localización por Jugador"
            options.append(GO_NEW)
        options += [GO_TO + i for i in range(len(self.locations)) if i != self.loc[p]]
        if cards:
            options += [SWAP_ADJ, SWAP_PLACE]
        if cards >= 2:  # "cambiando el Adjetivo y/o Lugar de la Localización en la que estás": both at once
            options.append(SWAP_BOTH)
        return options

    def _t_travel(self, p: int) -> None:
        if self.alive[p]:
            options = self._travel_options(p)
            if options:
                self._decide(p, "travel", options)

    def _t_newloc(self, p: int) -> None:
        if len(self.offer) == 2:
            self._decide(p, "adj", [ADJ_PICK, ADJ_PICK + 1])
        else:
            self.offer = []

    def _give_item(self, p: int, card: int) -> None:
        if len(self.items[p]) < data.MAX_ITEMS:
            self.items[p].append(card)
            self._say(f"{self.name(p)} gains the {CHARACTERS[card].item}")
        else:
            self.char_discard.append(card)

    def _t_investigated(self, p: int) -> None:
        if not self.offer:
            return
        here = [q for q in self.living() if self.loc[q] == self.loc[p] and len(self.items[q]) < data.MAX_ITEMS]
        if len(here) <= 1:
            self._give_item(here[0] if here else p, self.offer.pop())
        else:
            self._decide(p, "give", [GIVE + q for q in here])

    def _t_ritual_pick(self, p: int) -> None:
        if len(self.offer) == 2:
            self._decide(p, "pick", [PICK, PICK + 1])
        elif self.offer:
            self._perform(p, 0)

    def _perform(self, p: int, index: int) -> None:
        self.ritual = self.offer.pop(index)
        self.rit_discard += self.offer
        self.offer = []
        ritual = RITUALS[self.ritual]
        self._say(f"{self.name(p)} performs Ritual {ritual.number}/30 ({ritual.element})")
        judges = [q for q in [*range(p + 1, self.P), *range(p)] if self.alive[q]]
        if ritual.judge == "next" and judges:
            self._decide(judges[0], "judge", [JUDGE_OK, JUDGE_FAIL])
        else:
            chance = data.DIFFICULTY[ritual.difficulty]
            self._chance("ritual", [(SUCCEED, chance), (FAIL, 1 - chance)])

    def _ritual_result(self, ok: bool) -> None:
        p, ritual = self.active, RITUALS[self.ritual]
        self.rit_discard.append(self.ritual)
        if ok:
            bonus = sum(e.amount for e in self.passives(p, "ritual_bonus") if e.arg in ("any", ritual.element))
            gained, effects = ritual.success_dice + bonus, ritual.success
        else:
            gained, effects = ritual.failure_dice, ritual.failure
        self.dice[p] += gained
        self._say(f"the Ritual {'succeeds' if ok else 'fails'}: {self.name(p)} gains {gained} Ritual Dice")
        self._push(*[("effect", e, -1, p) for e in effects], ("aim", p), ("time",))

    def _t_aim(self, p: int) -> None:
        # "Al final de tu Ritual, puedes Tirar cualquier cantidad de tus Dados de Ritual"
        if not self.alive[p] or not self.dice[p]:
            return
        targets = [TARGET + card for card, _ in self.adversaries + self.proxies if not TO_HIT[card].immune]
        if targets:
            self._decide(p, "target", [*sorted(set(targets)), NO_ROLL])

    def _t_dice(self) -> None:
        if len(self.rolls) < self.roll_k:
            self._chance("die", [(DIE + face, 1 / 6) for face in range(6)])
            return
        p, card = self.active, self.target
        bonus = sum(e.amount for e in self.passives(p, "roll_bonus"))
        values = [r + bonus for r in self.rolls]
        self.last_roll = list(self.rolls)
        entry, adversary = self._monster_entry(card)
        damage = self.to_hit(card, adversary).damage(values, proxy=not adversary)
        if damage:
            damage += sum(e.amount for e in self.passives(p, "extra_damage"))
        self._say(f"{self.name(p)} rolls {self.rolls} (as {values}) at {MONSTERS[card].name}: {damage} damage")
        self.rolls, self.roll_k = [], 0
        if entry is None or not damage:
            return
        entry[1] -= damage
        self.damage_dealt[p] += damage
        if entry[1] <= 0:
            (self.adversaries if adversary else self.proxies).remove(entry)
            self.slain.append(card)
            self._say(f"{MONSTERS[card].name} dies")
            effects = MONSTERS[card].adversary if adversary else MONSTERS[card].proxy
            self._push(*[("effect", e, card, p) for e in effects if e.trigger == "death"])

    def _monster_entry(self, card: int) -> tuple[list[int] | None, bool]:
        for entry in self.adversaries:
            if entry[0] == card:
                return entry, True
        for entry in self.proxies:
            if entry[0] == card:
                return entry, False
        return None, False

    def _t_end_turn(self) -> None:
        if len(self.adversaries) < self.config["adversaries"] and self.chain_left and not self.lost_table:
            # "When an Adversary dies, have another one take its place." Each dead Adversary is replaced,
            # also one of two Simultaneous Adversaries (it used to wait until both were dead).
            self.chain_left -= 1
            self._push(("draw", "mon", ("newadv",)), ("end_turn",))
            return
        if not self.adversaries and self.proxies and not self.chain_left:
            # "N/A means that this Monster cannot be damaged by ordinary means." Completion: the
            # extraordinary means is the Adversary's death; a Proxy no Ritual Dice can damage is
            # banished with its last Adversary, so that the game stays winnable (RULES.md).
            for card, _ in [entry for entry in self.proxies if TO_HIT[entry[0]].immune]:
                self.banished.append(card)
                self._say(
                    f"{MONSTERS[card].name} cannot be damaged by ordinary means: it is banished with the Adversary"
                )
            self.proxies = [entry for entry in self.proxies if not TO_HIT[entry[0]].immune]
        if self.lost_table:
            self._finish(PLAYERS_LOST, "the table had no living cephalopod or gastropod")
        elif not self.adversaries and not self.proxies:
            self._finish(PLAYERS_WON, "the Adversary and every Proxy are dead")
        elif not any(self.alive):
            self._finish(PLAYERS_LOST, "every Character is dead")
        elif self.turn >= self.config["max_turns"]:
            self._finish(NIGHT_NEVER_ENDED, f"turn {self.turn} ended with Monsters in play")
        else:
            p = self.active
            for step in range(1, self.P + 1):  # "en el sentido de las agujas del reloj": the next seat
                q = (p + step) % self.P
                if self.alive[q]:
                    break
            self.active = q
            self.turn += 1
            self._push(("turn",))

    def _finish(self, reason: str, why: str) -> None:
        self._say(why)
        players = list(range(self.P))
        won = reason == PLAYERS_WON
        winners = tuple(players) if won else () if self.gm_seat is None else (self.gm_seat,)
        returns = tuple(1.0 if seat in winners or (won and seat < self.P) else -1.0 for seat in range(self.num_players))
        stats = []
        for seat in range(self.num_players):
            entry: dict[str, Any] = {
                "role": "gm" if seat == self.gm_seat else "player",
                "turns": self.turn,
                "won": seat in winners,
                "moves": self.decisions[seat],
            }
            if seat < self.P:
                entry["character"] = CHARACTERS[self.character[seat]].character if self.character[seat] >= 0 else None
                entry["alive"] = self.alive[seat]
                entry["damage"] = self.damage_dealt[seat]
            stats.append(entry)
        self._outcome = Outcome(winners=winners, reason=reason, returns=returns, stats=tuple(stats))
        self.need = None
        self.queue = []

    # -- applying actions ----------------------------------------------------------------
    def apply_action(self, action: int) -> None:
        need = self.need
        assert need is not None
        self._history.append(action)
        self.need = None
        if need[0] == "chance":
            self._apply_chance(need[1], action, need[3])
        else:
            self.decisions[need[1]] += 1
            self._apply_decision(need[3], need[1], action)
        self._advance()

    def _apply_chance(self, kind: str, action: int, dest: Any) -> None:
        if kind == "die":
            self.rolls.append(action - DIE + 1)
            self._push(("dice",))
        elif kind == "ritual":
            self._ritual_result(action == SUCCEED)
        elif kind == "table":
            if action == TABLE_NO:
                self.lost_table = True
        else:  # a card from a deck
            pile, base = self._deck(kind)
            card = action - base
            pile.remove(card)
            self._got(dest, card)

    def _apply_decision(self, step: str, seat: int, action: int) -> None:
        p = self.active
        if step == "choose":
            hand = self.hands[seat]
            self.character[seat] = hand[action - CHOOSE]
            rest = [c for i, c in enumerate(hand) if i != action - CHOOSE]
            if self.config["discard_unused"]:
                self.char_discard += rest
            else:
                self.items[seat] = rest
            self.hands[seat] = []
            self._say(f"P{seat} plays the {CHARACTERS[self.character[seat]].character}")
        elif step == "vote":
            self.votes[seat] = action - VOTE
        elif step == "tiebreak":
            self._elected(action - TIEBREAK)
        elif step == "order":
            self._return_monsters(action - ORDER)
        elif step == "gm_pick":
            effect, source = self.pending_effect
            self._push(("apply", effect, source, [action - GM_PICK]))
        elif step == "action":
            self._act(p, action)
        elif step == "give":
            self._give_item(action - GIVE, self.offer.pop())
        elif step == "pick":
            self._perform(p, action - PICK)
        elif step == "judge":
            self._ritual_result(action == JUDGE_OK)
        elif step == "target":
            if action != NO_ROLL:
                self.target = action - TARGET
                limit = min(self.dice[p], self.roll_limit(p))
                self._decide(p, "roll", [ROLL + k - 1 for k in range(1, limit + 1)])
        elif step == "roll":
            self.roll_k = action - ROLL + 1
            self.dice[p] -= self.roll_k
            self.rolls = []
            self._push(("dice",))
        elif step == "travel":
            if action == GO_NEW:
                self.offer = []
                self._push(("draw", "loc", ("offer",)), ("draw", "loc", ("offer",)), ("newloc", seat))
            elif action in (SWAP_ADJ, SWAP_PLACE):
                self._push(("draw", "loc", ("swap", seat, 0 if action == SWAP_ADJ else 1)))
            elif action == SWAP_BOTH:  # "el Adjetivo y/o Lugar": the Adjective, then the Place
                self._push(("draw", "loc", ("swap", seat, 0)), ("draw", "loc", ("swap", seat, 1)))
            else:
                self.loc[seat] = action - GO_TO
                self._say(f"{self.name(seat)} moves to the {self.location_name(self.loc[seat])}")
        elif step == "adj":
            i = action - ADJ_PICK
            self.locations.append([self.offer[i], self.offer[1 - i]])
            self.offer = []
            self.loc[seat] = len(self.locations) - 1
            self._say(f"{self.name(seat)} enters the {self.location_name(self.loc[seat])}")
        elif step == "revive" and action != STAY_DEAD:
            card = action - REVIVE
            self.char_discard += [c for c in self.items[seat] if c != card] + [self.character[seat]]
            self.items[seat] = []
            self.character[seat] = card
            self.alive[seat] = True
            self.dice[seat] = 0
            self.hp[seat] = self.max_hp(seat)
            self._say(f"P{seat} inverts an Item: the {CHARACTERS[card].character} rises at the same Location")

    def _act(self, p: int, action: int) -> None:
        if action == INVESTIGATE:
            # "La investigación avanza el Contador de Tiempo un paso, y permite al jugador robar un ítem
            # para sí mismo u otro jugador en la misma Localización del mazo de Personajes."
            self._say(f"{self.name(p)} investigates")
            self.offer = []
            self._push(("draw", "char", ("offer",)), ("investigated", p), ("time",))
        elif action == RITUAL:
            self.offer = []
            self._push(("draw", "rit", ("offer",)), ("draw", "rit", ("offer",)), ("ritual_pick", p))
        elif action == TRAVEL:
            self._push(("travel", p))
        else:
            card = action - USE
            self.items[p].remove(card)
            self.char_discard.append(card)
            self._say(f"{self.name(p)} uses the {CHARACTERS[card].item}")
            self._push(*[("effect", e, -1, p) for e in CHARACTERS[card].item_active])

    # -- results -------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        return self._outcome

    # -- notation ------------------------------------------------------------------------
    @property
    def step(self) -> str:
        if self.need is None:
            return ""
        return self.need[1] if self.need[0] == "chance" else self.need[3]

    def action_to_string(self, action: int) -> str:
        if not integer_in(action, 0, NUM_ACTIONS - 1):
            raise MalformedActionError(f"{action!r} is not a Watching Us action id (0..{NUM_ACTIONS - 1})")
        return NOTATION[action]

    def parse_action(self, text: object) -> int:
        key = " ".join(self._read_notation(text).lower().split())
        action = PARSE.get(key)
        if action is None:
            raise MalformedActionError(
                f"{text!r} is not Watching Us notation: for example 'ritual', 'investigate', 'travel', "
                "'vote 1', 'choose 0', 'target Police Detective', 'roll 2', 'use Artist's Camera', 'die 5'"
            )
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(
                f"{text!r} is not legal now (the decision is {self.step!r}); legal now: {self._describe_legal(legal)}"
            )
        return action

    # -- views ---------------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        return self._view(self._check_seat(player))

    def _view(self, viewer: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            **self._view_header(viewer),
            "role": None if viewer is None else ("gm" if viewer == self.gm_seat else "player"),
            "player_seats": self.P,
            "gm_seat": self.gm_seat,
            "time": self.time,
            "time_name": TIMES[self.time],
            "turn": self.turn,
            "active": self.active,
            "step": self.step,
            "characters": [
                {
                    "seat": p,
                    "character": self.character[p],
                    "name": CHARACTERS[self.character[p]].character if self.character[p] >= 0 else None,
                    "hp": self.hp[p],
                    "dice": self.dice[p],
                    "alive": self.alive[p],
                    "location": self.loc[p],
                    "items": list(self.items[p]),
                    "hand_size": len(self.hands[p]),
                }
                for p in range(self.P)
            ],
            "locations": [list(pair) for pair in self.locations],
            "location_names": [self.location_name(i) for i in range(len(self.locations))],
            "adversaries": [list(entry) for entry in self.adversaries],
            "proxies": [list(entry) for entry in self.proxies],
            "slain": list(self.slain),
            "banished": list(self.banished),
            "monster_deck": len(self.mon_deck) + len(self.mon_top),
            "monster_discard": list(self.mon_discard),
            "returned_on_top": list(self.returned),  # the two the DM put back, order unknown to players
            "known_top": [
                [i, entry[0]] for i, entry in enumerate(self.mon_top) if viewer is None or viewer in entry[1]
            ],
            "location_deck": len(self.loc_deck) + len(self.loc_bottom),
            "ritual_deck": len(self.rit_deck),
            "ritual_discard": list(self.rit_discard),
            "character_deck": len(self.char_deck),
            "character_discard": list(self.char_discard),
            "offer": list(self.offer),
            "votes": list(self.votes),
            "ritual": self.ritual,
            "target": self.target if self.roll_k else -1,
            "roll_k": self.roll_k,
            "rolls": list(self.rolls),
            "last_roll": list(self.last_roll),
            "chain_left": self.chain_left,
            "log": list(self.log),
        }
        if viewer is not None and viewer < self.P:
            view["hand"] = list(self.hands[viewer])
        if viewer is None:
            view["hands"] = [list(h) for h in self.hands]
        if self._outcome is not None:
            view["outcome"] = self._outcome.to_json()
        return view

    def render(self) -> str:
        lines = [f"turn {self.turn}, {TIMES[self.time]}, active P{self.active}, step {self.step or '-'}"]
        for i in range(len(self.locations)):
            lines.append(f"  location {i}: {self.location_name(i)}")
        for p in range(self.P):
            items = ", ".join(CHARACTERS[c].item for c in self.items[p])
            lines.append(
                f"  {self.name(p)}: {'alive' if self.alive[p] else 'dead'}, {self.hp[p]} HP, {self.dice[p]} dice, "
                f"at {self.loc[p]}, items [{items}]"
            )
        for label, group in (("Adversary", self.adversaries), ("Proxy", self.proxies)):
            for card, hp in group:
                lines.append(
                    f"  {label} {MONSTERS[card].name} ({hp} HP, To Hit {self.to_hit(card, label == 'Adversary')})"
                )
        if self._outcome is not None:
            lines.append(f"  over: {self._outcome.reason}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<WatchingUsState seats={self.num_players} turn={self.turn} step={self.step}>"

    # -- copies --------------------------------------------------------------------------
    def clone(self) -> WatchingUsState:
        new = WatchingUsState.__new__(WatchingUsState)
        game = self.game
        state = dict(self.__dict__)
        del state["game"]
        new.__dict__.update(copy.deepcopy(state))
        new.game = game
        return new

    def to_json(self) -> dict[str, Any]:
        # The action list (chance included) is the authority: state_from_json replays it checked.
        view = self._saved_view(self._view(None))
        view.pop("role")
        return view


def _notation() -> list[str]:
    names = [""] * NUM_ACTIONS
    for i in range(3):
        names[CHOOSE + i] = f"choose {i}"
        names[VOTE + i] = f"vote {i}"
        names[TIEBREAK + i] = f"tiebreak {i}"
    for i in range(2):
        names[ORDER + i] = f"top {i}"
        names[PICK + i] = f"pick {i}"
        names[ADJ_PICK + i] = f"adjective {i}"
    names[INVESTIGATE], names[RITUAL], names[TRAVEL] = "investigate", "ritual", "travel"
    for c, card in enumerate(CHARACTERS):
        names[USE + c] = f"use {card.item}"
        names[REVIVE + c] = f"invert {card.item}"
        names[DEAL + c] = f"card {card.number} {card.character}"
    for p in range(MAX_PLAYERS_SEATS):
        names[GIVE + p] = f"give P{p}"
        names[GO_TO + p] = f"go to {p}"
        names[GM_PICK + p] = f"pick P{p}"
    names[JUDGE_OK], names[JUDGE_FAIL] = "ritual succeeded", "ritual failed"
    for m, monster in enumerate(MONSTERS):
        names[TARGET + m] = f"target {monster.name}"
        names[DRAW_MON + m] = f"monster {monster.name}"
    names[NO_ROLL] = "no roll"
    for k in range(1, MAXK + 1):
        names[ROLL + k - 1] = f"roll {k}"
    names[GO_NEW], names[SWAP_ADJ], names[SWAP_PLACE] = "new location", "swap adjective", "swap place"
    names[SWAP_BOTH] = "swap both"
    names[STAY_DEAD] = "stay dead"
    for i, loc in enumerate(LOCATIONS):
        names[DRAW_LOC + i] = f"location {loc.adjective}/{loc.place}"
    for r in range(N_RIT):
        names[DRAW_RIT + r] = f"ritual {r + 1}"
    for face in range(6):
        names[DIE + face] = f"die {face + 1}"
    names[SUCCEED], names[FAIL] = "success", "failure"
    names[TABLE_YES], names[TABLE_NO] = "table has it", "table lacks it"
    return names


NOTATION: tuple[str, ...] = tuple(_notation())
PARSE: dict[str, int] = {name.lower(): action for action, name in enumerate(NOTATION)}
assert len(PARSE) == NUM_ACTIONS
assert all(NOTATION)


class WatchingUsGame(Game):
    """Watching Us: 2-5 players and a GM seat (or the built-in GM); chance and hidden cards."""

    info: ClassVar[GameInfo] = INFO
    default_config: ClassVar[Mapping[str, Any]] = DEFAULT_CONFIG
    state_name = "a Watching Us state"

    def validate_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        full = super().validate_config(config)
        _check_config(full)
        return full

    def score_series(self, games: Sequence[GameRecord], num_players: int) -> dict[str, Any]:
        """Return the series score: each series player scores the games its side won (scoring.py)."""
        from engines.watching_us.scoring import score_series

        return score_series(games, num_players)

    def check_num_players(self, num_players: int | None, config: Mapping[str, Any] | None = None) -> int:
        """Return the seat count: 3..6 with a GM seat, 2..5 with the built-in GM; 3 when none is given."""
        config = self.config if config is None else config
        if num_players is None:
            return 3
        return _check_count(num_players, config)

    def new_initial_state(
        self, seed: int | None = None, config: Mapping[str, Any] | None = None, num_players: int | None = None
    ) -> WatchingUsState:
        full = self.merged_config(config)
        return WatchingUsState(self, full, self.check_num_players(num_players, full), seed)
