"""What a game tells the rest of the system, declared once, next to its rules.

Each game package holds a ``declaration.py`` whose ``DECLARATION`` is a
:class:`GameDeclaration`; ``engines`` finds and registers every one of them
(``engines/__init__.py``). The workers, the platform, the web pages and the
CLI read a game only through it: its rating constants, series length and
seats, its series text, its replay viewer, its demo seasons, its score
ladder when it is played solo (engines/score_ladder.py), and its roles when
it is a team game (engines/teams.py); engines/kinds.py makes of these the
kind of each series (versus, free for all, team against the GM, solo). A
game's reference bots are the bots' side (bots/provided.py): nothing here
names them. No code outside a game's own folders
(``engines/<game>/``, ``bots/<game>/``) names a game; ``tests/test_game_names.py`` fails if one
does. docs/engines.md, "Adding a game", lists the steps.

Pure: no I/O, no third-party imports (paths are only named here).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from engines import kinds
from engines.base import Game
from engines.result import SeriesResult
from engines.score_ladder import ScoreLadder
from engines.teams import TeamRules

__all__ = [
    "DemoSeason",
    "GameDeclaration",
    "RatingConstants",
    "ScoreLadder",
    "SeriesRules",
    "TeamRules",
    "Viewer",
    "numbered_seats",
    "one_game_per_player",
]

#: TrueSkill's scale, the same for every game: μ 25, σ μ/3, β σ/2 (a season's and a local round robin's).
MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2
#: The dynamics noise added before each update. Bot versions are immutable, so their strength does
#: not drift; tests/benchmarks/rating_accuracy.py measures what τ costs (docs/benchmarks.md).
TAU = SIGMA / 1000


@dataclass(frozen=True)
class RatingConstants:
    """TrueSkill's constants for a game's series (a season and a local round robin alike)."""

    #: The chance that a series between equals ends level.
    draw_probability: float
    beta: float = BETA
    tau: float = TAU

    def __post_init__(self) -> None:
        if not 0 <= self.draw_probability < 1:
            raise ValueError(f"draw_probability must be in [0, 1), not {self.draw_probability!r}")
        if self.beta <= 0 or self.tau < 0:
            raise ValueError(f"beta must be positive and tau not negative, not {self.beta!r}, {self.tau!r}")


def every_player_starts_once(players: int) -> int:
    """The default series length: one game per player, each starting one (seats rotate each game)."""
    return players


def a_multiple_of_the_players(players: int, games: int) -> str | None:
    """The default series check: every player starts equally often, so the series is a multiple of the players."""
    if games <= 0:
        return f"a series has at least one game, not {games}"
    if games % players:
        return (
            f"a series of {players} players is a multiple of {players} games "
            f"(each player starts equally often), not {games}"
        )
    return None


@dataclass(frozen=True)
class SeriesRules:
    """How long a series is, and what a series must be; seats rotate by one each game (the referee)."""

    #: players -> the series length when none is given.
    default_games: Callable[[int], int] = every_player_starts_once
    #: (players, games) -> why that series cannot be played, or None.
    check_games: Callable[[int, int], str | None] = a_multiple_of_the_players


def one_game_per_player(series: str, seats: str = "players (each starts one)") -> SeriesRules:
    """Return the rules of a series of exactly one game per player, each starting one.

    ``series`` names the series in the refusal ("a race series"), ``seats``
    what the games are counted against. A series of one player is solo play,
    whose length the game's score ladder checks, not this rule.
    """

    def check_games(players: int, games: int) -> str | None:
        if players > 1 and games != players:
            return f"{series} is as many games as {seats}: {players} games, not {games}"
        return None

    return SeriesRules(default_games=every_player_starts_once, check_games=check_games)


def numbered_seats(count: int, prefix: str = "P") -> tuple[str, ...]:
    """Return seat labels ``P0``, ``P1``... for ``count`` seats, as the games' notation names players."""
    return tuple(f"{prefix}{seat}" for seat in range(count))


#: ``frames(states, actions)`` -> one JSON-ready frame per state for the viewer's script (the states
#: are the game's own State subclass).
FramesBuilder = Callable[[Sequence[Any], Sequence[int]], list[dict[str, Any]]]
#: ``private(states, actions, seat)`` -> one JSON-ready dict per state (per frame): what only game seat
#: ``seat`` knew there and the table did not (its hand, the cards it chose among...); ``{}`` where nothing.
PrivateBuilder = Callable[[Sequence[Any], Sequence[int], int], list[dict[str, Any]]]
#: ``public_moves(states, actions)`` -> one entry per action: None where the move is public (its recorded
#: notation stands), else the move in words that hide what is secret ("P1 draws a document (face down)").
PublicMoves = Callable[[Sequence[Any], Sequence[int]], list[str | None]]


@dataclass(frozen=True)
class Viewer:
    """The replay viewer of a game: frames built on the server, drawn by the game's own script."""

    frames: FramesBuilder
    #: config -> the static facts the script needs to draw any frame (board geometry, names).
    board: Callable[[Mapping[str, Any]], dict[str, Any]]
    #: The browser script that draws a frame: it calls ``ArenaReplay.register(<game>, renderer)``.
    script: Path
    #: Its style sheet, if it has one, in the same folder as the script.
    style: Path | None = None
    #: A game with hidden information: what each seat saw that the table did not, per frame. The
    #: frames are what everyone sees; the series page adds ``private`` layers only for the owner of the
    #: seat's bot (and staff), and the script draws them when present (``data.private[seat][ply]``).
    private: PrivateBuilder | None = None
    #: A game whose recorded notation names hidden things ("draw doc 12"): each move in public words.
    #: Declaring it makes the moves secret to the public: the series page lists these words, and the
    #: public replay download and the API replace a hidden move's notation with them and its action
    #: id with null (arena/web/access.py); staff get the full record. A game without hidden
    #: information declares neither hook, and its pages and downloads show the full record.
    public_moves: PublicMoves | None = None

    @classmethod
    def of(cls, module: ModuleType, style: bool = True) -> Viewer:
        """Return the viewer a game's ``viewer`` module defines, its script beside it in ``static/``.

        The module defines ``frames`` and ``board``, and ``private`` and
        ``public_moves`` when the game hides information; its script is
        ``static/viewer.js`` in the module's folder, and with ``style`` its
        style sheet ``static/viewer.css``.
        """
        static = Path(str(module.__file__)).parent / "static"
        return cls(
            frames=module.frames,
            board=module.board,
            script=static / "viewer.js",
            style=static / "viewer.css" if style else None,
            private=getattr(module, "private", None),
            public_moves=getattr(module, "public_moves", None),
        )


@dataclass(frozen=True)
class DemoSeason:
    """A season of the game in ``manage.py demo``: its shape; which reference bots it enters is the bots' side.

    A solo demo season (``GameDeclaration.solo_demo``) has ``players=1`` and
    ``games`` at least the score ladder's minimum of deals.
    """

    title: str
    players: int
    games: int
    #: Demo users per reference bot (several when a series seats more players than there are bots).
    owners_per_bot: int = 1
    #: Put before each demo bot's name, so the games' bots are told apart on the site.
    bot_prefix: str = ""


#: (series result, one label per series player, each reason code in words) -> the text of the series.
SeriesFormatter = Callable[[SeriesResult, Sequence[str], Mapping[str, str]], list[str]]
#: (a score step that says "player <i>", one name per series player) -> the step with the names.
StepNamer = Callable[[str, Sequence[str]], str]


@dataclass(frozen=True)
class GameDeclaration:
    """Everything the system needs to know about one game."""

    game: type[Game]
    rating: RatingConstants
    series: SeriesRules = field(default_factory=SeriesRules)
    #: Names of the game's seats ("White", "Black"); "Seat 1", "Seat 2"... beyond them.
    seat_labels: tuple[str, ...] = ()
    #: The series as text (the CLI and the demo); None: engines.text.format_series.
    format_series: SeriesFormatter | None = None
    #: Names the players in a score step; None: "player <i>" becomes the i-th name.
    name_step: StepNamer | None = None
    viewer: Viewer | None = None
    demo: DemoSeason | None = None
    #: How the game is ranked when played solo; a game for one player must declare it.
    score_ladder: ScoreLadder | None = None
    #: A solo season (one player a series, a score ladder) for ``manage.py demo``, beside ``demo``.
    solo_demo: DemoSeason | None = None
    #: A team game: the players' seats against one GM seat (or the engine's built-in GM), each role
    #: rated on its own leaderboard (engines/teams.py).
    teams: TeamRules | None = None
    #: The platform's own game (the Watch family's flagship): the default where a game is not said.
    flagship: bool = False

    @property
    def name(self) -> str:
        return self.game.info.name

    def __post_init__(self) -> None:
        kinds.check_declaration(self)

    def kind(self, players: int) -> kinds.Kind:
        """Return the kind of a series of ``players`` seats of this game (engines/kinds.py)."""
        return kinds.kind_of(self, players)

    @property
    def roles(self) -> tuple[str, ...]:
        """Return the roles a bot can play in this game (a team game's); empty for a game whose seats have none."""
        return self.kind(self.game.info.max_players).roles

    def seat_roles(self, num_players: int, config: Mapping[str, Any]) -> tuple[str, ...] | None:
        """Return each seat's role in a team game of ``num_players`` under ``config``; None for other games."""
        return self.kind(num_players).seat_roles(num_players, config)

    def rotating_seats(self, num_players: int, config: Mapping[str, Any]) -> int:
        """Return how many seats rotate in a series: every seat, but a team game's GM seat stays put.

        ``SeriesRules`` is asked about this number (a series' default length, its check).
        """
        return self.kind(num_players).rotating_seats(num_players, config)

    def seat_label(self, seat: int) -> str:
        """Return the name of a seat: the declared label, else "Seat <n>"."""
        return self.seat_labels[seat] if seat < len(self.seat_labels) else f"Seat {seat + 1}"
