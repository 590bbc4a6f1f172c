"""A toy tic-tac-toe broken on purpose, for the tests that the conformance check and the fuzz command catch it."""

from __future__ import annotations

import random

import pytest

from tests.toygame.tictactoe import TicTacToeState


def break_clones_after_a_centre_opening(monkeypatch: pytest.MonkeyPatch) -> int:
    """Make a clone share its cells with its original in games that open in the centre; return the first such seed.

    The seed is the first whose random play (``random.Random(seed)``) opens in the centre.
    """
    clone = TicTacToeState.clone

    def broken_clone(state: TicTacToeState) -> TicTacToeState:
        copy = clone(state)
        if state.moves[:1] == [4]:
            copy.cells = state.cells
        return copy

    monkeypatch.setattr(TicTacToeState, "clone", broken_clone)
    return next(seed for seed in range(100) if random.Random(seed).choice(range(9)) == 4)
