"""The interface every game engine implements.

A game is described once by a frozen :class:`GameInfo` and implemented as a
:class:`Game` (the rules, configuration and state factory) and a :class:`State`
(one position). The shape follows OpenSpiel's pure-Python games and
python-chess: integer actions, ``legal_actions()`` / ``apply_action()``, a fast
path that trusts its input (for engines, solvers and the referee's own
replays) and checked paths (``apply_checked``, ``apply_notation``) for anything
that came from a bot, which raise a specific :class:`ActionError` and leave the
state unchanged.

Players are numbered ``0 .. num_players - 1``. ``current_player()`` returns a
player number, :data:`CHANCE` while the game waits for a chance outcome, or
:data:`TERMINAL` once it is over. Chance is explicit (``chance_outcomes()``,
as in OpenSpiel), so a referee can draw it from a seeded generator
(:func:`resolve_chance`) and a solver can enumerate it.

Engines import nothing outside the standard library and do no I/O.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from engines.checks import integer_in, is_integer
from engines.result import GameRecord

CHANCE = -1
TERMINAL = -4


class EngineError(ValueError):
    """Base of every error an engine raises for bad input."""


class ActionError(EngineError):
    """An action that cannot be applied; the state is unchanged."""


class MalformedActionError(ActionError):
    """The action is not an action of this game at all (wrong type, unparsable text)."""


class IllegalActionError(ActionError):
    """The action is well formed but not legal in this position."""


class ConfigError(EngineError):
    """A game configuration that the game does not accept."""


class StateFormatError(EngineError):
    """A serialised state that does not describe a valid position."""


def config_integer(config: Mapping[str, Any], key: str, low: int, high: int) -> int:
    """Return ``config[key]`` if it is an integer from ``low`` to ``high``; else raise :class:`ConfigError`."""
    value = config[key]
    if not integer_in(value, low, high):
        raise ConfigError(f"{key} must be an integer from {low} to {high}, not {value!r}")
    return value


@dataclass(frozen=True)
class GameInfo:
    """What a game is, declared once: the registry and the platform read it."""

    name: str
    title: str
    rules_version: str
    min_players: int
    max_players: int
    has_chance: bool
    has_hidden_information: bool
    #: Upper bound on the number of actions in one game (chance included).
    max_game_length: int
    #: Number of distinct action ids; every action is an int in ``range(num_distinct_actions)``.
    num_distinct_actions: int
    #: The rules in brief, a few sentences for a reader who has never played (the site's game page).
    summary: str = ""
    #: How a game can end, in words, per ``Outcome.reason`` code: (code, words) pairs.
    reasons: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winners`` lists the winning players (empty for a draw for everyone);
    ``reason`` is a short machine-readable word (``"capture"``, ``"colour"``,
    ``"no_moves"`` ...); ``returns`` holds one number per player; ``stats`` one
    JSON-ready dict per player.
    """

    winners: tuple[int, ...]
    reason: str
    returns: tuple[float, ...]
    stats: tuple[Mapping[str, Any], ...] = field(default_factory=tuple)

    @property
    def winner(self) -> int | None:
        """Return the single winner, or None when there is none or several."""
        return self.winners[0] if len(self.winners) == 1 else None

    def to_json(self) -> dict[str, Any]:
        """Return the outcome as a JSON-ready dict."""
        return {
            "winners": list(self.winners),
            "reason": self.reason,
            "returns": list(self.returns),
            "stats": [dict(s) for s in self.stats],
        }


class State(ABC):
    """One position of a game. Mutable: ``apply_action`` changes it in place.

    The plumbing every engine shares lives here. An engine's state keeps
    ``num_players``, its ``config`` and ``_history`` (every action applied,
    chance outcomes included: its ``apply_action`` appends to it); this class
    gives ``history`` and equality over those three (the engines are
    deterministic, so the actions played from one configuration are the
    position). A state is mutable, so it has no hash. Whose turn it is comes
    either from an engine's own ``current_player()`` or, by default, from its
    ``is_terminal()``, ``is_chance_node()`` and ``to_move``.
    """

    game: Game
    num_players: int
    config: Mapping[str, Any]
    #: The player to act when the game is neither over nor waiting for chance (read by ``current_player``).
    to_move: int
    #: The seed the position was started from (None: unseeded); saved states keep it.
    seed: int | None
    _history: list[int]

    def __init__(self, game: Game, config: Mapping[str, Any], num_players: int, seed: int | None) -> None:
        """Start the plumbing every position has: its game, configuration, seats, seed and an empty history."""
        self.game = game
        self.config = config
        self.num_players = num_players
        self.seed = seed
        self._history = []

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.current_player is State.current_player and (
            cls.is_terminal is State.is_terminal or cls.is_chance_node is State.is_chance_node
        ):
            raise TypeError(f"{cls.__name__} must define current_player(), or is_terminal() and is_chance_node()")
        if cls.legal_actions is State.legal_actions and cls._decisions is State._decisions:
            raise TypeError(f"{cls.__name__} must define legal_actions() or _decisions()")

    # -- whose turn ---------------------------------------------------------
    def current_player(self) -> int:
        """Return the player to act, :data:`CHANCE`, or :data:`TERMINAL`."""
        if self.is_terminal():
            return TERMINAL
        if self.is_chance_node():
            return CHANCE
        return self.to_move

    def is_terminal(self) -> bool:
        """Return True once the game is over."""
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        """Return True while the game waits for a chance outcome."""
        return self.current_player() == CHANCE

    # -- actions ------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        """Return the legal actions of the player to act (a new list; empty when terminal).

        By default: nothing once the game is over, the chance outcomes' actions
        at a chance node, and otherwise the game's :meth:`_decisions`.
        """
        if self.is_terminal():
            return []
        if self.is_chance_node():
            return [action for action, _ in self.chance_outcomes()]
        return self._decisions()

    def _decisions(self) -> list[int]:
        """Return what the player to act may choose (a new list): the default :meth:`legal_actions` asks it."""
        raise NotImplementedError(f"{type(self).__name__} defines neither legal_actions() nor _decisions()")

    @abstractmethod
    def apply_action(self, action: int) -> None:
        """Apply a trusted action (fast path: no validation)."""

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Return ``(action, probability)`` pairs at a chance node."""
        raise EngineError(f"{self.game.info.name} has no chance node here")

    def apply_checked(self, action: object) -> None:
        """Apply an action from an untrusted source.

        Raises :class:`MalformedActionError` for something that is not an action
        id and :class:`IllegalActionError` for an action that is not legal now;
        in both cases the state is unchanged and the message lists what was legal.
        """
        if self.is_terminal():
            raise IllegalActionError("the game is over: no action is legal")
        if not is_integer(action):
            raise MalformedActionError(
                f"an action must be an integer, not {type(action).__name__} {action!r}; "
                f"legal now: {self._describe_legal()}"
            )
        legal = self.legal_actions()
        if action not in legal:
            if 0 <= action < self.game.info.num_distinct_actions:
                what = f"{self.action_to_string(action)} (action {action})"
                why = self.why_illegal(action)
            else:
                what = f"action {action} (out of range 0..{self.game.info.num_distinct_actions - 1})"
                why = ""
            raise IllegalActionError(f"{what} is not legal now{why}; legal now: {self._describe_legal(legal)}")
        self.apply_action(action)

    def why_illegal(self, action: int) -> str:
        """Return the rule that makes an in-range ``action`` illegal now (starting ``": "``), or ``""``.

        The checked paths put it in their message; a game that says nothing more
        than "not legal now" keeps this default.
        """
        return ""

    def apply_notation(self, text: object) -> int:
        """Parse ``text`` in the game's notation, apply it checked, and return the action id."""
        action = self.parse_action(text)
        self.apply_checked(action)
        return action

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """Return the human-readable notation of ``action`` in this position."""

    @abstractmethod
    def parse_action(self, text: object) -> int:
        """Return the action id that ``text`` names in this position.

        Raises :class:`MalformedActionError` when ``text`` is not notation of this
        game, :class:`IllegalActionError` when it names an action that is not legal.
        """

    def _read_notation(self, text: object) -> str:
        """Return notation ``text`` stripped, for a game's ``parse_action``.

        Raises :class:`MalformedActionError` when it is not a string and
        :class:`IllegalActionError` once the game is over.
        """
        if not isinstance(text, str):
            raise MalformedActionError(f"notation must be a string, not {type(text).__name__} {text!r}")
        raw = text.strip()
        if self.is_terminal():
            raise IllegalActionError(f"{raw!r}: the game is over: no action is legal")
        return raw

    def _legal_or_raise(self, action: int, raw: str) -> int:
        """Return ``action``, read from notation ``raw``, if it is legal now; else raise :class:`IllegalActionError`."""
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(
                f"{raw!r} is not legal now{self.why_illegal(action)}; legal now: {self._describe_legal(legal)}"
            )
        return action

    def _describe_legal(self, legal: Sequence[int] | None = None, limit: int = 40) -> str:
        legal = self.legal_actions() if legal is None else legal
        if not legal:
            return "nothing"
        names = [self.action_to_string(a) for a in legal[:limit]]
        more = f" and {len(legal) - limit} more" if len(legal) > limit else ""
        return ", ".join(names) + more

    # -- results --------------------------------------------------------------
    def returns(self) -> list[float]:
        """Return each player's return (all zero until the game is over): by default, the outcome's."""
        outcome = self.outcome()
        return [0.0] * self.num_players if outcome is None else list(outcome.returns)

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """Return how the game ended, or None while it goes on."""

    # -- views ----------------------------------------------------------------
    @abstractmethod
    def observation(self, player: int) -> dict[str, Any]:
        """Return a JSON-ready dict with exactly what ``player`` may see."""

    @abstractmethod
    def render(self) -> str:
        """Return a text drawing of the position."""

    def __str__(self) -> str:
        return self.render()

    def _check_seat(self, player: object) -> int:
        """Return ``player`` if it is a seat of this game, else raise ValueError (an observation asked of no seat)."""
        if not integer_in(player, 0, self.num_players - 1):
            raise ValueError(f"this game has players 0 to {self.num_players - 1}, not {player!r}")
        return player

    def _view_header(self, viewer: int | None) -> dict[str, Any]:
        """Return what a view of the position starts with (JSON-ready).

        The game and its rules version, the viewer's seat (None: a viewer with
        no seat), the seats, the configuration and the player to act (None
        at a chance node or once the game is over).
        """
        info = self.game.info
        current = self.current_player()
        return {
            "game": info.name,
            "rules_version": info.rules_version,
            "player": viewer,
            "num_players": self.num_players,
            "config": {
                key: list(value) if isinstance(value, list | tuple) else value for key, value in self.config.items()
            },
            "to_move": current if current >= 0 else None,
        }

    def _saved_view(self, view: dict[str, Any]) -> dict[str, Any]:
        """Return ``view`` (what a viewer with no seat sees) as a saved state: no ``player``, seed and history added.

        For a game whose view from no seat shows the whole position: the
        history is the authority (``state_from_json`` replays it checked), the
        rest a readable snapshot.
        """
        view.pop("player")
        view.update({"seed": self.seed, "history": list(self._history)})
        return view

    # -- copies ---------------------------------------------------------------
    @abstractmethod
    def clone(self) -> State:
        """Return an independent copy."""

    def _shallow_copy(self) -> Self:
        """Return a copy that shares every attribute with this state but has its own history.

        An engine's ``clone`` starts from it and copies what its ``apply_action`` changes in place.
        """
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._history = self._history[:]
        return new

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """Return the whole state (hidden parts included) as a JSON-ready dict."""

    @property
    def history(self) -> list[int]:
        """Return every action applied so far, chance outcomes included (a copy)."""
        return list(self._history)

    def identity(self) -> tuple[Any, ...]:
        """Return what makes two states of one class equal: the seats, the configuration and the history."""
        return (self.num_players, self.config, self._history)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, State)
        return self.identity() == other.identity()

    __hash__ = None  # type: ignore[assignment]


class Game(ABC):
    """A game's rules: its description, configuration and initial states."""

    info: ClassVar[GameInfo]
    #: Default configuration; ``new_initial_state(config=...)`` overrides keys of it.
    default_config: ClassVar[Mapping[str, Any]] = {}
    #: The positions' class: the default ``new_initial_state`` calls it with (game, config, num_players, seed).
    state_class: ClassVar[type[State]]
    #: How messages name a saved state of this game ("a Watch race state"), for the default ``state_from_json``.
    state_name: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.new_initial_state is Game.new_initial_state and not hasattr(cls, "state_class"):
            raise TypeError(f"{cls.__name__} must define new_initial_state() or state_class")
        if cls.state_from_json is Game.state_from_json and not hasattr(cls, "state_name"):
            raise TypeError(f"{cls.__name__} must define state_from_json() or state_name")

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        self.config = self.validate_config(config or {})

    def validate_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """Return the full configuration, or raise :class:`ConfigError`."""
        if not isinstance(config, Mapping):
            raise ConfigError(f"config must be a mapping, not {type(config).__name__}")
        unknown = sorted(set(config) - set(self.default_config))
        if unknown:
            known = ", ".join(sorted(self.default_config)) or "none"
            raise ConfigError(f"unknown config key(s) {', '.join(map(str, unknown))}; known: {known}")
        return {**self.default_config, **config}

    def new_initial_state(
        self, seed: int | None = None, config: Mapping[str, Any] | None = None, num_players: int | None = None
    ) -> State:
        """Return the starting position; the same seed and config give the same game."""
        return self.state_class(self, self.merged_config(config), self.check_num_players(num_players), seed)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """Return the state that :meth:`State.to_json` described, or raise :class:`StateFormatError`."""
        return self.replay_saved(data, self.state_name)

    def read_state_header(self, data: object, what: str) -> tuple[list[Any], int | None]:
        """Check the envelope of a saved state (game, rules version, history, seed); return (history, seed).

        ``what`` names the state in messages ("a Watch state"). Raises :class:`StateFormatError`.
        """
        info = self.info
        if not isinstance(data, Mapping):
            raise StateFormatError(f"{what} is a JSON object, not {type(data).__name__}")
        if data.get("game", info.name) != info.name:
            raise StateFormatError(f"this is a state of {data.get('game')!r}, not of {info.name}")
        if str(data.get("rules_version", info.rules_version)) != info.rules_version:
            raise StateFormatError(
                f"rules version {data.get('rules_version')!r} is not this engine's {info.rules_version!r}"
            )
        history = data.get("history")
        if not isinstance(history, list):
            raise StateFormatError(f"{what} needs 'history', the list of actions played")
        seed = data.get("seed")
        if seed is not None and not is_integer(seed):
            raise StateFormatError(f"seed must be an integer or null, not {seed!r}")
        return history, seed

    def merged_config(self, config: Mapping[str, Any] | None) -> dict[str, Any]:
        """Return this game's configuration with ``config``'s keys over it, or raise :class:`ConfigError`."""
        if config is None:
            return dict(self.config)
        if not isinstance(config, Mapping):
            raise ConfigError(f"config must be a mapping, not {type(config).__name__}")
        return self.validate_config({**self.config, **config})

    def replay_saved(self, data: object, what: str, with_config: bool = True) -> State:
        """Return the state a saved state describes: its envelope checked, its history replayed checked.

        ``what`` names the state in messages; with ``with_config``, the saved
        ``config`` and ``num_players`` are used. Raises :class:`StateFormatError`
        naming the first thing wrong (the envelope, the config, or the index of
        the first action that does not apply).
        """
        history, seed = self.read_state_header(data, what)
        assert isinstance(data, Mapping)  # read_state_header refused anything else
        try:
            if with_config:
                state = self.new_initial_state(
                    seed=seed, config=data.get("config", {}), num_players=data.get("num_players")
                )
            else:
                state = self.new_initial_state(seed=seed)
        except ConfigError as exc:
            raise StateFormatError(str(exc)) from exc
        for index, action in enumerate(history):
            try:
                state.apply_checked(action)
            except (IllegalActionError, MalformedActionError) as exc:
                raise StateFormatError(f"history[{index}]: {exc}") from exc
        return state

    def score_series(self, games: Sequence[GameRecord], num_players: int) -> dict[str, Any]:
        """Return the score of a series from the referee's game records (workers/referee.py).

        A record has ``index``, ``seats`` (seat -> series player), ``winners`` (series
        players), ``reason``, ``forfeit`` (None or ``{"player": ...}``) and ``stats``
        (``{"<series player>": {...}}``). The score is JSON-ready and holds at least
        ``points`` and ``game_wins`` (one per series player; more points rank higher,
        equal points share a rank), ``winner`` (a series player, or None when the top is
        shared) and ``steps`` (lines that explain the score to a person).
        """
        raise NotImplementedError(f"{self.info.name} has no series scoring")

    def check_num_players(self, num_players: int | None) -> int:
        """Return the player count to use, or raise :class:`ConfigError`."""
        info = self.info
        if num_players is None:
            return info.min_players
        if not is_integer(num_players):
            raise ConfigError(f"num_players must be an integer, not {num_players!r}")
        if not info.min_players <= num_players <= info.max_players:
            raise ConfigError(f"{info.name} is for {info.min_players} to {info.max_players} players, not {num_players}")
        return num_players

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.info.name} rules {self.info.rules_version}>"


def resolve_chance(state: State, rng: random.Random) -> int:
    """Draw one chance outcome with ``rng``, apply it, and return the action."""
    outcomes = state.chance_outcomes()
    action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    state.apply_action(action)
    return action
