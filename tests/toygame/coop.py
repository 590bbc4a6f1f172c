"""Break-in, a toy co-operative game registered by tests to show a team game with roles.

Two or three players (the team) against a game master. Each round the GM
raises the alarm level by 0, 1 or 2; then each player in turn works the
lock: ``safe`` adds 1 to the team's progress, ``risky`` adds 0 or 4 on a
coin the referee tosses (a chance node). After a round, progress at or above
the alarm level wins for the players, in that many turns (rounds); after
four rounds without it the GM wins. The alarm starts at four per player.

Config ``gm``: ``"seat"`` (the default) gives the GM the last seat (3 or 4
seats in all); ``"builtin"`` leaves it to the engine, which raises by 1
every round (2 or 3 seats, all players). It follows the team-game contract
of engines/teams.py: ``seat_roles``, winners (all player seats, or the GM
seat, or none when the built-in GM wins), returns ±1 and per-seat stats
``role``, ``turns``, ``won`` and ``moves``. Nothing outside this folder
names it: the tests register :data:`DECLARATION`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from bots.provided import ReferenceBots, packages_in
from engines.base import (
    CHANCE,
    TERMINAL,
    ConfigError,
    Game,
    GameInfo,
    IllegalActionError,
    MalformedActionError,
    Outcome,
    State,
)
from engines.declaration import DemoSeason, GameDeclaration, RatingConstants, TeamRules
from engines.result import GameRecord
from engines.teams import GM, PLAYER

NAME = "breakin"
ROUNDS = 4
#: Actions: the GM's raises, the players' two moves, and the coin of a risky move.
RAISE = (0, 1, 2)
SAFE, RISKY = 3, 4
MISS, HIT = 5, 6
HIT_PROGRESS = 4
ALARM_PER_PLAYER = 4
BUILTIN_RAISE = 1
NOTATION = {0: "raise 0", 1: "raise 1", 2: "raise 2", SAFE: "safe", RISKY: "risky", MISS: "miss", HIT: "hit"}
INFO = GameInfo(
    name=NAME,
    title="Break-in",
    rules_version="1",
    min_players=2,
    max_players=4,
    has_chance=True,
    has_hidden_information=False,
    max_game_length=ROUNDS * (1 + 3 * 2),
    num_distinct_actions=7,
    summary="A team of two or three works a lock while the game master raises the alarm.",
    reasons=(("opened", "the team opened the lock"), ("alarm", "the alarm went off first")),
)


def seat_roles(num_players: int, config: Mapping[str, Any]) -> tuple[str, ...]:
    """Return each seat's role: the GM last unless the engine plays it."""
    if config.get("gm", "seat") == "builtin":
        return (PLAYER,) * num_players
    return (PLAYER,) * (num_players - 1) + (GM,)


class BreakInState(State):
    def __init__(self, game: BreakInGame, num_players: int) -> None:
        self.game = game
        self.num_players = num_players
        self.roles = seat_roles(num_players, game.config)
        self.players = self.roles.count(PLAYER)
        self.gm_seat = self.roles.index(GM) if GM in self.roles else None
        self.alarm = ALARM_PER_PLAYER * self.players
        self.progress = 0
        self.round = 0  # rounds completed
        self.step = 0  # 0: the GM raises; 1..players: that player (step - 1) moves
        self.coin_for: int | None = None  # the player whose risky move waits for its coin
        self.moves = [0] * num_players
        self.actions: list[int] = []
        self.done = False
        if self.gm_seat is None:
            self._builtin_raise()

    def _builtin_raise(self) -> None:
        self.alarm += BUILTIN_RAISE
        self.step = 1

    def current_player(self) -> int:
        if self.done:
            return TERMINAL
        if self.coin_for is not None:
            return CHANCE
        if self.step == 0:
            assert self.gm_seat is not None
            return self.gm_seat
        return self.step - 1

    def legal_actions(self) -> list[int]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [MISS, HIT]
        return list(RAISE) if player == self.gm_seat else [SAFE, RISKY]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(MISS, 0.5), (HIT, 0.5)]

    def apply_action(self, action: int) -> None:
        player = self.current_player()
        self.actions.append(action)
        if player == CHANCE:
            self.progress += HIT_PROGRESS if action == HIT else 0
            self.coin_for = None
            self._next_player()
            return
        self.moves[player] += 1
        if action in RAISE:
            self.alarm += action
            self.step = 1
        elif action == SAFE:
            self.progress += 1
            self._next_player()
        else:
            self.coin_for = player

    def _next_player(self) -> None:
        if self.step < self.players:
            self.step += 1
            return
        self.round += 1
        if self.progress >= self.alarm or self.round == ROUNDS:
            self.done = True
            return
        self.step = 0
        if self.gm_seat is None:
            self._builtin_raise()

    def action_to_string(self, action: int) -> str:
        return NOTATION[action]

    def parse_action(self, text: object) -> int:
        found = [action for action, words in NOTATION.items() if words == text]
        if not found:
            raise MalformedActionError(f"a move is one of {sorted(NOTATION.values())}, not {text!r}")
        if found[0] not in self.legal_actions():
            raise IllegalActionError(f"{text} is not a move now")
        return found[0]

    def opened(self) -> bool:
        return self.progress >= self.alarm

    def returns(self) -> list[float]:
        if not self.done:
            return [0.0] * self.num_players
        sign = 1.0 if self.opened() else -1.0
        return [sign if role == PLAYER else -sign for role in self.roles]

    def outcome(self) -> Outcome | None:
        if not self.done:
            return None
        opened = self.opened()
        if opened:
            winners: tuple[int, ...] = tuple(range(self.players))
        else:
            winners = () if self.gm_seat is None else (self.gm_seat,)
        return Outcome(
            winners=winners,
            reason="opened" if opened else "alarm",
            returns=tuple(self.returns()),
            stats=tuple(
                {"role": role, "turns": self.round, "won": seat in winners, "moves": self.moves[seat]}
                for seat, role in enumerate(self.roles)
            ),
        )

    def observation(self, player: int) -> dict[str, Any]:
        return {
            "game": NAME,
            "player": player,
            "role": self.roles[player],
            "alarm": self.alarm,
            "progress": self.progress,
            "round": self.round,
        }

    def render(self) -> str:
        return f"round {self.round}: progress {self.progress}, alarm {self.alarm}"

    def clone(self) -> BreakInState:
        copy = BreakInState.__new__(BreakInState)
        copy.__dict__.update(self.__dict__)
        copy.moves = list(self.moves)
        copy.actions = list(self.actions)
        return copy

    def to_json(self) -> dict[str, Any]:
        return {
            "game": NAME,
            "rules_version": INFO.rules_version,
            "config": dict(self.game.config),
            "num_players": self.num_players,
            "history": list(self.actions),
            "seed": None,
        }

    @property
    def history(self) -> list[int]:
        return list(self.actions)

    def move_counts(self) -> list[int]:
        return list(self.moves)


class BreakInGame(Game):
    info = INFO
    default_config: ClassVar[Mapping[str, Any]] = {"gm": "seat"}

    def validate_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        merged = super().validate_config(config)
        if merged["gm"] not in ("seat", "builtin"):
            raise ConfigError(f"gm is 'seat' or 'builtin', not {merged['gm']!r}")
        return merged

    def new_initial_state(
        self, seed: int | None = None, config: Mapping[str, Any] | None = None, num_players: int | None = None
    ) -> BreakInState:
        game = BreakInGame(self.merged_config(config)) if config else self
        builtin = game.config["gm"] == "builtin"
        players = 2 if num_players is None else num_players
        low, high = (2, 3) if builtin else (3, 4)
        if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
            raise ConfigError(f"{NAME} with gm {game.config['gm']!r} seats {low} to {high}, not {players!r}")
        return BreakInState(game, players)

    def state_from_json(self, data: Mapping[str, Any]) -> BreakInState:
        state = self.replay_saved(data, "a break-in state")
        assert isinstance(state, BreakInState)
        return state

    def score_series(self, games: Sequence[GameRecord], num_players: int) -> dict[str, Any]:
        """Return a point for every game a series player's side won (a forfeit gives the game to the other side)."""
        points = [0.0] * num_players
        for game in games:
            for winner in game.winners:
                points[winner] += 1
        top = max(points)
        leaders = [p for p in range(num_players) if points[p] == top]
        return {
            "points": points,
            "game_wins": [int(p) for p in points],
            "winner": leaders[0] if len(leaders) == 1 else None,
            "steps": [f"player {p} won {points[p]:g} game(s)" for p in range(num_players)],
        }


PACKAGES = Path(__file__).resolve().parent / "coop_packages"
DECLARATION = GameDeclaration(
    game=BreakInGame,
    rating=RatingConstants(draw_probability=0.2),
    teams=TeamRules(seat_roles=seat_roles, builtin_mu=25.0, builtin_sigma=1.0),
    demo=DemoSeason(title="Toy team season", players=2, games=2),
)
REFERENCE_BOTS = ReferenceBots(
    game=BreakInGame.info.name,
    packages=packages_in(PACKAGES, ("random", "daring", "harsh", "timid")),
    validation_bot="random",
    demo_bots=("daring", "timid"),
    gm_bots=("harsh",),
)
