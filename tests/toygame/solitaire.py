"""High-or-low, a toy solo game registered by a test to show a game played on a score ladder.

One player, five rounds. Each round a card of 1 to 9 is dealt (a chance node
the referee draws), and the player takes it "high" (its value) or "low" (ten
minus its value); the score is the sum. Taking the larger of the two each time
is the best play. Nothing outside this folder names it:
``tests/arena/test_score_ladder.py`` registers :data:`DECLARATION`, whose
:class:`~engines.score_ladder.ScoreLadder` makes its seasons score ladders.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bots.provided import ReferenceBots, packages_in
from engines.base import (
    CHANCE,
    TERMINAL,
    Game,
    GameInfo,
    IllegalActionError,
    MalformedActionError,
    Outcome,
    State,
    StateFormatError,
)
from engines.declaration import DemoSeason, GameDeclaration, RatingConstants, ScoreLadder

NAME = "highlow"
ROUNDS = 5
HIGH, LOW = 0, 1
#: Chance action ``CARD + v`` deals the card of value v (1..9).
CARD = 1
#: A total at or above this wins the game (its outcome's winners); the score is what the ladder ranks.
TARGET = 30
INFO = GameInfo(
    name=NAME,
    title="High or low",
    rules_version="1",
    min_players=1,
    max_players=1,
    has_chance=True,
    has_hidden_information=False,
    max_game_length=2 * ROUNDS,
    num_distinct_actions=CARD + 10,
    summary="Five cards of 1 to 9, one at a time: take each high (its value) or low (ten minus it).",
    reasons=(("target", "reached the target"), ("short", "fell short of the target")),
)


class HighLowState(State):
    def __init__(self, game: HighLowGame) -> None:
        self.game = game
        self.actions: list[int] = []

    def _cards(self) -> list[int]:
        return [a - CARD for a in self.actions if a > LOW]

    def score(self) -> int:
        total = 0
        for index, action in enumerate(self.actions):
            if action in (HIGH, LOW):
                card = self.actions[index - 1] - CARD
                total += card if action == HIGH else 10 - card
        return total

    def current_player(self) -> int:
        if len(self.actions) == 2 * ROUNDS:
            return TERMINAL
        return CHANCE if len(self.actions) % 2 == 0 else 0

    def legal_actions(self) -> list[int]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        return [CARD + v for v in range(1, 10)] if player == CHANCE else [HIGH, LOW]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(CARD + v, 1 / 9) for v in range(1, 10)]

    def apply_action(self, action: int) -> None:
        self.actions.append(action)

    def action_to_string(self, action: int) -> str:
        if action > LOW:
            return f"card {action - CARD}"
        return "high" if action == HIGH else "low"

    def parse_action(self, text: object) -> int:
        if text not in ("high", "low"):
            raise MalformedActionError(f"a move is 'high' or 'low', not {text!r}")
        action = HIGH if text == "high" else LOW
        if action not in self.legal_actions():
            raise IllegalActionError(f"{text} is not a move now: a card is being dealt")
        return action

    def returns(self) -> list[float]:
        return [float(self.score())]

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        score = self.score()
        return Outcome(
            winners=(0,) if score >= TARGET else (),
            reason="target" if score >= TARGET else "short",
            returns=(float(score),),
            stats=({"moves": ROUNDS, "score": score},),
        )

    def observation(self, player: int) -> dict[str, Any]:
        cards = self._cards()
        dealt = len(self.actions) % 2 == 1
        return {
            "game": NAME,
            "player": player,
            "card": cards[-1] if dealt else None,
            "round": len(cards),
            "score": self.score(),
        }

    def render(self) -> str:
        return f"cards {self._cards()}, score {self.score()}"

    def clone(self) -> HighLowState:
        copy = HighLowState(self.game)
        copy.actions = list(self.actions)
        return copy

    def to_json(self) -> dict[str, Any]:
        return {"game": NAME, "rules_version": INFO.rules_version, "history": list(self.actions), "seed": None}

    @property
    def history(self) -> list[int]:
        return list(self.actions)


class HighLowGame(Game):
    info = INFO

    def new_initial_state(
        self, seed: int | None = None, config: Mapping[str, Any] | None = None, num_players: int | None = None
    ) -> HighLowState:
        self.check_num_players(num_players)
        return HighLowState(self)

    def state_from_json(self, data: Mapping[str, Any]) -> HighLowState:
        history, _seed = self.read_state_header(data, "a high-or-low state")
        state = self.new_initial_state()
        for action in history:
            try:
                state.apply_checked(action)
            except (IllegalActionError, MalformedActionError) as exc:
                raise StateFormatError(str(exc)) from None
        return state


PACKAGES = Path(__file__).resolve().parent / "solo_packages"
#: The toy's titles: a careful player averages about 36, a careless one about 14.
TITLES = ((20.0, "steady hand"), (30.0, "card sharp"), (40.0, "legend of the table"))
DECLARATION = GameDeclaration(
    game=HighLowGame,
    rating=RatingConstants(draw_probability=0.0),  # never used: a solo season rates nobody
    score_ladder=ScoreLadder(titles=TITLES, deals=20, forfeit_score=0.0),
    solo_demo=DemoSeason(title="Toy score ladder", players=1, games=20),
)
REFERENCE_BOTS = ReferenceBots(
    game=HighLowGame.info.name, packages=packages_in(PACKAGES, ("careful", "careless")), validation_bot="careful"
)
