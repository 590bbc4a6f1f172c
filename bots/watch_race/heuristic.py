"""The ``heuristic`` reference bot for the Watch race: steer toward its own cards, on a token budget.

It rebuilds everything from its observation each time it is asked (so it
keeps no state between decisions and cannot drift from the referee):

* **where the cards are**: its own cards it sees; a card it gave away in a
  swap it follows through later swaps (the swap log names the slots); every
  other card is somewhere among the other players' slots and the face-down
  pile. Other players show their cards by how they move: after each move by a
  player, the order it left counts as a hint that the player holds that card
  (hints are dropped when the player's hand changes in a swap).
* **when the timer rings**: uniform over the configured ``timer_turns`` range
  given the turns already played, so it knows how likely the ring is after
  this turn and how many turns it may still have to fill.
* **moves**: every legal move is scored on the order it leaves: one of its
  cards (best), near one of them (fewer pairs of pawns out of place), a card
  another player probably holds (worst), the gaps that guard a winning order,
  a yellow square when a swap there would help, and the tokens it spends
  against a budget of tokens left per turn it may still have to play.
* **swaps** (after landing on a yellow square): swap the card that is worth
  least under the current order for the slot most likely to hold the card of
  that order, when that is better than keeping; otherwise keep.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines.watch_race.game import (
    CARD_NAMES,
    KEEP,
    MAX_HAND,
    MAX_STEPS,
    NUM_CARDS,
    NUM_TARGETS,
    PAWN_LETTERS,
    PILE_TARGET,
    SWAP_BASE,
    pawn_order,
)

#: Worth of holding a card whose order is 0, 1, 2 or 3 pairs of pawns away from the current one.
CLOSENESS = (1.0, 0.35, 0.12, 0.04)
WIN_NOW = 4.0  # the order it leaves is one of its cards
OTHERS_CARD = 3.0  # times the chance that another player holds the order it leaves
PILE_CARD = 0.5  # times the chance that the order it leaves is set aside (a replay)
OVERSPEND = 0.25  # per token beyond the budget
SPEND = 0.01  # per token: of two equal moves, the cheaper
GUARD = 1.0  # times the narrowest gap of a winning order, as a share of the ring
HINT = 1.5  # how much one move by a player raises the odds it holds the order it left
SWAP_MARGIN = 0.05  # a swap must gain at least this much closeness


def inversions(order: Sequence[int], card: Sequence[int]) -> int:
    """Return how many pairs of pawns ``order`` ranks the other way round from ``card``."""
    rank = {pawn: i for i, pawn in enumerate(card)}
    ranks = [rank[pawn] for pawn in order]
    return sum(ranks[i] > ranks[j] for i in range(len(ranks)) for j in range(i + 1, len(ranks)))


CARD_ORDERS: tuple[tuple[int, ...], ...] = tuple(tuple(PAWN_LETTERS.index(c) for c in name) for name in CARD_NAMES)


class CardBeliefs:
    """Where the cards this player cannot see probably are."""

    def __init__(self, observation: Mapping[str, Any]) -> None:
        me = observation["player"]
        self.me = me
        self.mine = [CARD_NAMES.index(name) for name in observation["cards"]]
        hand_sizes = observation["hand_sizes"]
        self.locations: list[tuple[str, int, int]] = [
            ("player", p, slot) for p in range(len(hand_sizes)) if p != me for slot in range(hand_sizes[p])
        ] + [("pile", index, 0) for index in range(observation["pile_size"])]
        self.known: dict[tuple[str, int, int], int] = {}
        self.hints = [[1.0] * NUM_CARDS for _ in hand_sizes]
        self._read_history(observation)

    def _read_history(self, observation: Mapping[str, Any]) -> None:
        positions = [0, 0, 0]
        swaps = {swap["turn"]: swap for swap in observation["swaps"]}
        for move in observation["moves"]:
            positions[PAWN_LETTERS.index(move["pawn"])] = move["to"]
            if move["player"] != self.me:
                self.hints[move["player"]][CARD_ORDERS.index(pawn_order(positions))] *= HINT
            swap = swaps.get(move["turn"])
            if swap is not None:
                # A hand that changed makes the old hints about it worthless.
                self.hints[swap["player"]] = [1.0] * NUM_CARDS
                if "with" in swap:
                    self.hints[swap["with"]] = [1.0] * NUM_CARDS

    def chances(self, location: tuple[str, int, int]) -> list[float]:
        """Return the probability of each card being at ``location``."""
        if location in self.known:
            return [1.0 if card == self.known[location] else 0.0 for card in range(NUM_CARDS)]
        taken = set(self.mine) | set(self.known.values())
        weights = self.hints[location[1]] if location[0] == "player" else [1.0] * NUM_CARDS
        free = [weights[card] if card not in taken else 0.0 for card in range(NUM_CARDS)]
        total = sum(free)
        return [w / total for w in free] if total else [0.0] * NUM_CARDS

    def held_by_others(self, card: int) -> float:
        """Return the chance that some other player holds ``card``."""
        missing = 1.0
        for location in self.locations:
            if location[0] == "player":
                missing *= 1.0 - self.chances(location)[card]
        return 1.0 - missing

    def in_pile(self, card: int) -> float:
        """Return the chance that ``card`` is set aside."""
        return min(1.0, sum(self.chances(loc)[card] for loc in self.locations if loc[0] == "pile"))


class HeuristicPolicy:
    """Moves toward the order of its own cards, guards it, and swaps when that helps."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        # What I held before each of my swaps, by (round, turn): the one thing the log does not repeat.
        self._given: dict[tuple[int, int], int] = {}
        self._last_cards: dict[int, list[str]] = {}
        self._last_seen = (0, 0)

    def choose(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        """Return one of ``legal_actions``: see the module docstring for how it decides."""
        legal = list(legal_actions)
        self._remember_given_cards(observation)
        beliefs = CardBeliefs(observation)
        beliefs.known.update(self._known_given(observation))
        if KEEP in legal:
            return self._choose_swap(observation, legal, beliefs)
        return self._choose_move(observation, legal, beliefs)

    # -- remembering what I gave away ---------------------------------------------------
    def _remember_given_cards(self, observation: Mapping[str, Any]) -> None:
        # The swap log tells a player what it received, not what it gave; a bot
        # asked at every turn of its own sees its hand before and after each of
        # its swaps, so it remembers its hand from the previous decision.
        round_number = observation["round"]
        now = (round_number, observation["turn"])
        if now < self._last_seen:  # a new game of the series
            self._given.clear()
            self._last_cards.clear()
        self._last_seen = now
        previous = self._last_cards.get(round_number)
        me = observation["player"]
        if previous is not None:
            for swap in observation["swaps"]:
                key = (round_number, swap["turn"])
                if key in self._given:
                    continue
                if swap["player"] == me:
                    self._given[key] = CARD_NAMES.index(previous[swap["slot"]])
                elif swap.get("with") == me:
                    self._given[key] = CARD_NAMES.index(previous[swap["their_slot"]])
        self._last_cards = {round_number: list(observation["cards"])}

    def _known_given(self, observation: Mapping[str, Any]) -> dict[tuple[str, int, int], int]:
        # Follow each card I gave away through the later swaps of the round.
        round_number = observation["round"]
        me = observation["player"]
        known: dict[tuple[str, int, int], int] = {}
        for swap in sorted(observation["swaps"], key=lambda s: s["turn"]):
            mover_loc = ("player", swap["player"], swap["slot"])
            target = ("pile", swap["pile"], 0) if "pile" in swap else ("player", swap["with"], swap["their_slot"])
            a, b = known.pop(mover_loc, None), known.pop(target, None)
            if b is not None:
                known[mover_loc] = b
            if a is not None:
                known[target] = a
            given = self._given.get((round_number, swap["turn"]))
            if given is None:
                continue
            if swap["player"] == me:
                known[target] = given
            elif swap.get("with") == me:
                known[mover_loc] = given
        return {loc: card for loc, card in known.items() if loc[1] != me or loc[0] == "pile"}

    # -- the timer and the budget ---------------------------------------------------------
    @staticmethod
    def tokens_per_turn(observation: Mapping[str, Any]) -> float:
        """Return how many tokens it can spend this turn and still move on every turn the timer may allow."""
        low, high = observation["config"]["timer_turns"]
        turn = observation["turn"]
        me = observation["player"]
        tokens = observation["tokens"]
        active = max(1, sum(1 for t in tokens if t > 0))
        # Plan for a late ring (three quarters of the way to the latest), so as not to run dry early.
        earliest = max(low, turn + 1)
        planned_end = earliest + 0.75 * (max(high, earliest) - earliest)
        my_turns_left = max(1.0, (planned_end - turn) / active)
        return max(1.0, tokens[me] / my_turns_left)

    # -- moves ------------------------------------------------------------------------------
    def _choose_move(self, observation: Mapping[str, Any], legal: list[int], beliefs: CardBeliefs) -> int:
        positions = [observation["positions"][letter] for letter in PAWN_LETTERS]
        ring = observation["config"]["ring_length"]
        yellows = set(observation["config"]["yellow_squares"])
        budget = self.tokens_per_turn(observation)
        mine = beliefs.mine
        scored = []
        for action in legal:
            pawn, steps = divmod(action, MAX_STEPS)
            steps += 1
            after = positions[:]
            after[pawn] = (after[pawn] + steps) % ring
            order = pawn_order(after)
            card = CARD_ORDERS.index(order)
            score = max(CLOSENESS[inversions(order, CARD_ORDERS[c])] for c in mine)
            if card in mine:
                score += WIN_NOW + GUARD * narrowest_gap(after, order, ring)
            else:
                score -= OTHERS_CARD * beliefs.held_by_others(card) + PILE_CARD * beliefs.in_pile(card)
                if after[pawn] in yellows:
                    score += max(0.0, best_swap_gain(order, beliefs, observation))
            score -= OVERSPEND * max(0.0, steps - budget) + SPEND * steps
            scored.append((score, self._rng.random(), action))
        return max(scored)[2]

    # -- swaps ------------------------------------------------------------------------------
    def _choose_swap(self, observation: Mapping[str, Any], legal: list[int], beliefs: CardBeliefs) -> int:
        order = tuple(PAWN_LETTERS.index(c) for c in observation["order"])
        best_gain, best_action = SWAP_MARGIN, KEEP
        for action in legal:
            if action == KEEP:
                continue
            gain = swap_gain(action, order, beliefs)
            if gain > best_gain:
                best_gain, best_action = gain, action
        return best_action


def closeness(order: Sequence[int], card: int) -> float:
    """Return how much holding ``card`` is worth while the pawns stand in ``order``."""
    return CLOSENESS[inversions(order, CARD_ORDERS[card])]


def swap_location(action: int) -> tuple[int, tuple[str, int, int]]:
    """Return (own slot, target location) of a swap action."""
    own_slot, target = divmod(action - SWAP_BASE, NUM_TARGETS)
    if target >= PILE_TARGET:
        return own_slot, ("pile", target - PILE_TARGET, 0)
    other, their_slot = divmod(target, MAX_HAND)
    return own_slot, ("player", other, their_slot)


def swap_gain(action: int, order: Sequence[int], beliefs: CardBeliefs) -> float:
    """Return what a swap is worth: the expected card at the target minus the card given (and handed over)."""
    own_slot, location = swap_location(action)
    given = beliefs.mine[own_slot]
    chances = beliefs.chances(location)
    expected = sum(p * closeness(order, card) for card, p in enumerate(chances))
    # Handing a good card to another player helps them as much as it hurt to give it.
    handed_over = closeness(order, given) if location[0] == "player" else 0.0
    return expected - closeness(order, given) - 0.5 * handed_over


def best_swap_gain(order: Sequence[int], beliefs: CardBeliefs, observation: Mapping[str, Any]) -> float:
    """Return the gain of the best swap that landing on a yellow square would open."""
    best = 0.0
    for own_slot in range(len(beliefs.mine)):
        for location in beliefs.locations:
            target = PILE_TARGET + location[1] if location[0] == "pile" else location[1] * MAX_HAND + location[2]
            best = max(best, swap_gain(SWAP_BASE + own_slot * NUM_TARGETS + target, order, beliefs))
    return best


def narrowest_gap(positions: Sequence[int], order: Sequence[int], ring: int) -> float:
    """Return the smallest gap between neighbours in ``order`` (and the last pawn's lead over the start)."""
    first, second, third = (positions[p] for p in order)
    gaps = [first - second, second - third]
    return min(gaps) / ring
