"""Per-game hooks of the pages: replay frames, seat labels and score explanations.

The series page and the replay viewer know nothing about any one game: they
ask this registry. A game registers a :class:`GameViewer`; a game without one
still gets its move list, seat tables and a "no viewer for this game yet"
note. The frames are built on the server by replaying the recorded actions
through the engine's checked path, so a replay shows exactly what the rules
say happened, and the browser's ``replay.js`` only draws them (one renderer
per game, keyed by the same name).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import engines

FramesBuilder = Callable[[dict[str, Any], int | None, int, Sequence[int]], list[dict[str, Any]]]


class ReplayError(ValueError):
    """The recorded actions do not replay through the engine; the message says where and why."""


@dataclass(frozen=True)
class GameViewer:
    """How the pages show one game: frames for replay.js, names of seats, and score steps."""

    #: ``frames(config, seed, num_players, actions)`` -> one frame per position, the initial one first.
    frames: FramesBuilder | None = None
    #: Static facts replay.js needs to draw any frame (board geometry, colour names).
    board: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    #: Names of the game's seats ("White", "Black"); default "Seat 1", "Seat 2" ...
    seat_labels: tuple[str, ...] = field(default_factory=tuple)
    #: Replaces "player 0" ... in a score step with the players' names.
    name_step: Callable[[str, Sequence[str]], str] | None = None


_VIEWERS: dict[str, GameViewer] = {}


def register(game_name: str, viewer: GameViewer) -> None:
    """Register how the pages show ``game_name``; a game is registered once."""
    if game_name in _VIEWERS:
        raise ValueError(f"a viewer for {game_name!r} is already registered")
    _VIEWERS[game_name] = viewer


def viewer_for(game_name: str) -> GameViewer:
    """Return the registered viewer of ``game_name``, or an empty one (move list and seat tables only)."""
    return _VIEWERS.get(game_name, GameViewer())


def has_frames(game_name: str) -> bool:
    """Return whether ``game_name`` has a replay viewer (frames and a board)."""
    return viewer_for(game_name).frames is not None


def frames_for(
    game_name: str, config: dict[str, Any], seed: int | None, num_players: int, actions: Sequence[int]
) -> list[dict[str, Any]] | None:
    """Return the positions of one game, initial position first, or None when the game has no viewer yet.

    Raises :class:`ReplayError` when the actions are not a legal game under
    the engine (a corrupt or forged document).
    """
    viewer = viewer_for(game_name)
    if viewer.frames is None:
        return None
    return viewer.frames(config, seed, num_players, actions)


def board_for(game_name: str, config: dict[str, Any]) -> dict[str, Any] | None:
    """Return the static drawing facts of ``game_name`` for replay.js, or None without a viewer."""
    viewer = viewer_for(game_name)
    return None if viewer.board is None else viewer.board(config)


def seat_label(game_name: str, seat: int) -> str:
    """Return the name of a game seat: "White"/"Black" for Watch, "Seat 1", "Seat 2" ... otherwise."""
    labels = viewer_for(game_name).seat_labels
    return labels[seat] if seat < len(labels) else f"Seat {seat + 1}"


_PLAYER = re.compile(r"\bplayer (\d+)\b")


def name_step(game_name: str, step: str, names: Sequence[str]) -> str:
    """Return a score step with "player <i>" replaced by the i-th name (the game's own hook when it has one)."""
    hook = viewer_for(game_name).name_step
    if hook is not None:
        return hook(step, names)

    def replace(match: re.Match[str]) -> str:
        index = int(match.group(1))
        return names[index] if index < len(names) else match.group(0)

    return _PLAYER.sub(replace, step)


def replay_state(
    game_name: str, config: dict[str, Any], seed: int | None, num_players: int, actions: Sequence[int]
) -> list[engines.State]:
    """Return the states of one game, the initial one first and then one after each action.

    The referee seeds game ``index`` with ``series_seed * 1000 + index``; the
    caller passes that seed. Every action goes through ``apply_checked``.
    """
    game = engines.get(game_name, config)
    state = game.new_initial_state(seed=seed, num_players=num_players)
    states = [state.clone()]
    for ply, action in enumerate(actions):
        try:
            state.apply_checked(action)
        except engines.ActionError as exc:
            raise ReplayError(f"ply {ply + 1}: {exc}") from None
        states.append(state.clone())
    return states


# -- Watch ----------------------------------------------------------------------------------


def _watch_board(config: dict[str, Any]) -> dict[str, Any]:
    from engines.watch.game import COLOUR_CODES, COLOUR_NAMES, SQUARE_NAMES

    return {"squares": list(SQUARE_NAMES), "colours": list(COLOUR_NAMES), "codes": list(COLOUR_CODES)}


def _watch_frames(
    config: dict[str, Any], seed: int | None, num_players: int, actions: Sequence[int]
) -> list[dict[str, Any]]:
    """Return one frame per Watch position: tiles (colour index or -1), removed squares, pawns, whose turn."""
    from engines.watch.game import DRESSING_PLIES, EMPTY

    states = replay_state("watch", config, seed, num_players, actions)
    frames = []
    for ply, state in enumerate(states):
        dressed = state.ply >= DRESSING_PLIES
        current = state.current_player()
        frames.append(
            {
                "ply": ply,
                "tiles": list(state.tiles),
                # Once the board is dressed every square had a tile: an empty one was removed.
                "removed": [sq for sq, tile in enumerate(state.tiles) if dressed and tile == EMPTY],
                "pawns": [None if p == EMPTY else p for p in state.pawns],
                "phase": state.phase,
                "to_move": current if current >= 0 else None,
                "winner": None if state.winner == EMPTY else state.winner,
                "reason": state.reason,
            }
        )
    return frames


def _watch_name_step(step: str, names: Sequence[str]) -> str:
    from engines.watch import name_players

    return name_players(step, names)


register(
    "watch",
    GameViewer(frames=_watch_frames, board=_watch_board, seat_labels=("White", "Black"), name_step=_watch_name_step),
)


# -- the Watch race (arena/web/replays_race.py) --------------------------------------------


def _race_frames(
    config: dict[str, Any], seed: int | None, num_players: int, actions: Sequence[int]
) -> list[dict[str, Any]]:
    """Return one frame per race position; the deal and the timer are recorded chance actions, replayed in turn."""
    from arena.web import replays_race

    states = replay_state("watch_race", config, seed, num_players, actions)
    return replays_race.frames(states, actions)  # type: ignore[arg-type]


def _race_board(config: dict[str, Any]) -> dict[str, Any]:
    from arena.web import replays_race

    return replays_race.board(config)


def _race_name_step(step: str, names: Sequence[str]) -> str:
    from arena.web import replays_race

    return replays_race.name_step(step, names)


# Seats are named as the engine's notation names them ("swap 0 with P2.1", "P0 won"), so the
# labels match the move list word for word; P0 starts every game. Six seats at most.
register(
    "watch_race",
    GameViewer(
        frames=_race_frames,
        board=_race_board,
        seat_labels=tuple(f"P{seat}" for seat in range(6)),
        name_step=_race_name_step,
    ),
)
