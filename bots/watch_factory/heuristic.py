"""The ``heuristic`` reference bot for the Watch factory: every choice valued in final-scoring points.

Each decision is taken on a state rebuilt from the observation
(:func:`bots.watch_factory.determinize.determinize`); the heuristic itself
reads only what its seat may know (its own hand, the table, the watch cards'
count, the next market card when it peeked), so the same :func:`decide` also
plays every seat of the search bot's rollouts without cheating.

The values come from the final scoring (:class:`Values`):

* a crate is worth its number plus the crate-bonus rate its owner's places on
  the two crate tracks promise (at least 2: the tracks are fought over);
* a gear and a ruble are worth the gears' and coins' bonus rates (first and
  second places on their tracks), nothing once the 60-point cap is reached,
  more while gears are short of the smuggling still to come, rubles short of
  the next upgrade, or debts are waiting to be repaid;
* in solo the solo card's rates replace the tracks, and the tokens kept are
  worth the card's points each;
* a board token removed is worth the stars it uncovers (5 and 10 in the
  workshop and warehouse rows), the better icon for the actions still to
  come, less the higher bribe if it opens a new column;
* a majority-track token is worth the change in every player's projected
  bonuses (own gain, less the others' mean gain), plus the spot's bonus;
* documents by the sets they complete (and their use);
* a risky spot costs the bribe times the chance of its section being watched
  (the watch cards' count over the deck; nothing with the black token or
  when watching oneself; little with a "bank pays" document), and in
  multi-player the bribe goes to a rival.

A placement is the spot with the highest sum; the parts of an action follow
the same values (how many gears to sell, which crate to upgrade, which row,
which document to keep, which watch cards: those whose risky spots the
others' best next actions would use).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from bots.watch_factory.determinize import Tracker, determinize
from engines.watch_factory import data
from engines.watch_factory.data import (
    CRATE_VALUES,
    DOC_RATIOS,
    DOCUMENTS,
    MARKETS,
    OFFICE_ROW,
    RISKY,
    TRACK_BONUSES,
    WAREHOUSE_ROW,
    WORKSHOP_ROW,
    Bonus,
    section_of,
)
from engines.watch_factory.game import (
    BANK_CARD,
    CHOOSE_WATCH,
    DOC_MOVE,
    DOC_SMUGGLE,
    DONE,
    EMPTY,
    FINAL,
    KEEP,
    MOVE_TRACK,
    NUM_TRACKS,
    PLACE,
    REPAY,
    S_BONUS,
    S_BRIBE,
    S_CRATE,
    S_END,
    S_KEEP,
    S_MOVE,
    S_PLACE,
    S_REPAY_WATCH,
    S_SELL,
    S_SMUGGLE,
    S_TRACK,
    S_UPGRADE,
    S_WATCH,
    SELL,
    SMUGGLE_ICON,
    TAKE_BONUS,
    TRACK,
    UPGRADE_CRATE,
    UPGRADE_ROW,
    Player,
    WatchFactoryState,
    track_places,
)

ROWS = 4
#: Resources a player is expected to gain per round still to come, for the tracks' projected bonuses.
GEARS_PER_ROUND, RUBLES_PER_ROUND, CRATES_PER_ROUND = 1.0, 0.7, 0.6
#: The least a crate's bonus rate is taken to be (multi-player): the crate tracks are always contested.
MIN_CRATE_RATE = 2.0
#: How often a player is expected to be caught on a risky spot per round still to come.
CATCH_PER_ROUND = 0.12
#: Section preferences when nobody's next action can be guessed: the dock is the usual target.
WATCH_PRIOR = (0.4, 0.25, 0.3, 0.15)


def rates_for(state: WatchFactoryState, tracks: list[list[int]] | None = None) -> list[list[float]]:
    """Return each owner's bonus rate on each track by the current places (owner: player or pawn)."""
    owners = len(state.spots)
    out = [[0.0] * NUM_TRACKS for _ in range(owners)]
    for t, line in enumerate(tracks if tracks is not None else state.tracks):
        counts = [0] * owners
        for o in line:
            if o >= 0:
                counts[o] += 1
        first, second = track_places(counts)
        (a1, b1), (a2, b2) = data.PLACE_POINTS[t]
        for o in first:
            out[o][t] = a1 / b1
        for o in second:
            out[o][t] = a2 / b2
    return out


class Values:
    """A player's marginal values of gears, rubles, crates and tokens, in final points."""

    __slots__ = ("crate_rate", "left", "n", "p", "player", "rates", "solo", "state", "token", "vg", "vr")

    def __init__(self, state: WatchFactoryState, p: int, rates: list[list[float]] | None = None) -> None:
        self.state = state
        self.p = p
        self.n = state.num_players
        player = self.player = state.players[p]
        self.solo = state.solo
        #: Rounds whose action is still to come after this one.
        self.left = data.ROUNDS - state.round
        fuel = self.fuel_need()
        if self.solo:
            card = data.SOLO_CARDS[state.solo_card if state.solo_card >= 0 else 0]
            rate_g = card.gears[0] / card.gears[1]
            rate_c = card.rubles[0] / card.rubles[1]
            self.token = card.tokens[0] / card.tokens[1]
            self.crate_rate = 0.0
            self.rates = [[0.0] * NUM_TRACKS]
        else:
            self.rates = rates if rates is not None else rates_for(state)
            mine = self.rates[p]
            rate_g = mine[0] + mine[1]
            rate_c = mine[2] + mine[3]
            if player.gears * max(rate_g, 0.5) >= data.GEARS_CAP:
                rate_g = 0.0
            if player.rubles * max(rate_c, 0.5) >= data.COINS_CAP:
                rate_c = 0.0
            rate_g = max(rate_g, 0.5)
            rate_c = max(rate_c, 0.5)
            self.token = 0.0
            self.crate_rate = max(MIN_CRATE_RATE, mine[4] + mine[5])
        self.vg = rate_g if player.gears >= fuel else max(rate_g, 2.0)
        need = 3 + (player.debts * data.REPAY)
        self.vr = rate_c if player.rubles >= need else max(rate_c, 1.5)

    def fuel_need(self) -> int:
        """Return the gears the smuggling still to come would use (the icon's, a third of the rounds, the final)."""
        player = self.player
        smuggles = self.left / 3 + 1
        docs = sum(1 for card in player.hand if DOCUMENTS[card][1] == data.SMUGGLE_MORE)
        return int(player.smuggle_icon().gears * smuggles + 2 * docs)

    # -- crates ---------------------------------------------------------------------------
    def crate(self, value: int | None) -> float:
        return 0.0 if value is None else value + self.crate_rate

    def smuggle_gain(self, icon: data.Smuggle, stock: dict[int, int] | None = None) -> float:
        """Return the points of smuggling by ``icon`` now (the crates it takes less the gears)."""
        if self.player.gears < icon.gears:
            return 0.0
        stock = dict(stock if stock is not None else self.state.stock)
        gain = -icon.gears * self.vg
        for colour in icon.crates:
            value = crate_for(stock, colour)
            if value is not None:
                stock[value] -= 1
                gain += self.crate(value)
        return gain

    # -- the player board -----------------------------------------------------------------
    def row_gain(self, row: int, extra: int = 0) -> float:
        """Return the points of removing the next token of ``row`` (``extra`` removed already)."""
        player = self.player
        column = player.removed[row] + extra
        if column >= data.COLUMNS:
            return 0.0
        after = self.left
        gain = 0.0
        if row == data.DOCK:
            uses = after / 3 + 1
            now, then = data.DOCK_ROW[column], data.DOCK_ROW[column + 1]
            gain += uses * max(0.0, self._icon_value(then) - self._icon_value(now))
        elif row in (data.WORKSHOP, data.WAREHOUSE):
            table = WORKSHOP_ROW if row == data.WORKSHOP else WAREHOUSE_ROW
            gain += data.board_points(column + 1, row)
            now, then = _effective(table, column), _effective(table, column + 1)
            uses = after / 4
            gain += uses * ((then.gears - now.gears) * self.vg + (then.rubles - now.rubles) * self.vr)
        else:
            now_f, then_f = OFFICE_ROW[column], OFFICE_ROW[column + 1]
            gain += after / 8 * (4 * (then_f.keep - now_f.keep) + (then_f.draw - now_f.draw))
        highest = max(max(player.removed), column + 1 if extra else 0)
        if column + 1 > highest:
            raise_by = data.COLUMN_COST[column] - (data.COLUMN_COST[highest - 1] if highest else 0)
            gain -= raise_by * CATCH_PER_ROUND * after * (self.token if self.solo else self.vr)
        if self.solo:
            gain += self.token  # the token goes to the supply
        return gain

    def _icon_value(self, icon: data.Smuggle) -> float:
        avg = (2.0, 5.0, 8.0)
        return sum(avg[c] + self.crate_rate for c in icon.crates) - icon.gears * self.vg

    # -- documents ------------------------------------------------------------------------
    def doc_gain(self, card: int) -> float:
        colour, kind = DOCUMENTS[card]
        counts = [0] * len(data.DOC_COLOURS)
        for c in self.player.hand + self.player.played:
            counts[DOCUMENTS[c][0]] += 1
        k = counts[colour]
        gain = float(data.SET_POINTS[min(k + 1, 7)] - data.SET_POINTS[min(k, 7)])
        if k == 0 and all(counts[c] for c in range(len(counts)) if c != colour):
            gain += data.ALL_COLOURS_POINTS
        elif k == 0:
            gain += data.ALL_COLOURS_POINTS / 4 * (1 + sum(1 for c in counts if c)) / 4
        if kind == data.SMUGGLE_MORE:
            gain += self.crate(8 if self.player.unlocked() == data.DARK else 5) - 2 * self.vg
        elif kind == data.BANK_PAYS:
            gain += 2.0
        else:
            gain += 2.0
        return gain

    # -- risk -----------------------------------------------------------------------------
    def risk(self, spot: int) -> float:
        """Return the expected cost of being caught on ``spot`` this round."""
        state, p, player = self.state, self.p, self.player
        if spot not in RISKY or state.round == 1 or not state.watch_set:
            return 0.0
        if state.watcher == p or state.black == p:
            return 0.0
        chance = len(state.watch_set) / max(1, len(state.watch_deck))
        bribe = player.bribe()
        if self.solo:
            tokens = min(player.supply, bribe)
            return chance * (tokens * self.token + (bribe - tokens) * data.SOLO_TOKEN_RUBLES * self.vr)
        if any(DOCUMENTS[c][1] == data.BANK_PAYS for c in player.hand):
            return chance * 1.0
        rival = 1 / (self.n - 1) if state.watcher is not None else 0.0
        return chance * bribe * self.vr * (1 + rival)


def _effective(table: tuple[data.Yield, ...], column: int) -> data.Yield:
    icon = table[column]
    return table[3] if icon.points else icon


def crate_for(stock: Mapping[int, int], colour: int) -> int | None:
    """Return the crate a smuggle of ``colour`` takes: its most valuable, else a lower colour's."""
    for c in range(colour, -1, -1):
        for value in reversed(CRATE_VALUES[c]):
            if stock[value]:
                return value
    return None


# -- majority tracks ---------------------------------------------------------------------
def projected(state: WatchFactoryState, q: int) -> tuple[float, float, float]:
    """Return player ``q``'s projected gears, rubles and crates at the end."""
    player = state.players[q]
    left = data.ROUNDS - state.round + 1
    return (
        player.gears + GEARS_PER_ROUND * left,
        player.rubles + RUBLES_PER_ROUND * left,
        len(player.crates) + CRATES_PER_ROUND * left,
    )


def bonuses(rates: list[list[float]], amounts: list[tuple[float, float, float]]) -> list[float]:
    """Return each player's projected track bonuses (gears and coins capped) from ``rates``."""
    out = []
    for q, (gears, rubles, crates) in enumerate(amounts):
        r = rates[q]
        out.append(
            min(data.GEARS_CAP, gears * (r[0] + r[1]))
            + min(data.COINS_CAP, rubles * (r[2] + r[3]))
            + crates * (r[4] + r[5])
        )
    return out


def bonus_value(values: Values, bonus: Bonus | None) -> float:
    """Return the points of a track spot's bonus for ``values``' player."""
    if bonus is None:
        return 0.0
    if bonus.kind == "rubles":
        return bonus.amount * values.vr
    if bonus.kind == "gears":
        return bonus.amount * values.vg
    player = values.player
    if player.gears < bonus.amount or bonus.colour > player.unlocked():
        return 0.0
    return max(0.0, values.crate(crate_for(values.state.stock, bonus.colour)) - bonus.amount * values.vg)


def track_gains(state: WatchFactoryState, p: int, values: Values, remove_from: int = -1) -> list[float]:
    """Return, per track, the points of putting a token of ``p`` there (``-inf`` when full).

    The points are ``p``'s projected bonus gain less the other players' mean
    gain, plus the spot's immediate bonus. ``remove_from`` takes one of its
    tokens off that track first (a document's move).
    """
    tracks = [line[:] for line in state.tracks]
    if remove_from >= 0:
        line = tracks[remove_from]
        line[line.index(p)] = -2
    amounts = [projected(state, q) for q in range(state.num_players)]
    base = bonuses(rates_for(state, tracks), amounts)
    others = max(1, state.num_players - 1)
    out = []
    for t in range(NUM_TRACKS):
        line = tracks[t]
        if EMPTY not in line:
            out.append(-math.inf)
            continue
        spot = line.index(EMPTY)
        line[spot] = p
        after = bonuses(rates_for(state, tracks), amounts)
        line[spot] = EMPTY
        gain = after[p] - base[p]
        gain -= sum(after[q] - base[q] for q in range(state.num_players) if q != p) / others
        out.append(gain + bonus_value(values, TRACK_BONUSES[t][spot]))
    return out


# -- placements ----------------------------------------------------------------------------
def spot_gains(state: WatchFactoryState, p: int, spots: Sequence[int], market: int | None = None) -> dict[int, float]:
    """Return the points of taking each of ``spots`` this round for player ``p``."""
    values = Values(state, p)
    player = values.player
    m = MARKETS[state.market if market is None else market]
    token = 0.0
    if not state.solo:
        gains = track_gains(state, p, values)
        token = max(gains) if gains else 0.0
        token = max(token, 0.0)
    out: dict[int, float] = {}
    for spot in spots:
        row = section_of(spot)
        gain = 0.0
        if spot == data.SMUGGLE:
            gain = values.smuggle_gain(player.smuggle_icon())
        elif spot == data.SELL:
            gain = m.dock_rubles * values.vr + best_sale(values, m.dock_rubles)[1] + best_crate_upgrade(state, p)[1]
        elif spot == data.OVERTIME:
            gain = (player.gear_icon().gears + m.workshop_gears) * values.vg
        elif spot == data.PRODUCE:
            gain = player.gear_icon().gears * values.vg
            if not state.solo:
                gain += max([0.0] + [bonus_value(values, _next_bonus(state, t)) for t in state._track_moves(p)])
        elif spot == data.UPGRADE:
            gain = max(0.0, best_upgrade(values, token)[1])
        elif spot == data.SCROUNGE:
            icon = player.scrounge_icon()
            gain = (icon.gears + m.warehouse_gears) * values.vg + (icon.rubles + m.warehouse_rubles) * values.vr
        elif spot == data.SEARCH:
            files = player.files_icon()
            stacked = sum(len(s) for s in state.doc_stack)
            if stacked:
                gain = search_value(values, min(files.draw, stacked), files.keep)
        elif spot == data.WATCH:
            gain = watch_value(values, m)
        if player.removed[row] < data.COLUMNS:
            gain += values.row_gain(row) + token
        out[spot] = gain - values.risk(spot)
    return out


def _next_bonus(state: WatchFactoryState, track: int) -> Bonus | None:
    line = state.tracks[track]
    return TRACK_BONUSES[track][line.index(EMPTY)] if EMPTY in line else None


def search_value(values: Values, draw: int, keep: int) -> float:
    """Return the expected points of searching the files: the best ``keep`` colours' worth, discounted."""
    gains = sorted((values.doc_gain(card) for card in _colour_samples()), reverse=True)
    found = min(keep, draw)
    share = min(1.0, draw / 4)  # the chance of finding the colour wanted among ``draw`` cards, roughly
    return sum(gains[:found]) * (0.5 + 0.4 * share)


def _colour_samples() -> list[int]:
    """One document of each colour (a smuggling one: the commonest kind)."""
    return [colour * 7 for colour in range(len(data.DOC_COLOURS))]


def watch_value(values: Values, market: data.Market) -> float:
    """Return the points of the WATCH action: the black token, the bribes expected, repaying at 5."""
    state, player = values.state, values.player
    if state.solo:
        return -math.inf
    gain = 0.0
    if state.black != values.p:
        gain += 2.0 * values.vr  # the bank pays its bribes until someone else watches
    if state.round < data.ROUNDS:
        others = [state.players[q].bribe() for q in range(state.num_players) if q != values.p]
        gain += market.eyes * 0.2 * (sum(others) / max(1, len(others))) * values.vr
    if player.debts and player.rubles >= data.REPAY_WATCH:
        gain += min(player.debts, player.rubles // data.REPAY_WATCH) * (data.REPAY - data.REPAY_WATCH) * values.vr
    return gain


def best_sale(values: Values, dock_rubles: int) -> tuple[int, float]:
    """Return (gears to sell, points over selling none) by the gear and coin values at the end."""
    player, state = values.player, values.state
    fuel = values.fuel_need()
    gears, rubles = player.gears, player.rubles + dock_rubles
    best, best_value = 0, -math.inf
    for n in range(min(gears, 99) + 1):
        v = end_value(values, gears - n, rubles + n) - 2.0 * max(0, fuel - (gears - n))
        if v > best_value + 1e-9:
            best, best_value = n, v
    base = end_value(values, gears, rubles) - 2.0 * max(0, fuel - gears)
    del state
    return best, best_value - base


def end_value(values: Values, gears: int, rubles: int) -> float:
    """Return the points ``gears`` and ``rubles`` would score at the end (caps and the solo card's steps)."""
    if values.solo:
        card = data.SOLO_CARDS[values.state.solo_card if values.state.solo_card >= 0 else 0]
        return card.gears[0] * (gears // card.gears[1]) + card.rubles[0] * (rubles // card.rubles[1])
    r = values.rates[values.p]
    rate_g = max(r[0] + r[1], 0.5)
    rate_c = max(r[2] + r[3], 0.5)
    need = values.player.debts * data.REPAY
    repay = min(values.player.debts, rubles // data.REPAY) * 10 if need else 0
    return min(data.GEARS_CAP, gears * rate_g) + min(data.COINS_CAP, max(0, rubles - need) * rate_c) + repay


def best_crate_upgrade(state: WatchFactoryState, p: int) -> tuple[int, float]:
    """Return (crate value to upgrade, points gained), (0, 0.0) when none gains."""
    best, gain = 0, 0.0
    for value in set(state.players[p].crates):
        colour = data.crate_colour(value)
        if colour >= data.DARK:
            continue
        new = next((v for v in reversed(CRATE_VALUES[colour + 1]) if state.stock[v]), None)
        if new is not None and new - value > gain:
            best, gain = value, float(new - value)
    return best, gain


def best_upgrade(values: Values, token: float) -> tuple[int, float]:
    """Return (row, points) of the best upgrade (-1 when none is worth its cost)."""
    player = values.player
    best, best_gain = -1, 0.0
    for row in range(ROWS):
        column = player.removed[row]
        if column >= data.COLUMNS or (values.solo and row == data.OFFICE):
            continue
        cost = data.COLUMN_COST[column]
        gain = values.row_gain(row) - cost * values.vr + token
        if player.rubles < cost:
            debts = math.ceil((cost - player.rubles) / data.DEBT_RUBLES)
            gain -= debts * (-data.DEBT_POINTS - data.DEBT_RUBLES * values.vr)
        if gain > best_gain:
            best, best_gain = row, gain
    return best, best_gain


# -- the watch cards ---------------------------------------------------------------------
def watch_targets(state: WatchFactoryState, p: int) -> list[float]:
    """Return, per section, the bribes the watcher ``p`` expects from it next round."""
    market = state.next_market if state.next_market >= 0 else state.market
    expected = [0.0] * ROWS
    for q in range(state.num_players):
        if q == p:
            continue
        spots = [s for s in range(data.NUM_SPOTS) if s != state.spots[q] and s != data.WATCH]
        gains = spot_gains(state, q, spots, market)
        top = max(gains.values())
        weights = {s: math.exp((g - top) / 3.0) for s, g in gains.items()}
        total = sum(weights.values())
        bribe = state.players[q].bribe()
        if state.black == q or not bribe:
            continue
        for s, w in weights.items():
            if s in RISKY:
                expected[section_of(s)] += w / total * bribe
    if state.pawn is not None and not state.solo:
        other = state.players[1 - p].bribe()
        for section in range(ROWS):
            expected[section] += 0.12 * other
    return [e + 0.01 * prior for e, prior in zip(expected, WATCH_PRIOR, strict=True)]


# -- the decision -----------------------------------------------------------------------
def decide(state: WatchFactoryState, legal: Sequence[int]) -> int:
    """Return the heuristic's action for the player to move in ``state`` (``legal``: its legal actions)."""
    if len(legal) == 1:
        return legal[0]
    p = state.to_move
    step = state.step
    player: Player = state.players[p]
    if step == S_PLACE:
        spots = [a - PLACE for a in legal]
        gains = spot_gains(state, p, spots)
        return PLACE + max(spots, key=lambda s: (gains[s], -s))
    if step == S_BRIBE:
        return BANK_CARD
    if step == S_REPAY_WATCH:
        return REPAY
    if step == S_BONUS:
        values = Values(state, p)
        return TAKE_BONUS if bonus_value(values, state.bonus) > 0 else DONE
    if step == S_SMUGGLE:
        values = Values(state, p)
        if SMUGGLE_ICON in legal and values.smuggle_gain(player.smuggle_icon()) > 0:
            return SMUGGLE_ICON
        docs = [a for a in legal if DOC_SMUGGLE <= a < DOC_SMUGGLE + 3]
        if docs:
            final = state.phase == FINAL or state.round >= data.ROUNDS - 1
            best = max(
                docs,
                key=lambda a: (
                    values.crate(crate_for(state.stock, a - DOC_SMUGGLE)) - DOC_RATIOS[a - DOC_SMUGGLE] * values.vg
                ),
            )
            value = crate_for(state.stock, best - DOC_SMUGGLE)
            if final or (value is not None and value >= 7):
                return best
        return DONE
    if step == S_SELL:
        n, _ = best_sale(Values(state, p), 0)
        return SELL + min(n, len(legal) - 1)
    if step == S_CRATE:
        value, gain = best_crate_upgrade(state, p)
        action = UPGRADE_CRATE + value - 1
        return action if gain > 0 and action in legal else DONE
    if step == S_MOVE:
        values = Values(state, p)
        moves = [a for a in legal if a != DONE]
        best = max(moves, key=lambda a: bonus_value(values, _next_bonus(state, a - MOVE_TRACK)))
        return best if bonus_value(values, _next_bonus(state, best - MOVE_TRACK)) > 0 else DONE
    if step == S_UPGRADE:
        values = Values(state, p)
        gains = track_gains(state, p, values)
        row, gain = best_upgrade(values, max(0.0, max(gains)))
        return UPGRADE_ROW + row if row >= 0 and UPGRADE_ROW + row in legal else DONE
    if step == S_KEEP:
        values = Values(state, p)
        return max(legal, key=lambda a: (values.doc_gain(a - KEEP), -a))
    if step == S_WATCH:
        targets = watch_targets(state, p)
        return max(legal, key=lambda a: (targets[a - CHOOSE_WATCH], -a))
    if step == S_TRACK:
        values = Values(state, p)
        gains = track_gains(state, p, values)
        return max(legal, key=lambda a: (gains[a - TRACK], -a))
    if step == S_END:
        moves = [a for a in legal if DOC_MOVE <= a < DOC_MOVE + NUM_TRACKS * NUM_TRACKS]
        if moves:
            values = Values(state, p)
            best_action, best_gain = DONE, 3.0  # keep the card for a better move
            for source in {(a - DOC_MOVE) // NUM_TRACKS for a in moves}:
                gains = track_gains(state, p, values, remove_from=source)
                for a in moves:
                    s, t = divmod(a - DOC_MOVE, NUM_TRACKS)
                    if s == source and gains[t] > best_gain:
                        best_action, best_gain = a, gains[t]
            return best_action
        return DONE
    return legal[0]


class HeuristicPolicy:
    """Values every choice in final-scoring points (see the module's docstring)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        self._tracker = Tracker()

    def choose(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        """Return the heuristic's action for this observation."""
        legal = list(legal_actions)
        self._tracker.observe(observation)
        if len(legal) == 1:
            action = legal[0]
        else:
            state = determinize(observation, self._rng, legal, self._tracker)
            action = decide(state, legal)
            if action not in legal:
                action = legal[0]
        self._tracker.answered(observation, action)
        return action
