"""Play a Watch series between in-process policies: the local, trusted driver (bot tests and bot tables).

This is what the Watch bots' tests and the bot tables use: both policies run in this
process and nothing is sandboxed, so it is only for the reference bots and a
bot author's own code. Bot output is still checked through the engine's
checked path, and a bad action or an exception is a forfeit with its reason,
exactly as the sandboxed referee treats them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import engines
from bots.policy import Policy
from engines.watch import GameRecord, score_series

#: Forfeit reasons; the sandboxed referee adds timeouts, crashes and output limits.
ILLEGAL_ACTION = "illegal_action"
BOT_ERROR = "bot_error"


@dataclass
class PlayedGame:
    """One finished game: what happened, in the series players' terms."""

    index: int
    white: int  # series player with the white pawn
    actions: list[str] = field(default_factory=list)
    winner: int | None = None
    reason: str = ""
    moves: list[int] = field(default_factory=lambda: [0, 0])  # pawn moves by series player 0 and 1
    think_ms: list[float] = field(default_factory=lambda: [0.0, 0.0])
    forfeit: dict[str, Any] | None = None

    def record(self) -> GameRecord:
        """Return the game as the scoring scheme sees it."""
        return GameRecord(
            white=self.white,
            white_moves=self.moves[self.white],
            black_moves=self.moves[1 - self.white],
            winner=self.winner,
            reason=self.reason,
            forfeited_by=None if self.forfeit is None else self.forfeit["player"],
        )

    def to_json(self) -> dict[str, Any]:
        """Return the game as a JSON-ready dict."""
        return {
            "index": self.index,
            "white": self.white,
            "actions": self.actions,
            "winner": self.winner,
            "reason": self.reason,
            "moves": self.moves,
            "think_ms": [round(ms, 3) for ms in self.think_ms],
            "forfeit": self.forfeit,
        }


def play_game(policies: Sequence[Policy], white: int, index: int = 0, seed: int | None = None) -> PlayedGame:
    """Play one Watch game; series player ``white`` takes seat 0 (player A, the white pawn)."""
    state = engines.get("watch").new_initial_state(seed=seed)
    seats = (white, 1 - white)  # seat -> series player
    played = PlayedGame(index=index, white=white)
    while not state.is_terminal():
        seat = state.current_player()
        player = seats[seat]
        legal = state.legal_actions()
        started = time.perf_counter()
        try:
            action = policies[player].choose(state.observation(seat), legal)
        except Exception as exc:  # a bot's own failure is a result, not an error
            played.forfeit = {"player": player, "reason": BOT_ERROR, "detail": f"{type(exc).__name__}: {exc}"}
        played.think_ms[player] += (time.perf_counter() - started) * 1000
        if played.forfeit is None:
            notation = state.action_to_string(action) if isinstance(action, int) else repr(action)
            try:
                state.apply_checked(action)
            except engines.ActionError as exc:
                played.forfeit = {"player": player, "reason": ILLEGAL_ACTION, "detail": str(exc)}
            else:
                played.actions.append(notation)
        if played.forfeit is not None:
            played.winner = 1 - player
            played.reason = played.forfeit["reason"]
            break
    else:
        outcome = state.outcome()
        assert outcome is not None
        played.winner = seats[outcome.winners[0]]
        played.reason = outcome.reason
    white_moves, black_moves = state.move_counts()
    played.moves[white] = white_moves
    played.moves[1 - white] = black_moves
    return played


def play_series(policies: Sequence[Policy], games: int = 2, seed: int = 0) -> dict[str, Any]:
    """Play a series of ``games`` games (even), alternating White; return the result document.

    A forfeit ends the series at once: the forfeiter scores 0 and the opponent 2.
    """
    if games <= 0 or games % 2:
        raise ValueError(f"a Watch series is an even number of games, not {games}")
    played: list[PlayedGame] = []
    for index in range(games):
        game = play_game(policies, white=index % 2, index=index, seed=seed * 1000 + index)
        played.append(game)
        if game.forfeit is not None:
            break
    score = score_series([g.record() for g in played])
    info = engines.get("watch").info
    return {
        "game": info.name,
        "rules_version": info.rules_version,
        "seed": seed,
        "players": [p.name for p in policies],
        "games": [g.to_json() for g in played],
        "score": score.to_json(),
    }
