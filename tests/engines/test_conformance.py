"""Every registered game keeps the engine contract under random play (engines/conformance.py).

Generic over ``engines.names()``: a new game gets these cases by registering.
The table plays a small fixed sample of seeds: :data:`SEEDS` with each game's
default configuration and player count (with the once-a-game checks), and
:data:`PLAYER_COUNT_SEEDS` with every player count it allows; then the
configurations a game's defaults leave unplayed, each with what it must show.
The fuzz command, ``tests/fuzz.py`` (run by CI after the suite with a time
budget), plays the same checked games on seed after seed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

import engines
from engines import State
from engines.conformance import check_game
from tests.toygame.broken import break_clones_after_a_centre_opening
from tests.toygame.tictactoe import TicTacToeGame, TicTacToeState

SEEDS = range(20)
PLAYER_COUNT_SEEDS = range(5)


@dataclass(frozen=True)
class Case:
    """One game in one configuration: the seeds it plays and what its final states must show besides the contract."""

    game: str
    seeds: range
    config: Mapping[str, Any] = field(default_factory=dict)
    players: int | None = None
    #: The player counts this configuration seats, when not the GameInfo's.
    seats: tuple[int, int] | None = None
    #: Only the random play, not the once-a-game checks (played by the game's default case).
    contract_only: bool = True
    expect: Callable[[Case, State], None] | None = None
    label: str = ""

    @property
    def id(self) -> str:
        players = f"-{self.players}p" if self.players is not None else ""
        return f"{self.game}{'-' + self.label if self.label else ''}{players}"


def keeps_its_config(case: Case, state: State) -> None:
    """The factory race's modes: the state plays the configuration it was given."""
    assert state.config == {**engines.get(case.game).config, **case.config}


def seats_a_gm_unless_builtin(case: Case, state: State) -> None:
    """Watching Us: a GM seat unless the built-in GM plays, and each seat's role, turns, result and moves."""
    outcome = state.outcome()
    assert outcome is not None
    roles = [stats["role"] for stats in outcome.stats]
    assert ("gm" in roles) == (case.config.get("gm", "seat") == "seat")
    assert all(set(stats) >= {"role", "turns", "won", "moves"} for stats in outcome.stats)


def default_cases() -> list[Case]:
    """Return each game with its defaults (and the once-a-game checks), then at every player count it allows."""
    cases = [Case(name, SEEDS, contract_only=False) for name in engines.names()]
    for name in engines.names():
        info = engines.get(name).info
        cases += [Case(name, PLAYER_COUNT_SEEDS, players=n) for n in range(info.min_players, info.max_players + 1)]
    return cases


FACTORY_RACE_MODES = [
    ("challenge", {"mode": "challenge"}),
    ("challenge-3-stars-die", {"mode": "challenge", "stars": 3, "start": "die"}),
    ("base-die", {"mode": "base", "start": "die", "max_rounds": 12}),
]
#: The built-in GM seats 2 to 5 players; the "raise difficulty" settings; more Adversaries and opening cards.
WATCHING_US_CONFIGS = [
    ("builtin-gm", {"gm": "builtin"}, [2, 3, 4, 5]),
    (
        "builtin-gm-harder",
        {"gm": "builtin", "adversaries": 2, "adversary_hp_bonus": 1, "double_or_nothing": True},
        [2, 5],
    ),
    ("more-adversaries", {"extra_adversaries": 2, "opening_cards": 2, "discard_unused": True}, [3, 6]),
]
OTHER_CONFIGS = [
    *(
        Case("factory_race", range(3), config, players=n, expect=keeps_its_config, label=label)
        for label, config in FACTORY_RACE_MODES
        for n in (2, 3, 4)
    ),
    *(
        Case("watching_us", range(4), config, players=n, seats=(2, 6), expect=seats_a_gm_unless_builtin, label=label)
        for label, config, counts in WATCHING_US_CONFIGS
        for n in counts
    ),
]
CASES = default_cases() + OTHER_CONFIGS


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_it_keeps_the_engine_contract(case: Case) -> None:
    game = engines.get(case.game, case.config)
    finals = check_game(game, case.seeds, case.players, case.seats, contract_only=case.contract_only)
    assert len(finals) == len(case.seeds)
    for state in finals:
        assert state.is_terminal()
        if case.expect is not None:
            case.expect(case, state)


def test_the_table_covers_every_game_at_every_player_count() -> None:
    defaults = {case.game for case in CASES if not case.contract_only and not case.config}
    assert defaults == set(engines.names())
    for name in engines.names():
        info = engines.get(name).info
        counts = {case.players for case in CASES if case.game == name and not case.config}
        assert set(range(info.min_players, info.max_players + 1)) <= counts


def test_it_names_the_game_the_seed_and_the_check_a_broken_clone_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    first_centre = break_clones_after_a_centre_opening(monkeypatch)
    check_game(TicTacToeGame(), range(first_centre), contract_only=True)
    with pytest.raises(AssertionError, match=f"^tictactoe seed {first_centre}: applying an action to a clone changed"):
        check_game(TicTacToeGame(), range(first_centre + 1), contract_only=True)


def test_the_once_a_game_checks_see_a_saved_state_taken_that_should_be_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    restore = TicTacToeGame.state_from_json

    def lenient(game: TicTacToeGame, data: Any) -> TicTacToeState:
        return restore(game, data) if isinstance(data, Mapping) else game.new_initial_state()

    monkeypatch.setattr(TicTacToeGame, "state_from_json", lenient)
    check_game(TicTacToeGame(), [0], contract_only=True)  # random play never restores anything but a mapping
    with pytest.raises(AssertionError, match="a saved state that is not a mapping was not refused"):
        check_game(TicTacToeGame(), [0])
