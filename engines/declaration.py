"""What a game tells the rest of the system, declared once, next to its rules.

Each game package holds a ``declaration.py`` whose ``DECLARATION`` is a
:class:`GameDeclaration`; ``engines`` finds and registers every one of them
(``engines/__init__.py``). The workers, the platform, the web pages and the
CLI read a game only through it: its rating constants, series length and
seats, its series text, its reference bots, its replay viewer, its demo
seasons, its score ladder when it is played solo
(engines/score_ladder.py), and its roles when it is a team game
(engines/teams.py). No code outside a game's own folders
(``engines/<game>/``, ``bots/<game>/``) names a game; ``tests/test_game_names.py`` fails if one
does. docs/engines.md, "Adding a game", lists the steps.

Pure: no I/O, no third-party imports (paths are only named here).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engines.base import Game
from engines.result import SeriesResult
from engines.score_ladder import ScoreLadder
from engines.teams import PLAYER, TeamRules

__all__ = [
    "DemoSeason",
    "GameDeclaration",
    "RatingConstants",
    "ScoreLadder",
    "SeriesRules",
    "TeamRules",
    "Viewer",
]

#: TrueSkill's scale, the same for every game: μ 25, σ μ/3, β σ/2 (workers/rating_constants.py uses these).
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


@dataclass(frozen=True)
class DemoSeason:
    """A season of the game in ``manage.py demo``: its reference bots, entered by demo users.

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
    #: The reference bots the demo enters, by name; empty: all of them. A slow bot can stay out,
    #: so the living ladder keeps giving games to a bot a user uploads.
    bots: tuple[str, ...] = ()
    #: A team game's demo: the reference bots entered as GM bots (the others are entered as player
    #: bots, ``players`` of them a series); empty: the built-in GM takes the GM seat.
    gm_bots: tuple[str, ...] = ()


#: (series result, one label per series player, each reason code in words) -> the text of the series.
SeriesFormatter = Callable[[SeriesResult, Sequence[str], Mapping[str, str]], list[str]]
#: (a score step that says "player <i>", one name per series player) -> the step with the names.
StepNamer = Callable[[str, Sequence[str]], str]


@dataclass(frozen=True)
class GameDeclaration:
    """Everything the system needs to know about one game."""

    game: type[Game]
    rating: RatingConstants
    #: Where the reference bots live as bot packages, by name (docs/bot-package.md).
    reference_bots: Mapping[str, Path]
    #: The reference bot a new version's validation series is played against.
    validation_bot: str
    series: SeriesRules = field(default_factory=SeriesRules)
    #: Names of the game's seats ("White", "Black"); "Seat 1", "Seat 2"... beyond them.
    seat_labels: tuple[str, ...] = ()
    #: The module whose ``POLICIES`` maps names to in-process reference policies (bots/policy.py).
    policies: str | None = None
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
        if self.validation_bot not in self.reference_bots:
            raise ValueError(f"{self.name}: the validation bot {self.validation_bot!r} is not a reference bot")
        for demo in (self.demo, self.solo_demo):
            unknown = sorted(set(demo.bots) - set(self.reference_bots)) if demo else []
            if unknown:
                raise ValueError(f"{self.name}: the demo's bots {unknown} are not reference bots")
        solo = self.game.info.min_players == 1
        if solo and self.score_ladder is None:
            raise ValueError(f"{self.name}: a game for one player declares how it is ranked, a score_ladder")
        if self.score_ladder is not None and not solo:
            raise ValueError(f"{self.name}: a score_ladder is for a game one player can play (min_players 1)")
        if self.demo is not None and self.demo.players == 1:
            raise ValueError(f"{self.name}: a demo season of one player is a solo_demo")
        if self.solo_demo is not None:
            if self.score_ladder is None or self.solo_demo.players != 1:
                raise ValueError(f"{self.name}: a solo_demo is a season of one player of a game with a score_ladder")
            problem = self.score_ladder.check_deals(self.solo_demo.games)
            if problem:
                raise ValueError(f"{self.name}: the solo_demo: {problem}")
        if self.teams is not None and solo:
            raise ValueError(f"{self.name}: a team game is for two or more seats, not a solo game")
        for demo in (self.demo, self.solo_demo):
            if demo is not None and demo.gm_bots:
                if self.teams is None:
                    raise ValueError(f"{self.name}: only a team game's demo names gm_bots")
                unknown = sorted(set(demo.gm_bots) - set(self.reference_bots))
                if unknown:
                    raise ValueError(f"{self.name}: the demo's gm_bots {unknown} are not reference bots")

    def plays_solo(self, players: int) -> bool:
        """Return True when a series of ``players`` is solo play, ranked on the game's score ladder."""
        return players == 1 and self.score_ladder is not None

    def seat_roles(self, num_players: int, config: Mapping[str, Any]) -> tuple[str, ...] | None:
        """Return each seat's role in a team game of ``num_players`` under ``config``; None for other games."""
        if self.teams is None:
            return None
        return self.teams.roles_of(num_players, self.game(config).config)

    def rotating_seats(self, num_players: int, config: Mapping[str, Any]) -> int:
        """Return how many seats rotate in a series: every seat, but a team game's GM seat stays put.

        ``SeriesRules`` is asked about this number (a series' default length, its check).
        """
        roles = self.seat_roles(num_players, config)
        return num_players if roles is None else roles.count(PLAYER)

    def seat_label(self, seat: int) -> str:
        """Return the name of a seat: the declared label, else "Seat <n>"."""
        return self.seat_labels[seat] if seat < len(self.seat_labels) else f"Seat {seat + 1}"
