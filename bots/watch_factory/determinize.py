"""Full Watch factory states consistent with what one seat has seen (determinizations).

A bot sees only ``observation(p)`` (``WatchFactoryState._view``): everything on
the table, its own hand and the documents it put back, the watch cards only
when it set them, the next market card only when it watched. :func:`determinize`
builds a :class:`WatchFactoryState` that gives that seat exactly that
observation and the same legal actions, sampling what it cannot see:

* the other players' hands and the document stack's segments, from the
  documents nobody has shown it (its own returned documents go to the bottom
  of the stack, where it put them);
* the watch cards set face down (by chance or by another player), uniformly
  from the watch deck;
* the next market card and the remaining market stack, from the cards it has
  not seen.

The engine is pure Python and keeps its fields in plain lists, so the state is
built field by field. A few things a single observation does not show are
part of the seat's own memory: the markets it saw in earlier rounds, where the
workers stood before this round's placements, and its own decisions this
round (did it smuggle by its icon already, how many documents has it kept, is
this the upgrade's token or the action's). :class:`Tracker` keeps them from
the observations and the seat's answers; without one, the function falls back
on what the observation and the legal actions imply.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines.watch_factory import data
from engines.watch_factory.game import (
    ACTING,
    DOC_MOVE,
    EMPTY,
    FINAL,
    KEEP,
    MOVE_TRACK,
    NUM_TRACKS,
    PLACING,
    REVEAL,
    S_BONUS,
    S_BRIBE,
    S_END,
    S_KEEP,
    S_REPAY_WATCH,
    S_SMUGGLE,
    S_TRACK,
    S_WATCH,
    SMUGGLE_ICON,
    TRACK,
    UPGRADE_ROW,
    Player,
    WatchFactoryGame,
    WatchFactoryState,
)

PHASE_ORDER = {PLACING: 0, REVEAL: 1, ACTING: 2, FINAL: 3}


class Tracker:
    """One seat's memory of the game in progress, fed every observation and every answer.

    A game starts over when the (round, phase) of an observation goes back,
    so one tracker serves a whole series.
    """

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.key: tuple[int, int] = (0, -1)
        self.seen_markets: set[int] = set()
        #: Where every worker stood at the end of the last placements seen (players, then the pawn).
        self.last_spots: list[int] | None = None
        self.last_spots_round = 0
        #: This seat's (step, action) answers in the current round and phase.
        self.trace: list[tuple[str, int]] = []

    def observe(self, observation: Mapping[str, Any]) -> None:
        """Take in an observation (call before answering it)."""
        key = (observation["round"], PHASE_ORDER.get(observation["phase"], 4))
        if key < self.key:
            self.reset()
        if key != self.key:
            self.trace = []
        self.key = key
        if observation["market"] >= 0:
            self.seen_markets.add(observation["market"])
        if observation.get("next_market", -1) >= 0:
            self.seen_markets.add(observation["next_market"])
        if observation["phase"] != PLACING:
            self.last_spots = spots_of(observation)
            self.last_spots_round = observation["round"]

    def answered(self, observation: Mapping[str, Any], action: int) -> None:
        """Record this seat's answer to the observation just observed."""
        self.trace.append((observation["step"], action))

    def previous_spots(self, observation: Mapping[str, Any]) -> list[int] | None:
        """Return where the workers stood before this round's placements, if this seat saw it."""
        if self.last_spots is not None and self.last_spots_round == observation["round"] - 1:
            return list(self.last_spots)
        return None


def spots_of(observation: Mapping[str, Any]) -> list[int]:
    """Return the workers' spots (players, then the third worker or the robot)."""
    spots = [view["spot"] for view in observation["players"]]
    if observation["pawn_spot"] is not None:
        spots.append(observation["pawn_spot"])
    return spots


def unseen_documents(observation: Mapping[str, Any]) -> list[int]:
    """Return the documents ``observation``'s seat has not seen anywhere (other hands and the stack)."""
    me = observation["player"]
    seen = set(observation["players"][me].get("hand", []))
    for view in observation["players"]:
        seen.update(view["played"])
    seen.update(observation.get("searching", []))
    return [card for card in range(len(data.DOCUMENTS)) if card not in seen]


def determinize(
    observation: Mapping[str, Any],
    rng: random.Random,
    legal_actions: Sequence[int] | None = None,
    tracker: Tracker | None = None,
) -> WatchFactoryState:
    """Return a full state consistent with ``observation`` (taken at a decision of its seat).

    The seat's observation of the result equals ``observation`` and its legal
    actions equal the engine's; the hidden parts are sampled with ``rng``.
    ``legal_actions`` and ``tracker`` settle what one observation cannot show
    (see the module's docstring).
    """
    me: int = observation["player"]
    n: int = observation["num_players"]
    # A fresh state of the same table, so that every field the engine keeps exists; then overwritten.
    state = WatchFactoryGame().new_initial_state(config=observation["config"], num_players=n)
    state.round = observation["round"]
    state.phase = observation["phase"]
    state.step = observation["step"]
    state.to_move = me
    state.spots = spots_of(observation)
    state.track_len = data.TRACK_SPOTS if n == 4 else data.SPOTS_BELOW_FOUR
    state.tracks = [list(line) for line in observation["tracks"]]
    state.stock = {int(value): count for value, count in observation["stock"].items()}
    state.black = observation["black"]
    state.watcher = observation["watcher"]
    state.revealed = list(observation["revealed"])
    state.revealed_by = observation["revealed_by"]
    state.watch_deck = list(observation["watch_deck"])
    state.solo_card = observation.get("solo_card", -1)
    state.watches = observation.get("watches", 0)
    state.pawn_die = observation["pawn_die"]
    state.log = list(observation["log"])
    state.decisions = [0] * n
    state._history = []
    state._outcome = None
    state.draws = []
    state.bonus = data.Bonus(*observation["bonus"]) if "bonus" in observation else None
    state.searching = list(observation.get("searching", []))
    state.caught = []
    state.moved_doc = [False] * n
    state.icon_used = False
    state.keep_left = 0
    state.watch_left = 0
    state.token_row = -1
    state.queue = []

    # -- the players ----------------------------------------------------------------------
    state.players = []
    for view in observation["players"]:
        player = Player()
        player.rubles, player.gears, player.debts = view["rubles"], view["gears"], view["debts"]
        player.removed = list(view["removed"])
        player.supply = view.get("tokens", 0)
        player.crates = list(view["crates"])
        player.played = list(view["played"])
        player.hand = list(view.get("hand", []))
        player.returned = list(view.get("returned", []))
        state.players.append(player)

    # -- the markets ----------------------------------------------------------------------
    state.market = observation["market"]
    state.peeker = me if "next_market" in observation else None
    left: int = observation["markets_left"]
    known_next = observation.get("next_market", -1)
    seen = {state.market} | set(observation.get("markets_seen", ()))
    seen |= tracker.seen_markets if tracker is not None else set()
    state.markets_seen = list(observation.get("markets_seen", ()))
    seen.discard(known_next)
    unseen = [card for card in range(len(data.MARKETS)) if card not in seen]
    if len(unseen) < left:  # no memory of the earlier rounds' cards: any card but this one
        unseen = [card for card in range(len(data.MARKETS)) if card != state.market]
    rng.shuffle(unseen)
    if known_next >= 0:
        unseen = [known_next] + [card for card in unseen if card != known_next]
    pool = unseen[:left]
    state.next_market = pool[0] if pool else -1
    state.market_stack = sorted(pool[1:])

    # -- the documents --------------------------------------------------------------------
    sizes: list[int] = list(observation["doc_stack"])
    hidden = unseen_documents(observation) if not state.solo else []
    mine = set(observation["players"][me].get("returned", []))
    rng.shuffle(hidden)
    stacked = sum(sizes)
    back = [card for card in hidden if card in mine][:stacked]  # put back by this seat: the stack's bottom
    rest = [card for card in hidden if card not in back]
    stack_cards = rest[: stacked - len(back)] + back
    pool_for_hands = rest[stacked - len(back) :]
    state.doc_stack = []
    at = 0
    for size in sizes:
        state.doc_stack.append(stack_cards[at : at + size])
        at += size
    for p, view in enumerate(observation["players"]):
        if p != me:
            state.players[p].hand = pool_for_hands[: view["hand_size"]]
            pool_for_hands = pool_for_hands[view["hand_size"] :]

    # -- the watch cards ------------------------------------------------------------------
    watch = observation["watch_set"]
    if isinstance(watch, list):
        state.watch_set = list(watch)
    else:
        deck = list(state.watch_deck)
        rng.shuffle(deck)
        state.watch_set = deck[:watch]

    # -- where the machine stands ---------------------------------------------------------
    trace = tracker.trace if tracker is not None else []
    actions = [action for _, action in trace]
    legal = list(legal_actions) if legal_actions is not None else None
    state.previous = list(state.spots)
    state.index = 0
    if state.phase == PLACING:
        _placing(state, observation, tracker)
    elif state.phase == REVEAL:
        state.order = state.by_hand()
        state.index = state.order.index(me)
        state.caught = [(me, state.players[me].bribe())] if state.step == S_BRIBE else []
    elif state.phase == ACTING:
        state.order = state.by_hand()
        state.index = state.order.index(me) + 1
        _acting(state, me, trace, actions, legal)
    else:  # FINAL
        state.order = [w for w in state.by_hand() if w < n]
        state.index = state.order.index(me) + 1
        state.icon_used = SMUGGLE_ICON in actions or (
            legal is not None
            and SMUGGLE_ICON not in legal
            and state.players[me].gears >= state.players[me].smuggle_icon().gears
        )
    _acting_from_observation(state, observation)
    return state


def _acting_from_observation(state: WatchFactoryState, observation: Mapping[str, Any]) -> None:
    """Take the acting seat's progress through its action from the observation, where it shows it."""
    if "previous_spots" in observation:
        state.previous = list(observation["previous_spots"])
    acting = observation.get("acting")
    if acting is None:
        return
    me = observation["player"]
    state.icon_used = acting["icon_used"]
    if state.step == S_KEEP:
        state.keep_left = acting["keep_left"]
    if state.step == S_WATCH:
        state.watch_left = acting["watch_left"]
    if state.step == S_TRACK:
        state.token_row = -1 if acting["upgrade_token"] else data.section_of(state.spots[me])
    if "moved_doc" in observation:
        state.moved_doc = list(observation["moved_doc"])


def _placing(state: WatchFactoryState, observation: Mapping[str, Any], tracker: Tracker | None) -> None:
    me, n = observation["player"], state.num_players
    if state.round == 1:
        state.order = list(range(n)) + ([state.pawn] if n == 2 else [])  # type: ignore[list-item]
        state.previous = [-1] * len(state.spots)
        if state.solo:
            state.previous[1] = data.SMUGGLE
        state.index = state.order.index(me)
        return
    if state.solo:
        state.order = [state.pawn, 0]  # type: ignore[list-item]
        state.index = 1
        return
    before = list(observation["previous_spots"]) if "previous_spots" in observation else None
    if before is None and tracker is not None:
        before = tracker.previous_spots(observation)
    if before is None or before[me] != state.spots[me]:
        # Who moved already this round? Those before this seat in the order, whose old spots were
        # closer to the hand; a worker now closer than this seat's old spot must have moved.
        mine = state.distance(state.spots[me])
        before = list(state.spots)
        for worker, spot in enumerate(state.spots):
            if worker != me and spot >= 0 and state.distance(spot) < mine:
                before[worker] = -1  # moved from somewhere closer; where does not matter to this seat
    state.previous = before
    known = [w for w, spot in enumerate(before) if spot >= 0]
    first = [w for w, spot in enumerate(before) if spot < 0]
    ordered = sorted(known, key=lambda w: state.distance(before[w]))
    state.order = first + ordered
    state.index = state.order.index(me)


def _acting(
    state: WatchFactoryState,
    me: int,
    trace: list[tuple[str, int]],
    actions: list[int],
    legal: list[int] | None,
) -> None:
    player = state.players[me]
    step = state.step
    token = "solo token" if state.solo else "token"
    # What follows the token in the engine's queue (``_act_next``): the end of the action, and in
    # solo the random watch cards for the next turn.
    tail = ["end", "solo watch"] if state.solo else ["end"]
    upgraded = any(UPGRADE_ROW <= a < UPGRADE_ROW + 4 for a in actions)
    tracks_placed = sum(TRACK <= a < TRACK + NUM_TRACKS for a in actions)
    state.moved_doc[me] = any(DOC_MOVE <= a < DOC_MOVE + NUM_TRACKS * NUM_TRACKS for a in actions)
    if step == S_END and legal is not None and not state.moved_doc[me]:
        can_move = any(me in line for line in state.tracks) and any(EMPTY in line for line in state.tracks)
        has_card = state._doc_in_hand(me, data.MOVE_TOKEN) is not None
        if can_move and has_card and not any(DOC_MOVE <= a < DOC_MOVE + NUM_TRACKS * NUM_TRACKS for a in legal):
            state.moved_doc[me] = True
    if step == S_SMUGGLE:
        state.icon_used = SMUGGLE_ICON in actions or (
            legal is not None and SMUGGLE_ICON not in legal and player.gears >= player.smuggle_icon().gears
        )
        state.queue = [token, *tail]
    elif step == S_WATCH:
        state.watch_left = min(data.MARKETS[state.market].eyes, 4) - len(state.watch_set)
        state.queue = ["repay at 5", token, *tail]
    elif step == S_KEEP:
        files = player.files_icon()
        kept = sum(KEEP <= a < KEEP + len(data.DOCUMENTS) for a in actions)
        state.keep_left = max(1, min(files.keep - kept, len(state.searching)))
        state.queue = [token, *tail]
    elif step == S_TRACK:
        if upgraded and tracks_placed == 0:  # the upgrade's token, then the action's
            state.token_row = -1
            state.queue = [token, *tail]
        else:
            state.token_row = data.section_of(state.spots[me])
            state.queue = list(tail)
    elif step == S_BONUS:
        last = actions[-1] if actions else -1
        if MOVE_TRACK <= last < MOVE_TRACK + NUM_TRACKS or (
            TRACK <= last < TRACK + NUM_TRACKS and upgraded and tracks_placed == 1
        ):
            state.queue = [token, *tail]
        else:  # the action's token, or a document's move before the end
            state.queue = list(tail)
    elif step == S_END:
        state.queue = tail[1:]
    elif step == S_BRIBE:
        state.queue = []
    elif step == S_REPAY_WATCH:
        state.queue = [token, *tail]
    else:  # sell gears, upgrade crate, move on track, upgrade
        state.queue = [token, *tail]
