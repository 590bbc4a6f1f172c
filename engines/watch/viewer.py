"""The Watch replay viewer's server side: the board's facts and one frame per position (static/viewer.js draws them)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.base import State
from engines.watch.game import COLOUR_CODES, COLOUR_NAMES, DRESSING_PLIES, EMPTY, SQUARE_NAMES


def board(config: Mapping[str, Any]) -> dict[str, Any]:
    """Return the static drawing facts: the squares, the colours and their codes."""
    return {"squares": list(SQUARE_NAMES), "colours": list(COLOUR_NAMES), "codes": list(COLOUR_CODES)}


def frames(states: Sequence[State], actions: Sequence[int]) -> list[dict[str, Any]]:
    """Return one frame per Watch position: tiles (colour index or -1), removed squares, pawns, whose turn."""
    out = []
    for ply, state in enumerate(states):
        dressed = state.ply >= DRESSING_PLIES  # type: ignore[attr-defined]
        current = state.current_player()
        out.append(
            {
                "ply": ply,
                "tiles": list(state.tiles),  # type: ignore[attr-defined]
                # Once the board is dressed every square had a tile: an empty one was removed.
                "removed": [sq for sq, tile in enumerate(state.tiles) if dressed and tile == EMPTY],  # type: ignore[attr-defined]
                "pawns": [None if p == EMPTY else p for p in state.pawns],  # type: ignore[attr-defined]
                "phase": state.phase,  # type: ignore[attr-defined]
                "to_move": current if current >= 0 else None,
                "winner": None if state.winner == EMPTY else state.winner,  # type: ignore[attr-defined]
                "reason": state.reason,  # type: ignore[attr-defined]
            }
        )
    return out
