"""Tic-tac-toe, registered by a test to show that adding a game is one package and its declaration.

Nothing outside this folder names it: ``tests/test_adding_a_game.py`` registers
:data:`DECLARATION` and drives the game through ``arena play``, the
validation series and a season, all of which read only the declaration.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engines.base import (
    TERMINAL,
    Game,
    GameInfo,
    IllegalActionError,
    MalformedActionError,
    Outcome,
    State,
    StateFormatError,
)
from engines.declaration import DemoSeason, GameDeclaration, RatingConstants
from engines.result import GameRecord

NAME = "tictactoe"
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
INFO = GameInfo(
    name=NAME,
    title="Tic-tac-toe",
    rules_version="1",
    min_players=2,
    max_players=2,
    has_chance=False,
    has_hidden_information=False,
    max_game_length=9,
    num_distinct_actions=9,
    summary="Three in a row on a 3x3 grid; X moves first.",
    reasons=(("line", "made three in a row"), ("full", "filled the grid")),
)


class TicTacToeState(State):
    def __init__(self, game: TicTacToeGame, cells: list[int] | None = None, moves: list[int] | None = None) -> None:
        self.game = game
        self.cells = cells or [-1] * 9
        self.moves = moves or []

    def _winner(self) -> int | None:
        for a, b, c in LINES:
            if self.cells[a] >= 0 and self.cells[a] == self.cells[b] == self.cells[c]:
                return self.cells[a]
        return None

    def current_player(self) -> int:
        if self._winner() is not None or len(self.moves) == 9:
            return TERMINAL
        return len(self.moves) % 2

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [cell for cell in range(9) if self.cells[cell] < 0]

    def apply_action(self, action: int) -> None:
        self.cells[action] = self.current_player()
        self.moves.append(action)

    def action_to_string(self, action: int) -> str:
        return f"{'abc'[action % 3]}{action // 3 + 1}"

    def parse_action(self, text: object) -> int:
        if not isinstance(text, str) or len(text) != 2 or text[0] not in "abc" or text[1] not in "123":
            raise MalformedActionError(f"a tic-tac-toe move is a cell a1..c3, not {text!r}")
        action = "abc".index(text[0]) + 3 * (int(text[1]) - 1)
        if action not in self.legal_actions():
            raise IllegalActionError(f"{text} is not free")
        return action

    def returns(self) -> list[float]:
        winner = self._winner()
        return [0.0, 0.0] if winner is None else [1.0 if p == winner else -1.0 for p in (0, 1)]

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        winner = self._winner()
        stats = tuple({"moves": sum(1 for i, _ in enumerate(self.moves) if i % 2 == p)} for p in (0, 1))
        if winner is None:
            return Outcome(winners=(), reason="full", returns=(0.0, 0.0), stats=stats)
        return Outcome(winners=(winner,), reason="line", returns=tuple(self.returns()), stats=stats)

    def observation(self, player: int) -> dict[str, Any]:
        return {"game": NAME, "player": player, "cells": list(self.cells), "to_move": self.current_player()}

    def render(self) -> str:
        marks = {-1: ".", 0: "X", 1: "O"}
        return "\n".join("".join(marks[self.cells[r * 3 + c]] for c in range(3)) for r in range(3))

    def clone(self) -> TicTacToeState:
        return TicTacToeState(self.game, list(self.cells), list(self.moves))

    def to_json(self) -> dict[str, Any]:
        return {"game": NAME, "rules_version": INFO.rules_version, "history": list(self.moves), "seed": None}

    @property
    def history(self) -> list[int]:
        return list(self.moves)


class TicTacToeGame(Game):
    info = INFO

    def new_initial_state(
        self, seed: int | None = None, config: Mapping[str, Any] | None = None, num_players: int | None = None
    ) -> TicTacToeState:
        self.check_num_players(num_players)
        return TicTacToeState(self)

    def state_from_json(self, data: Mapping[str, Any]) -> TicTacToeState:
        history, _seed = self.read_state_header(data, "a tic-tac-toe state")
        state = self.new_initial_state()
        for action in history:
            try:
                state.apply_checked(action)
            except (IllegalActionError, MalformedActionError) as exc:
                raise StateFormatError(str(exc)) from None
        return state

    def score_series(self, games: Sequence[GameRecord], num_players: int) -> dict[str, Any]:
        points = [0.0, 0.0]
        for game in games:
            if game.forfeit is not None:
                points[1 - game.forfeit.player] += 1
            for winner in game.winners:
                points[winner] += 1
        top = max(points)
        leaders = [p for p in (0, 1) if points[p] == top]
        return {
            "points": points,
            "game_wins": [int(p) for p in points],
            "winner": leaders[0] if len(leaders) == 1 else None,
            "steps": [f"player {p} won {points[p]:g} game(s)" for p in (0, 1)],
        }


PACKAGES = Path(__file__).resolve().parent / "packages"
DECLARATION = GameDeclaration(
    game=TicTacToeGame,
    rating=RatingConstants(draw_probability=0.3),
    reference_bots={"first": PACKAGES / "first", "last": PACKAGES / "last"},
    validation_bot="first",
    seat_labels=("X", "O"),
    demo=DemoSeason(title="Toy season", players=2, games=2),
)
