"""The factory race's replay frames and board facts (its declaration names them).

One frame per state, rebuilt by ``replays.replay_state`` from the recorded
actions (chance included). Each frame is compact: per factory the 3 x 3 shop
as short cell codes, the warehouses, the assembly card's squares, blueprints,
workers, housing, posters and this round's workers on the board. The players
place their workers at once: while they place, a frame shows no placement of
the round (only how many seats have finished), and the first frame after the
placement phase reveals every seat's placements together, as at the table.

The recorded notation of a secret placement is hidden the same way wherever
the moves are public (:func:`public_moves`: the series page's move list, the
public replay download, the API): "P1 places a worker (hidden)", and the move
that ends the placements names them all. A seat's private layer
(:func:`private`, for its bot's owner and staff) holds its own placements of
the round while the others cannot see them yet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.factory_race import data
from engines.factory_race.game import (
    ACTIVATE,
    CELL_NAMES,
    OVER,
    PLACE,
    TILES_BY_KEY,
    FactoryRaceGame,
    FactoryRaceState,
    cell_mask,
)


def board(config: Mapping[str, Any]) -> dict[str, Any]:
    """Return the static drawing facts: grid size, colours, factories, tile prices, posters and events."""
    full = FactoryRaceGame(config).config
    return {
        "rows": data.ROWS,
        "cols": data.COLS,
        "cells": list(CELL_NAMES),
        "colours": list(data.COLOURS),
        "factories": list(data.FACTORY_NAMES),
        "tile_costs": list(data.TILE_COSTS),
        "housing_costs": list(data.HOUSING_COSTS),
        "max_blueprints": data.MAX_BLUEPRINTS,
        "mode": full["mode"],
        "stars": full["stars"],
        "posters": [
            {"title": p.title, "timing": p.timing, "target": p.target, "effect": p.effect, "amount": p.amount}
            for p in data.POSTERS
        ],
        "events": [{"title": e.title, "effect": e.effect} for e in data.EVENTS],
    }


def tile_code(key: int, turns: int = 0) -> str:
    """Return a tile as text: ``M`` machine or ``L`` line, then its line ends (``MWE``, ``LNS``)."""
    tile = TILES_BY_KEY[key]
    lines = "".join(name for bit, name in data.EDGE_NAMES.items() if cell_mask((key, turns)) & bit)
    return ("M" if tile.machine else "L") + lines


def _moves(
    states: Sequence[FactoryRaceState], actions: Sequence[int]
) -> list[tuple[dict[str, Any], dict[int, list[str]] | None, dict[int, list[str]]]]:
    """Return per action: the move as the table saw it, the placements it revealed (or None), and the
    placements made in secret so far this round (per seat), after it."""
    out = []
    pending: dict[int, list[str]] = {}
    for ply, action in enumerate(actions, start=1):
        before, after = states[ply - 1], states[ply]
        mover = before.current_player()
        notation = before.action_to_string(action)
        move: dict[str, Any] = {"seat": mover if mover >= 0 else None, "notation": notation, "phase": before.phase}
        revealed = None
        if before.phase == PLACE and mover >= 0:
            if notation != "done":
                pending.setdefault(mover, []).append(notation)
            if after.phase == PLACE:
                # Secret until all have placed: the frame says only that the seat placed (or finished).
                move["notation"] = "done placing" if notation == "done" else "places a worker (hidden)"
                move["hidden"] = True
        if before.phase == PLACE and after.phase != PLACE:
            revealed, pending = pending, {}
        out.append((move, revealed, {seat: names[:] for seat, names in pending.items()}))
    return out


def frames(states: Sequence[FactoryRaceState], actions: Sequence[int]) -> list[dict[str, Any]]:
    """Return one frame per state; placements stay hidden until every seat has placed."""
    out = [_frame(states[0], 0)]
    for ply, (move, revealed, _secret) in enumerate(_moves(states, actions), start=1):
        frame = _frame(states[ply], ply)
        frame["move"] = move
        if revealed is not None:
            frame["revealed"] = {str(seat): names for seat, names in sorted(revealed.items())}
        out.append(frame)
    return out


def public_moves(states: Sequence[FactoryRaceState], actions: Sequence[int]) -> list[str | None]:
    """Return, per action, None for a public move, or its public words: a placement made in secret is
    "P1 places a worker (hidden)", and the move that ends the placements names every seat's."""
    out: list[str | None] = []
    for move, revealed, _secret in _moves(states, actions):
        who = "the referee" if move["seat"] is None else f"P{move['seat']}"
        if move.get("hidden"):
            out.append(f"{who} {move['notation']}")
        elif revealed is not None:
            last = "done placing" if move["notation"] == "done" else move["notation"]
            players = len(states[0].factories)
            shown = "; ".join(f"P{p} {', '.join(revealed.get(p, [])) or 'nothing'}" for p in range(players))
            out.append(f"{who} {last}; placements revealed together: {shown}")
        else:
            out.append(None)
    return out


def private(states: Sequence[FactoryRaceState], actions: Sequence[int], seat: int) -> list[dict[str, Any]]:
    """Return, per frame, what only ``seat`` knew: its own placements of the round while they are secret."""
    out: list[dict[str, Any]] = [{}]
    for _move, _revealed, secret in _moves(states, actions):
        out.append({"placing": secret[seat]} if seat in secret else {})
    return out


def _frame(state: FactoryRaceState, ply: int) -> dict[str, Any]:
    current = state.current_player()
    placing = state.phase == PLACE
    factories = []
    for factory in state.factories:
        placed = None if placing else factory.placements()
        factories.append(
            {
                "factory": data.FACTORY_NAMES[factory.factory],
                "grid": [
                    None
                    if entry is None
                    else tile_code(*entry)
                    + ("" if factory.cubes[cell] is None else ":" + data.COLOUR_LETTERS[factory.cubes[cell]])  # type: ignore[index]
                    for cell, entry in enumerate(factory.grid)
                ],
                "warehouses": list(factory.warehouses),
                "assembly": [
                    {
                        "workers": machine.workers,
                        "squares": "".join(data.COLOUR_LETTERS[c] for c in machine.squares),
                        "filled": "".join("." if c is None else data.COLOUR_LETTERS[c] for c in factory.assembly[k]),
                    }
                    for k, machine in enumerate(factory.card)
                ],
                "blueprints": factory.blueprints,
                # While the seats place in secret, the workers of the round before any is placed.
                "workers": factory.workers if placing else factory.workers - factory.placed(),
                "housing_left": factory.housing_left,
                "posters": [poster for poster, _got, _chosen in factory.posters],
                "placed": placed,
                "delivered": factory.delivered(),
                "needed": sum(len(machine.squares) for machine in factory.card),
            }
        )
    frame: dict[str, Any] = {
        "ply": ply,
        "round": state.round,
        "phase": state.phase,
        "step": state.step if state.phase == ACTIVATE else "",
        "first": state.first,
        "to_move": current if current >= 0 else None,
        "placed_seats": state.order_index if placing else None,
        "factories": factories,
        "open_tiles": [None if tile is None else tile_code(tile) for tile in state.open_tiles],
        "tile_icons": [
            None if tile is None or TILES_BY_KEY[tile].factory is None else TILES_BY_KEY[tile].factory
            for tile in state.open_tiles
        ],
        "tile_stack": len(state.tile_stack),
        "taken": None if state.taken is None else tile_code(state.taken),
        "winners": list(state.winners) if state.phase == OVER else [],
        "reason": state.reason if state.phase == OVER else None,
        "move": None,
    }
    if state.challenge:
        frame["open_posters"] = list(state.open_posters)
        frame["event"] = state.event
    return frame
