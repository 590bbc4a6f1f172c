"""The pages' view of a game's replays, seats and score steps, read from its declaration (engines/declaration.py).

The series page and the replay viewer know nothing about any one game: a
game's declaration brings its viewer (frames built here on the server by
replaying the recorded actions through the engine's checked path, and the
browser script that draws them), its seat names and how its score steps name
the players. A game without a viewer still gets its move list, seat tables
and a "no viewer for this game yet" note.

A game with hidden information declares two more hooks on its viewer: each
seat's private layer (what only that seat saw, per frame) and its moves in
public words (the recorded notation of a secret move names the secret).
Who gets which is decided in arena/web/access.py, never here.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

import engines
from engines.text import name_players


class ReplayError(ValueError):
    """The recorded actions do not replay through the engine; the message says where and why."""


def _declaration(game_name: str) -> engines.GameDeclaration | None:
    try:
        return engines.declaration(game_name)
    except engines.UnknownGameError:
        return None


def has_frames(game_name: str) -> bool:
    """Return whether ``game_name`` has a replay viewer."""
    declared = _declaration(game_name)
    return declared is not None and declared.viewer is not None


def script_for(game_name: str) -> str | None:
    """Return the static path of ``game_name``'s viewer script (settings.STATICFILES_DIRS serves it), or None."""
    return f"games/{game_name}/viewer.js" if has_frames(game_name) else None


def style_for(game_name: str) -> str | None:
    """Return the static path of ``game_name``'s viewer style sheet, or None when it has none."""
    declared = _declaration(game_name)
    if declared is None or declared.viewer is None or declared.viewer.style is None:
        return None
    return f"games/{game_name}/{declared.viewer.style.name}"


def frames_for(
    game_name: str, config: dict[str, Any], num_players: int, actions: Sequence[int]
) -> list[dict[str, Any]] | None:
    """Return the positions of one game, initial position first, or None when the game has no viewer yet.

    Raises :class:`ReplayError` when the actions are not a legal game under
    the engine (a corrupt or forged document).
    """
    declared = _declaration(game_name)
    if declared is None or declared.viewer is None:
        return None
    states = replay_state(game_name, config, num_players, actions)
    return declared.viewer.frames(states, actions)


@dataclass
class ReplayParts:
    """One game's replay as the viewer's script gets it, from a single replay of its actions."""

    frames: list[dict[str, Any]]
    #: Per action: None where the move is public, else its public words; None when no move is secret.
    public_moves: list[str | None] | None = None
    #: Game seat -> its private layer, one entry per frame (only the seats asked for).
    private: dict[int, list[dict[str, Any]]] = field(default_factory=dict)


def replay_parts(
    game_name: str,
    config: dict[str, Any],
    num_players: int,
    actions: Sequence[int],
    private_seats: Collection[int] = (),
) -> ReplayParts | None:
    """Return the frames, the public moves and the private layers of ``private_seats`` (game seats), or None
    when the game has no viewer yet. Raises :class:`ReplayError` as :func:`frames_for` does."""
    declared = _declaration(game_name)
    if declared is None or declared.viewer is None:
        return None
    viewer = declared.viewer
    states = replay_state(game_name, config, num_players, actions)
    parts = ReplayParts(frames=viewer.frames(states, actions))
    if viewer.public_moves is not None:
        parts.public_moves = viewer.public_moves(states, actions)
    if viewer.private is not None:
        for seat in sorted(set(private_seats)):
            if 0 <= seat < num_players:
                parts.private[seat] = viewer.private(states, actions, seat)
    return parts


def has_secret_moves(game_name: str) -> bool:
    """Return whether ``game_name``'s recorded notation names hidden things (its viewer declares public_moves)."""
    declared = _declaration(game_name)
    return declared is not None and declared.viewer is not None and declared.viewer.public_moves is not None


def public_moves_for(
    game_name: str, config: dict[str, Any], num_players: int, actions: Sequence[int]
) -> list[str | None] | None:
    """Return per action None (a public move) or its public words; None when the game has no secret moves.

    Raises :class:`ReplayError` when the actions do not replay.
    """
    declared = _declaration(game_name)
    if declared is None or declared.viewer is None or declared.viewer.public_moves is None:
        return None
    states = replay_state(game_name, config, num_players, actions)
    return declared.viewer.public_moves(states, actions)


def board_for(game_name: str, config: dict[str, Any]) -> dict[str, Any] | None:
    """Return the static drawing facts of ``game_name`` for its viewer script, or None without a viewer."""
    declared = _declaration(game_name)
    return None if declared is None or declared.viewer is None else declared.viewer.board(config)


def seat_label(game_name: str, seat: int) -> str:
    """Return the name of a game seat: the game's own label, else "Seat 1", "Seat 2" ..."""
    declared = _declaration(game_name)
    return declared.seat_label(seat) if declared is not None else f"Seat {seat + 1}"


def seat_labels(game_name: str) -> tuple[str, ...]:
    """Return the names the game gives its seats (none for a game this arena no longer registers)."""
    declared = _declaration(game_name)
    return declared.seat_labels if declared is not None else ()


def name_step(game_name: str, step: str, names: Sequence[str]) -> str:
    """Return a score step with "player <i>" replaced by the i-th name (the game's own hook when it has one)."""
    declared = _declaration(game_name)
    if declared is not None and declared.name_step is not None:
        return declared.name_step(step, names)
    return name_players(step, names)


def replay_state(
    game_name: str, config: dict[str, Any], num_players: int, actions: Sequence[int]
) -> list[engines.State]:
    """Return the states of one game, the initial one first and then one after each action.

    The chance outcomes are among the actions (the referee records them), so no seed or
    secret is needed, and none is kept in a result document. Every action goes through
    ``apply_checked``.
    """
    game = engines.get(game_name, config)
    state = game.new_initial_state(num_players=num_players)
    states = [state.clone()]
    for ply, action in enumerate(actions):
        try:
            state.apply_checked(action)
        except engines.ActionError as exc:
            raise ReplayError(f"ply {ply + 1}: {exc}") from None
        states.append(state.clone())
    return states
