"""Fixtures for the Watch race tests: games set up with a chosen deal and timer."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

import engines
from engines.watch_race import WatchRaceState
from engines.watch_race.game import CARD_NAMES

SetUp = Callable[..., WatchRaceState]


def set_up_game(
    num_players: int,
    deal: Sequence[str] | None = None,
    timer: int = 45,
    config: Mapping[str, Any] | None = None,
) -> WatchRaceState:
    """Return a game past its chance nodes: cards dealt in ``deal`` order (round the table, then the pile)."""
    # Any timer from 1 turn, so a test can make it ring early.
    config = {"timer_turns": [1, 200], **(config or {})}
    state = engines.get("watch_race").new_initial_state(num_players=num_players, config=config)
    for card in deal or CARD_NAMES:
        state.apply_notation(f"deal {card}")
    state.apply_notation(f"timer {timer}")
    return state


@pytest.fixture
def set_up() -> SetUp:
    return set_up_game
