"""The ``greedy`` reference bot for Watch: one ply of look-ahead, played for the game win.

It rebuilds the position from the observation's history with the engine
(``state_from_json``) and looks one move ahead:

* **moves**: take a move that wins the game at once; otherwise avoid every
  move after which the opponent has a reply that wins at once; otherwise (all
  moves lose at once) any move. Ties are broken at random.
* **white pawn**: the square whose tiles around it show the most colours other
  than its own, so that the black pawn has the fewest squares where White
  cannot win with the first move.
* **black pawn**: a square whose colour White cannot reach with the first move
  (White's first move goes to a tile next to it, the board still being full);
  at random among those.
* **tiles**: at random.

Greedy plays to win games, not to the series objective (short games as White,
long ones as Black); it is the "sensible club player" baseline the solver is
measured against.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import engines
from engines.watch.game import NEIGHBOURS, NUM_SQUARES, PAWN_BASE, WatchState, destinations


class GreedyPolicy:
    """Wins at once when it can, never gives the opponent a win at once when it can help it."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        """Return one of ``legal_actions``: see the module docstring for the rules it follows."""
        legal = list(legal_actions)
        phase = observation.get("phase")
        if phase == "dress":
            return self._rng.choice(legal)
        state = engines.get("watch").state_from_json({"history": list(observation["history"])})
        if phase == "white_pawn":
            return self._rng.choice(best_white_placements(state, legal))
        if phase == "black_pawn":
            return self._rng.choice(safe_black_placements(state, legal) or legal)
        winning, safe = classify_moves(state, legal)
        return self._rng.choice(winning or safe or legal)


def best_white_placements(state: WatchState, legal: Sequence[int]) -> list[int]:
    """Return the white-pawn placements whose neighbours show the most colours other than the pawn's own."""

    def threatened_colours(action: int) -> int:
        square = action - PAWN_BASE
        own = state.tiles[square]
        return len({state.tiles[n] for n in NEIGHBOURS[square]} - {own})

    scores = {action: threatened_colours(action) for action in legal}
    best = max(scores.values())
    return [action for action in legal if scores[action] == best]


def safe_black_placements(state: WatchState, legal: Sequence[int]) -> list[int]:
    """Return the black-pawn placements on a colour that White cannot reach with its first move."""
    white = state.pawns[0]
    reachable = {state.tiles[sq] for sq in destinations(state.tiles, white)}
    return [action for action in legal if state.tiles[action - PAWN_BASE - NUM_SQUARES] not in reachable]


def classify_moves(state: WatchState, legal: Sequence[int]) -> tuple[list[int], list[int]]:
    """Return ``(winning, safe)``: moves that win at once, and moves after which no reply wins at once."""
    winning: list[int] = []
    safe: list[int] = []
    for action in legal:
        child = state.clone()
        child.apply_action(action)
        if child.is_terminal():  # in Watch only the mover can end the game, and it wins
            winning.append(action)
        elif not any(_ends_game(child, reply) for reply in child.legal_actions()):
            safe.append(action)
    return winning, safe


def _ends_game(state: WatchState, action: int) -> bool:
    child = state.clone()
    child.apply_action(action)
    return child.is_terminal()
