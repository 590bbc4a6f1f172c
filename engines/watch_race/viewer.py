"""The Watch race's replay frames and board facts; score steps are named by engines/win_points.py.

The frames read the engine's
states (``to_json()``, its move and swap logs), one per position, rebuilt by
``replays.replay_state`` from the recorded actions, chance actions (the deal,
the timer) included. A replay is public once the series is over, so a frame
holds everything the referee knew: every hand, the face-down pile, the timer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.watch_race.game import (
    CARD_NAMES,
    DEAL_BASE,
    KEEP,
    MAX_HAND,
    MAX_STEPS,
    NUM_TARGETS,
    OVER,
    PAWN_LETTERS,
    PAWN_NAMES,
    PILE_TARGET,
    SWAP_BASE,
    TIMER_BASE,
    WatchRaceGame,
    WatchRaceState,
    order_name,
)
from engines.win_points import name_step

#: The parts of ``WatchRaceState.to_json()`` a frame copies as they are.
STATE_KEYS = ("phase", "round", "timer", "turn", "positions", "tokens", "hands", "pile")


def board(config: Mapping[str, Any]) -> dict[str, Any]:
    """Return the static drawing facts: the ring's length, the yellow squares, the pawns and the cards."""
    full = WatchRaceGame(config).config
    return {
        "ring_length": full["ring_length"],
        "yellow_squares": sorted(full["yellow_squares"]),
        "timer_turns": list(full["timer_turns"]),
        "pawns": list(PAWN_LETTERS),
        "pawn_names": list(PAWN_NAMES),
        "cards": list(CARD_NAMES),
    }


def frames(states: Sequence[WatchRaceState], actions: Sequence[int]) -> list[dict[str, Any]]:
    """Return one frame per state: the position, every hand, the move just made, a swap, a round's end, the result."""
    out = [_position(states[0], 0)]
    for ply, action in enumerate(actions, start=1):
        before, after = states[ply - 1], states[ply]
        frame = _position(after, ply)
        frame["move"] = _move(before, after, action)
        frame["swap"] = _swap(before, after, action)
        if after.replays > before.replays or after.phase == OVER:
            # The round just ended: by the timer, or with nobody able to move. When the winning
            # card was face down the engine has already dealt a fresh round; say how the old one ended.
            frame["round_end"] = _round_end(before, after, frame["move"])
        out.append(frame)
    return out


def _position(state: WatchRaceState, ply: int) -> dict[str, Any]:
    snapshot = state.to_json()
    current = state.current_player()
    over = state.phase == OVER
    return {
        "ply": ply,
        **{key: snapshot[key] for key in STATE_KEYS},
        "order": order_name(state.order()),
        "to_move": current if current >= 0 else None,
        "replays": state.replays,
        "previous_rounds": [dict(r) for r in state.previous_rounds],
        "winner": state.winners[0] if over and state.winners else None,
        "reason": state.reason if over else None,
        "move": None,
        "swap": None,
        "round_end": None,
    }


def _move(before: WatchRaceState, after: WatchRaceState, action: int) -> dict[str, Any]:
    """Describe the action that led from ``before`` to ``after``: who made it (None: the referee) and what it was."""
    mover = before.current_player()
    move: dict[str, Any] = {
        "seat": mover if mover >= 0 else None,
        "notation": before.action_to_string(action),
    }
    if action >= TIMER_BASE:
        move.update(kind="timer", turns=action - TIMER_BASE + 1)
    elif action >= DEAL_BASE:
        move.update(kind="deal", card=CARD_NAMES[action - DEAL_BASE], number=len(before.dealt) + 1)
    elif action == KEEP:
        move.update(kind="keep")
    elif action > KEEP:
        move.update(kind="swap")
    else:
        pawn, steps = divmod(action, MAX_STEPS)
        steps += 1
        start = before.positions[pawn]
        # When the round ended on this move and was replayed, the pawns are back on the start square.
        end = after.positions[pawn] if after.replays == before.replays else (start + steps) % before.ring_length
        move.update(kind="move", pawn=PAWN_LETTERS[pawn], steps=steps, start=start, to=end)
    return move


def _swap(before: WatchRaceState, after: WatchRaceState, action: int) -> dict[str, Any] | None:
    """Describe the swap made by ``action``, if it is one: who with whom, which slots and cards, on which square."""
    if not SWAP_BASE <= action < DEAL_BASE:
        return None
    mover = before.current_player()
    if after.replays == before.replays:
        _turn, _player, own_slot, other, pile_index, their_slot, given, received = after.swap_log[-1]
    else:
        # The swap ended the round (the timer rang on that turn) and the engine has
        # already reset its swap log for the next round: read the action id instead.
        own_slot, target = divmod(action - SWAP_BASE, NUM_TARGETS)
        given = before.hands[mover][own_slot]
        if target >= PILE_TARGET:
            other, pile_index, their_slot = None, target - PILE_TARGET, 0
            received = before.pile[pile_index]
        else:
            other, their_slot = divmod(target, MAX_HAND)
            pile_index = None
            received = before.hands[other][their_slot]
    return {
        "seat": mover,
        "slot": own_slot,
        "with": other,
        "their_slot": None if other is None else their_slot,
        "pile": pile_index,
        "gave": CARD_NAMES[given],
        "received": CARD_NAMES[received],
        "square": before.move_log[-1][4],  # the yellow square the mover's pawn landed on
        "pawn": PAWN_LETTERS[before.move_log[-1][2]],
    }


def _round_end(before: WatchRaceState, after: WatchRaceState, move: dict[str, Any]) -> dict[str, Any]:
    positions = list(before.positions)
    if move["kind"] == "move":
        positions[PAWN_LETTERS.index(move["pawn"])] = move["to"]
    if len(after.previous_rounds) > len(before.previous_rounds):
        # The winning card was face down: the round is replayed (or, past the cap, the game is drawn).
        ended = after.previous_rounds[-1]
        return {
            "round": before.replays + 1,
            "order": ended["order"],
            "reason": ended["reason"],
            "positions": positions,
            "replayed": after.replays > before.replays,
        }
    return {
        "round": before.replays + 1,
        "order": order_name(after.order()),
        "reason": after.reason,
        "positions": positions,
        "replayed": False,
    }


__all__ = ["board", "frames", "name_step"]
