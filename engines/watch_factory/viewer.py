"""The Watch factory's replay frames and board facts (its declaration names them).

One frame per state, rebuilt by ``replays.replay_state`` from the recorded
actions (chance included). A frame holds only what the table shows everyone;
what one seat alone saw is its private layer (:func:`private`), which the
series page sends only to the owner of that seat's bot and to staff, and the
recorded notation of a secret move is replaced by :func:`public_moves` for
everyone else (the page's move list, the public download, the API).

- Documents in hand are a count; played documents show their colour and kind.
- Watch cards set face down (by a player's WATCH or at random) are a count and
  who set them, until the next round reveals them.
- The next market card (which only the WATCH player may peek at) is absent.
- A move that draws, keeps or sets something hidden is shown in words that
  say what happened without what it was ("P1 keeps a document").

The last frame adds each player's score by the scoring help's lines.

A seat's private layer, per frame: its documents in hand (colour and kind), the
documents it is choosing among while searching the files, the watch cards it
set face down, and the next market card once it has peeked at it (WATCH).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.watch_factory import data
from engines.watch_factory.game import (
    BANK_CARD,
    DRAW_MARKET,
    EMPTY,
    GEAR,
    INFO,
    MAX_PLAYERS,
    OVER,
    S_BRIBE,
    S_KEEP,
    S_WATCH,
    WatchFactoryState,
    track_places,
)

#: The step of a decision whose choice stays secret, and how a frame words it.
SECRET_STEPS = {S_KEEP: "keeps a document (face down)", S_WATCH: "sets a watch card (face down)"}


def board(config: Mapping[str, Any]) -> dict[str, Any]:
    """Return the static drawing facts: spots and sections, the watch hand, crates, documents, tracks, markets."""
    return {
        "sections": list(data.SECTIONS),
        "spots": [
            {"name": name, "section": data.section_of(spot), "risky": spot in data.RISKY}
            for spot, name in enumerate(data.SPOTS)
        ],
        "hand_names": list(data.HAND_NAMES),
        "rounds": data.ROUNDS,
        "crate_colours": list(data.CRATE_COLOURS),
        "crate_values": [list(values) for values in data.CRATE_VALUES],
        "doc_colours": list(data.DOC_COLOURS),
        "doc_kinds": list(data.DOC_KINDS),
        "columns": data.COLUMNS,
        "column_costs": list(data.COLUMN_COST),
        "tracks": [
            {
                "name": name,
                "bonuses": [None if bonus is None else _bonus(bonus) for bonus in data.TRACK_BONUSES[track]],
                "first": list(data.PLACE_POINTS[track][0]),
                "second": list(data.PLACE_POINTS[track][1]),
            }
            for track, name in enumerate(data.TRACKS)
        ],
        "track_spots": data.TRACK_SPOTS,
        "track_spots_below_four": data.SPOTS_BELOW_FOUR,
        "max_players": MAX_PLAYERS,
        "solo_titles": [list(title) for title in data.SOLO_TITLES],
        "reasons": dict(INFO.reasons),
    }


def _bonus(bonus: data.Bonus) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": bonus.kind, "amount": bonus.amount}
    if bonus.kind == "crate":
        out["colour"] = data.CRATE_COLOURS[bonus.colour]
    return out


def frames(states: Sequence[WatchFactoryState], actions: Sequence[int]) -> list[dict[str, Any]]:
    """Return one frame per state, each with the move that led to it in public words."""
    out = [_frame(states[0], 0)]
    for ply, action in enumerate(actions, start=1):
        frame = _frame(states[ply], ply)
        frame["move"] = move_text(states[ply - 1], action)
        out.append(frame)
    return out


def move_text(before: WatchFactoryState, action: int) -> dict[str, Any]:
    """Return the move ``action`` from ``before`` as the table saw it: who, and its notation or a public wording."""
    notation = before.action_to_string(action)
    if before.current_player() < 0:  # the referee draws
        kind, whom = before.draws[0]
        if kind == "market":
            if before.market < 0:
                return {"worker": None, "notation": f"market card {action - DRAW_MARKET} face up", "hidden": False}
            return {"worker": None, "notation": "the next round's market card is drawn (face down)", "hidden": True}
        if kind == "doc":
            return {"worker": None, "notation": f"P{whom} draws a document (face down)", "hidden": True}
        if kind == "search":
            return {"worker": None, "notation": f"P{whom} draws a document from the files (face down)", "hidden": True}
        if kind == "watch":
            return {"worker": None, "notation": "a random watch card is set (face down)", "hidden": True}
        if kind == "die":
            return {"worker": whom, "notation": f"{before.worker_name(whom)} rolls: {notation}", "hidden": False}
        return {"worker": None, "notation": notation, "hidden": False}
    worker = before.to_move
    step = before.step
    if step in SECRET_STEPS:
        return {"worker": worker, "notation": SECRET_STEPS[step], "hidden": True, "step": step}
    if step == S_BRIBE and action != BANK_CARD:
        notation = "pays the bribe"
    return {"worker": worker, "notation": notation, "hidden": False, "step": step}


def public_moves(states: Sequence[WatchFactoryState], actions: Sequence[int]) -> list[str | None]:
    """Return, per action, None for a public move, or its public words for a hidden one ("P1 keeps a document").

    The recorded notation of a hidden move names what only one seat (or nobody)
    saw: the document drawn or kept, the watch card set, the next market card.
    """
    out: list[str | None] = []
    for before, action in zip(states, actions, strict=False):
        move = move_text(before, action)
        if not move["hidden"]:
            out.append(None)
        elif move["worker"] is None:
            out.append(move["notation"])
        else:
            out.append(f"{before.worker_name(move['worker'])} {move['notation']}")
    return out


def private(states: Sequence[WatchFactoryState], actions: Sequence[int], seat: int) -> list[dict[str, Any]]:
    """Return, per frame, what only ``seat`` saw: its hand, the documents it searches, its watch cards, its peek."""
    return [_private(state, seat) for state in states]


def _document(card: int) -> dict[str, Any]:
    colour, kind = data.DOCUMENTS[card]
    return {"card": card, "colour": data.DOC_COLOURS[colour], "kind": kind}


def _private(state: WatchFactoryState, seat: int) -> dict[str, Any]:
    if not 0 <= seat < state.num_players:
        return {}
    layer: dict[str, Any] = {}
    player = state.players[seat]
    if not state.solo:
        layer["hand"] = [_document(card) for card in sorted(player.hand)]
    if state.searching and state.to_move == seat:
        # The documents drawn from the files, one by one, and then chosen among ("keep doc ...").
        layer["searching"] = [_document(card) for card in sorted(state.searching)]
    if state.watcher == seat and state.watch_set:
        layer["watch_set"] = [data.SECTIONS[section] for section in state.watch_set]
    if state.peeker == seat and state.next_market >= 0:
        layer["next_market"] = {"card": state.next_market, **data.MARKETS[state.next_market]._asdict()}
    return layer


def _frame(state: WatchFactoryState, ply: int) -> dict[str, Any]:
    current = state.current_player()
    pawn = state.pawn
    spots: list[int | None] = [None] * data.NUM_SPOTS
    for worker, spot in enumerate(state.spots):
        if spot >= 0:
            spots[spot] = worker
    market = None
    if state.market >= 0:
        card = data.MARKETS[state.market]
        market = {"card": state.market, **card._asdict()}
    frame: dict[str, Any] = {
        "ply": ply,
        "round": state.round,
        "phase": state.phase,
        "step": state.step,
        "to_move": current if current >= 0 else None,
        "hand": state.hand,
        "num_players": state.num_players,
        "solo": state.solo,
        "pawn": pawn,
        "pawn_name": None if pawn is None else state.worker_name(pawn),
        "pawn_die": state.pawn_die or None,
        "closed": [spot for spot in range(data.NUM_SPOTS) if state.closed(spot)],
        "spots": spots,
        "market": market,
        "markets_left": len(state.market_stack) + (state.next_market >= 0),
        "black": state.black,
        # Face down until the next round: how many and who set them (None: at random), never which.
        "watch_set": len(state.watch_set),
        "watcher": state.watcher,
        "revealed": list(state.revealed),
        "revealed_by": state.revealed_by,
        "watch_deck": list(state.watch_deck),
        "searching": len(state.searching),
        "bonus": None if state.bonus is None else _bonus(state.bonus),
        "players": [_player(state, p) for p in range(state.num_players)],
        "tracks": [[_track_cell(owner) for owner in line] for line in state.tracks],
        # Each track's current first and second places (workers: the third worker counts in a 2-player game).
        "leaders": [
            [list(place) for place in track_places([line.count(owner) for owner in range(len(state.spots))])]
            for line in state.tracks
        ],
        "stock": [state.stock[value] for values in data.CRATE_VALUES for value in values],
        "doc_stack": sum(len(segment) for segment in state.doc_stack),
        "log": list(state.log),
        "move": None,
    }
    if state.solo:
        frame["solo_card"] = (
            None
            if state.solo_card < 0
            else {
                "card": state.solo_card,
                **{key: list(rate) for key, rate in data.SOLO_CARDS[state.solo_card]._asdict().items()},
            }
        )
        frame["watches"] = state.watches
    if state.phase == OVER:
        outcome = state.outcome()
        frame["scores"] = [state.score(p) for p in range(state.num_players)]
        frame["winners"] = [] if outcome is None or state.solo else list(outcome.winners)
        frame["reason"] = None if outcome is None else outcome.reason
        if state.solo:
            total = frame["scores"][0]["total"]
            titles = [title for points, title in data.SOLO_TITLES if total >= points]
            frame["title"] = titles[-1] if titles else None
    return frame


def _player(state: WatchFactoryState, p: int) -> dict[str, Any]:
    player = state.players[p]
    view: dict[str, Any] = {
        "rubles": player.rubles,
        "gears": player.gears,
        "debts": player.debts,
        "removed": list(player.removed),
        "bribe": player.bribe(),
        "crates": sorted(player.crates),
        "played": [
            {"colour": data.DOC_COLOURS[colour], "kind": kind}
            for colour, kind in (data.DOCUMENTS[c] for c in player.played)
        ],
        "hand": len(player.hand),  # a count: which documents a player holds is secret
        "board_points": player.board_points(),
    }
    if state.solo:
        view["tokens"] = player.supply
    return view


def _track_cell(owner: int) -> int | str | None:
    """Return a majority-track spot: None (empty), "gear" (blocked by a gear) or the token's owner."""
    if owner == EMPTY:
        return None
    if owner == GEAR:
        return "gear"
    return owner
