"""The series result: one typed, versioned contract from the referee to every page, API and text.

The referee (workers/referee.py) builds a :class:`SeriesResult`; the worker sends
it on as JSON (:meth:`SeriesResult.to_json`), the platform stores that document,
and every reader turns it back into the type once, at its edge
(:meth:`SeriesResult.from_json`), and reads attributes from there on.

The document, protocol 2 (docs/architecture.md, "The series result")::

    {"protocol", "game", "rules_version", "config", "games_planned", "time_control",
     "limits", "sandbox", "players": [{"name", "sha256"}], "games": [GameRecord],
     "score", "stderr": [{"player", "text", "truncated_bytes"}], "wall_seconds",
     "referee_stall_ms", "started_at" (set by the match worker)}

A game record: ``{"index", "seats", "actions": [{"seat", "action", "notation",
"ms", "bank_ms"}], "forfeit": None | {"player", "seat", "reason", "detail"},
"winners", "reason", "stats": {"<series player>": {...}}, "returns",
"bank_ms_left"}``. A chance action has ``seat`` None and no clock fields.

Every shape stored before loads, with what it lacks filled in: protocol 1
documents carry ``seed`` (read and dropped: it would let a reader recompute the
series' chance, so it never comes out again), and no ``referee_stall_ms``;
games before score ladders have no ``returns``; actions before the replay
viewer's clocks have no ``bank_ms``. A replay file's wrapper keys (``format``,
``version``) are dropped too.

Pure: no I/O, no third-party imports.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

#: The protocol (and document) version the referee writes.
PROTOCOL_VERSION = 2
#: Every protocol version a stored document may have.
KNOWN_PROTOCOLS = (1, 2)
#: Keys a stored document may hold that no reader gets back: protocol 1's series ``seed``, and a
#: replay file's wrapper (workers/referee.py ``write_replay``).
DROPPED_KEYS = frozenset({"seed", "format", "version"})
#: How the engines end an illegal move's message with the moves that were legal (engines/base.py).
LEGAL_NOW = "; legal now: "


def hide_legal_moves(detail: str) -> str:
    """Return a forfeit's detail with the list of legal moves it ends with (engines/base.py) shown as hidden."""
    if LEGAL_NOW not in detail:
        return detail
    return detail.partition(LEGAL_NOW)[0] + LEGAL_NOW + "(hidden)"


class ResultFormatError(ValueError):
    """A result document that is not one: the message names the field."""


# -- checked readers ------------------------------------------------------------------------------


def _mapping(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ResultFormatError(f"{where} must be an object, not {_shown(value)}")
    return value


def _list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise ResultFormatError(f"{where} must be a list, not {_shown(value)}")
    return list(value)


def _int(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ResultFormatError(f"{where} must be an integer, not {_shown(value)}")
    return value


def _optional_int(value: object, where: str) -> int | None:
    return None if value is None else _int(value, where)


def _number(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ResultFormatError(f"{where} must be a number, not {_shown(value)}")
    return value


def _optional_number(value: object, where: str) -> float | None:
    return None if value is None else _number(value, where)


def _str(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise ResultFormatError(f"{where} must be a string, not {_shown(value)}")
    return value


def _field(data: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise ResultFormatError(f"{where}.{key} is missing")
    return data[key]


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# -- the parts ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Action:
    """One recorded action: a seat's move with its clock, or a chance outcome (``seat`` None, no clock).

    ``action`` is None in a redacted record (a hidden move shown only in words).
    """

    seat: int | None
    action: int | None
    notation: str
    ms: float | None = None  # what came off the seat's bank for this decision
    bank_ms: float | None = None  # the bank left after it (and its increment)

    @property
    def is_chance(self) -> bool:
        """Return True for an outcome the referee drew, not a seat's move."""
        return self.seat is None

    @classmethod
    def from_json(cls, data: object, where: str) -> Action:
        """Return the action of a document's ``where``, checked."""
        data = _mapping(data, where)
        return cls(
            seat=_optional_int(_field(data, "seat", where), f"{where}.seat"),
            action=_optional_int(_field(data, "action", where), f"{where}.action"),
            notation=_str(_field(data, "notation", where), f"{where}.notation"),
            ms=_optional_number(data.get("ms"), f"{where}.ms"),
            bank_ms=_optional_number(data.get("bank_ms"), f"{where}.bank_ms"),
        )

    def to_json(self) -> dict[str, Any]:
        """Return the action as the document holds it (the clock fields only where they were taken)."""
        data: dict[str, Any] = {"seat": self.seat, "action": self.action, "notation": self.notation}
        if self.ms is not None:
            data["ms"] = self.ms
        if self.bank_ms is not None:
            data["bank_ms"] = self.bank_ms
        return data


@dataclass(frozen=True, slots=True)
class Forfeit:
    """Why a bot lost a game: the series ``player``, its ``seat`` in that game, the reason and its detail.

    ``detail`` is None in a record told to someone else than the forfeiter (the referee's
    ``game_over`` to the other bots).
    """

    player: int
    seat: int
    reason: str
    detail: str | None = None

    @classmethod
    def from_json(cls, data: object, where: str) -> Forfeit | None:
        """Return the forfeit of a document's ``where``, None for none, checked."""
        if data is None:
            return None
        data = _mapping(data, where)
        detail = data.get("detail")
        return cls(
            player=_int(_field(data, "player", where), f"{where}.player"),
            seat=_int(_field(data, "seat", where), f"{where}.seat"),
            reason=_str(_field(data, "reason", where), f"{where}.reason"),
            detail=None if detail is None else _str(detail, f"{where}.detail"),
        )

    def to_json(self) -> dict[str, Any]:
        """Return the forfeit as the document holds it."""
        data: dict[str, Any] = {"player": self.player, "seat": self.seat, "reason": self.reason}
        if self.detail is not None:
            data["detail"] = self.detail
        return data

    def without_legal_moves(self) -> Forfeit:
        """Return the forfeit with the list of legal moves its detail ends with hidden.

        In a game with hidden information those moves name what only the forfeiting seat held.
        """
        if self.detail is None:
            return self
        return replace(self, detail=hide_legal_moves(self.detail))


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of a series, in series players (whatever seat each had).

    ``seats``: seat -> series player. ``winners``: series players. ``stats``: per series
    player (its number as a string, as JSON keys are), the engine's own facts for the game
    (``moves``, ``score``, ``role``, ``turns``...: each game says its own). ``returns``: per
    series player, as the engine returned them; None after a forfeit (and in documents
    stored before returns were recorded). ``bank_ms_left``: per seat.
    """

    index: int
    seats: tuple[int, ...]
    actions: tuple[Action, ...]
    forfeit: Forfeit | None
    winners: tuple[int, ...]
    reason: str
    stats: Mapping[str, Mapping[str, Any]]
    returns: tuple[float, ...] | None = None
    bank_ms_left: tuple[float, ...] = ()

    def stat(self, player: int, key: str, default: Any = None) -> Any:
        """Return series player ``player``'s stat ``key`` in this game, ``default`` when the game does not record it."""
        return self.stats.get(str(player), {}).get(key, default)

    def seat_of(self, player: int) -> int:
        """Return the seat series player ``player`` had in this game."""
        return self.seats.index(player)

    @property
    def moves(self) -> tuple[Action, ...]:
        """Return the seats' actions, without the chance outcomes."""
        return tuple(action for action in self.actions if not action.is_chance)

    @classmethod
    def from_json(cls, data: object, where: str = "game") -> GameRecord:
        """Return the game record of a document's ``where``, checked; a record without ``returns`` has None."""
        data = _mapping(data, where)
        stats = _mapping(_field(data, "stats", where), f"{where}.stats")
        returns = data.get("returns")
        return cls(
            index=_int(_field(data, "index", where), f"{where}.index"),
            seats=tuple(
                _int(seat, f"{where}.seats[{i}]")
                for i, seat in enumerate(_list(_field(data, "seats", where), f"{where}.seats"))
            ),
            actions=tuple(
                Action.from_json(action, f"{where}.actions[{i}]")
                for i, action in enumerate(_list(_field(data, "actions", where), f"{where}.actions"))
            ),
            forfeit=Forfeit.from_json(_field(data, "forfeit", where), f"{where}.forfeit"),
            winners=tuple(
                _int(winner, f"{where}.winners[{i}]")
                for i, winner in enumerate(_list(_field(data, "winners", where), f"{where}.winners"))
            ),
            reason=_str(_field(data, "reason", where), f"{where}.reason"),
            stats={
                _str(key, f"{where}.stats key"): dict(_mapping(value, f"{where}.stats.{key}"))
                for key, value in stats.items()
            },
            returns=None
            if returns is None
            else tuple(
                _number(value, f"{where}.returns[{i}]") for i, value in enumerate(_list(returns, f"{where}.returns"))
            ),
            bank_ms_left=tuple(
                _number(value, f"{where}.bank_ms_left[{i}]")
                for i, value in enumerate(_list(data.get("bank_ms_left", []), f"{where}.bank_ms_left"))
            ),
        )

    def to_json(self) -> dict[str, Any]:
        """Return the record as the document holds it."""
        return {
            "index": self.index,
            "seats": list(self.seats),
            "actions": [action.to_json() for action in self.actions],
            "forfeit": None if self.forfeit is None else self.forfeit.to_json(),
            "winners": list(self.winners),
            "reason": self.reason,
            "stats": {key: dict(value) for key, value in self.stats.items()},
            "returns": None if self.returns is None else list(self.returns),
            "bank_ms_left": list(self.bank_ms_left),
        }


@dataclass(frozen=True, slots=True)
class Player:
    """A series player: its bot's name and the sha256 of the package it ran."""

    name: str
    sha256: str

    @classmethod
    def from_json(cls, data: object, where: str) -> Player:
        data = _mapping(data, where)
        return cls(
            name=_str(_field(data, "name", where), f"{where}.name"),
            sha256=_str(_field(data, "sha256", where), f"{where}.sha256"),
        )

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "sha256": self.sha256}


@dataclass(frozen=True, slots=True)
class StderrTail:
    """What series player ``player``'s bot wrote to stderr (sanitised), and how many bytes past the cap were dropped."""

    player: int
    text: str
    truncated_bytes: int = 0

    @classmethod
    def from_json(cls, data: object, where: str) -> StderrTail:
        data = _mapping(data, where)
        return cls(
            player=_int(_field(data, "player", where), f"{where}.player"),
            text=_str(_field(data, "text", where), f"{where}.text"),
            truncated_bytes=_int(data.get("truncated_bytes", 0), f"{where}.truncated_bytes"),
        )

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "text": self.text, "truncated_bytes": self.truncated_bytes}


#: The keys every game's series score has; the rest are the game's own (:attr:`Score.details`).
SCORE_KEYS = ("points", "game_wins", "winner", "steps")


@dataclass(frozen=True, slots=True)
class Score:
    """A series' score: what every game's scoring gives, and the game's own facts beside it.

    ``points`` and ``game_wins`` are per series player (more points rank higher, equal
    points share a rank), ``winner`` a series player or None when the top is shared, and
    ``steps`` the lines that explain the score. ``details`` holds the rest as the game's
    scoring gave it: Watch's ``white_totals``/``black_totals``/``games``/``forfeits``, the
    win-point games' ``ranking``, a score ladder's ``deal_scores``/``mean``/``low``/
    ``high``/``title``/``forfeits``. ``order`` is the order of the keys as the scoring
    gave them, so that the document reads back byte for byte.
    """

    points: tuple[float, ...]
    game_wins: tuple[int, ...] = ()
    winner: int | None = None
    steps: tuple[str, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)
    order: tuple[str, ...] = SCORE_KEYS

    def detail(self, key: str, default: Any = None) -> Any:
        """Return the game's own score fact ``key`` (``ranking``, ``mean``...), ``default`` when it has none."""
        return self.details.get(key, default)

    @classmethod
    def from_json(cls, data: object, where: str = "score") -> Score:
        """Return the score of a document's ``where``, checked."""
        data = _mapping(data, where)
        return cls(
            points=tuple(
                _number(value, f"{where}.points[{i}]")
                for i, value in enumerate(_list(_field(data, "points", where), f"{where}.points"))
            ),
            game_wins=tuple(
                _int(value, f"{where}.game_wins[{i}]")
                for i, value in enumerate(_list(data.get("game_wins", []), f"{where}.game_wins"))
            ),
            winner=_optional_int(data.get("winner"), f"{where}.winner"),
            steps=tuple(
                _str(value, f"{where}.steps[{i}]")
                for i, value in enumerate(_list(data.get("steps", []), f"{where}.steps"))
            ),
            details={key: value for key, value in data.items() if key not in SCORE_KEYS},
            order=tuple(data),
        )

    def to_json(self) -> dict[str, Any]:
        """Return the score as the game's scoring gave it, in its key order."""
        common = {
            "points": list(self.points),
            "game_wins": list(self.game_wins),
            "winner": self.winner,
            "steps": list(self.steps),
        }
        merged = {**common, **self.details}
        return {key: merged[key] for key in (*self.order, *(k for k in merged if k not in self.order))}


# -- the series -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeriesResult:
    """A played series: what was played, by whom, under which clocks, every game, the score.

    ``referee_stall_ms`` is None in documents stored before the referee measured its own
    stalls; ``started_at`` (seconds since the epoch on the match worker's clock) is set by
    the match worker, None otherwise. ``redacted`` says, in a document given to someone who
    may not see the hidden moves, that they are shown in words (:meth:`redacted`).
    """

    protocol: int
    game: str
    rules_version: str
    config: Mapping[str, Any]
    games_planned: int
    time_control: Mapping[str, Any]
    limits: Mapping[str, Any]
    sandbox: str
    players: tuple[Player, ...]
    games: tuple[GameRecord, ...]
    score: Score
    stderr: tuple[StderrTail, ...] = ()
    wall_seconds: float = 0.0
    referee_stall_ms: float | None = None
    started_at: float | None = None
    redacted_note: str | None = None

    @property
    def num_players(self) -> int:
        return len(self.players)

    def stderr_of(self, player: int) -> StderrTail | None:
        """Return what series player ``player``'s bot wrote to stderr, None when the document has none."""
        return next((tail for tail in self.stderr if tail.player == player), None)

    @classmethod
    def from_json(cls, document: object) -> SeriesResult:
        """Return the series result a stored document holds (any shape ever stored), checked.

        Raises :class:`ResultFormatError` naming the first field that is missing or of the
        wrong type, or a key no shape ever had.
        """
        data = _mapping(document, "the result document")
        known = {f for f in cls.__dataclass_fields__ if f != "redacted_note"} | {"redacted"} | DROPPED_KEYS
        unknown = sorted(str(key) for key in data if key not in known)
        if unknown:
            raise ResultFormatError(f"the result document has an unknown field {unknown[0]!r}")
        where = "result"
        protocol = _int(_field(data, "protocol", where), "result.protocol")
        if protocol not in KNOWN_PROTOCOLS:
            raise ResultFormatError(f"result.protocol {protocol} is none of {list(KNOWN_PROTOCOLS)}")
        redacted = data.get("redacted")
        return cls(
            protocol=protocol,
            game=_str(_field(data, "game", where), "result.game"),
            rules_version=_str(_field(data, "rules_version", where), "result.rules_version"),
            config=dict(_mapping(_field(data, "config", where), "result.config")),
            games_planned=_int(_field(data, "games_planned", where), "result.games_planned"),
            time_control=dict(_mapping(_field(data, "time_control", where), "result.time_control")),
            limits=dict(_mapping(_field(data, "limits", where), "result.limits")),
            sandbox=_str(_field(data, "sandbox", where), "result.sandbox"),
            players=tuple(
                Player.from_json(player, f"result.players[{i}]")
                for i, player in enumerate(_list(_field(data, "players", where), "result.players"))
            ),
            games=tuple(
                GameRecord.from_json(game, f"result.games[{i}]")
                for i, game in enumerate(_list(_field(data, "games", where), "result.games"))
            ),
            score=Score.from_json(_field(data, "score", where), "result.score"),
            stderr=tuple(
                StderrTail.from_json(tail, f"result.stderr[{i}]")
                for i, tail in enumerate(_list(data.get("stderr", []), "result.stderr"))
            ),
            wall_seconds=_number(data.get("wall_seconds", 0.0), "result.wall_seconds"),
            referee_stall_ms=_optional_number(data.get("referee_stall_ms"), "result.referee_stall_ms"),
            started_at=_optional_number(data.get("started_at"), "result.started_at"),
            redacted_note=None if redacted is None else _str(redacted, "result.redacted"),
        )

    def to_json(self, *, with_stderr: bool = True) -> dict[str, Any]:
        """Return the document (never a ``seed``); without the bots' stderr unless ``with_stderr``.

        A redacted result says so first (``"redacted"``); ``started_at`` comes last when the
        match worker set it.
        """
        document: dict[str, Any] = {} if self.redacted_note is None else {"redacted": self.redacted_note}
        document |= {
            "protocol": self.protocol,
            "game": self.game,
            "rules_version": self.rules_version,
            "config": dict(self.config),
            "games_planned": self.games_planned,
            "time_control": dict(self.time_control),
            "limits": dict(self.limits),
            "sandbox": self.sandbox,
            "players": [player.to_json() for player in self.players],
            "games": [game.to_json() for game in self.games],
            "score": self.score.to_json(),
        }
        if with_stderr:
            document["stderr"] = [tail.to_json() for tail in self.stderr]
        document["wall_seconds"] = self.wall_seconds
        document["referee_stall_ms"] = self.referee_stall_ms
        if self.started_at is not None:
            document["started_at"] = self.started_at
        return document

    def redacted(
        self,
        public_moves: Callable[[GameRecord], Sequence[str | None] | None],
        note: str,
        unreplayable: str,
    ) -> SeriesResult:
        """Return the result as someone who may not see a game's secrets gets it.

        ``public_moves(game)`` gives, per action, None (a public move) or its public words,
        or None when the game does not replay: then every move reads ``unreplayable``. A
        hidden move keeps its words and loses its action id; a forfeit loses its list of
        legal moves (:meth:`Forfeit.without_legal_moves`); ``note`` says so at the top.
        """
        games = []
        for game in self.games:
            words = public_moves(game)
            if words is None or len(words) != len(game.actions):
                words = [unreplayable] * len(game.actions)
            actions = tuple(
                action if said is None else replace(action, notation=said, action=None)
                for action, said in zip(game.actions, words, strict=True)
            )
            forfeit = None if game.forfeit is None else game.forfeit.without_legal_moves()
            games.append(replace(game, actions=actions, forfeit=forfeit))
        return replace(self, games=tuple(games), redacted_note=note)


def game_records(document: object) -> tuple[GameRecord, ...]:
    """Return the game records of a result document, checked, for a reader that needs nothing else of it."""
    data = _mapping(document, "the result document")
    return tuple(
        GameRecord.from_json(game, f"result.games[{i}]")
        for i, game in enumerate(_list(_field(data, "games", "result"), "result.games"))
    )
