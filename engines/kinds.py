"""The kinds of game: each one strategy, chosen from a game's declaration and its number of players.

A series is one of four kinds, and everything that differs between them is
asked of its :class:`Kind`, never branched on elsewhere:

* :class:`Versus`: two players, one against the other;
* :class:`FreeForAll`: three or more players, each for itself;
* :class:`TeamVsGM`: player seats against one GM seat, or the engine's own
  GM (a game that declares ``teams``, engines/teams.py);
* :class:`SoloScoreLadder`: one player, ranked on the score ladder of the
  deals every version plays alike (a game that declares ``score_ladder``,
  engines/score_ladder.py).

:func:`kind_of` chooses through the one table :data:`KINDS`: the first kind
whose :meth:`Kind.fits` accepts the declaration and the number of seats. A
new kind is one new class put in that table. Each kind owns its seating (the
seats per game, which seats rotate, the roles), the winners after a forfeit,
the series score, the checks of a series and of a season, the validation
series' seats, and the words pages show; :attr:`Kind.ranking` names how the
platform rates and ranks a season of it (TrueSkill, TrueSkill per role, or the
score ladder), and the platform keys its own Django work by that name.
``tests/test_game_kinds.py`` fails when code outside this module (and the
platform's ranking tables) branches on a kind.

Pure: no I/O, no third-party imports.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engines import score_ladder, teams
from engines.base import ConfigError, Game
from engines.result import GameRecord
from engines.teams import GM, PLAYER

if TYPE_CHECKING:
    from engines.declaration import GameDeclaration

__all__ = [
    "KINDS",
    "RANKINGS",
    "RATED",
    "RATED_PER_ROLE",
    "SCORE_LADDER",
    "FreeForAll",
    "Kind",
    "SeasonProblem",
    "SoloScoreLadder",
    "TeamVsGM",
    "Versus",
    "check_declaration",
    "kind_of",
]

#: How a season of a kind ranks its versions: one TrueSkill leaderboard ...
RATED = "rated"
#: ... one TrueSkill leaderboard per role (the team against the GM) ...
RATED_PER_ROLE = "rated_per_role"
#: ... or no rating at all: the score ladder of the deals every version plays.
SCORE_LADDER = "score_ladder"
RANKINGS = (RATED, RATED_PER_ROLE, SCORE_LADDER)

#: (the season's field at fault, why) when a season of a kind cannot be played as set.
SeasonProblem = tuple[str, str]


@dataclass(frozen=True)
class Kind:
    """One kind of series of one game: the strategy for everything that differs between kinds.

    ``players`` counts every seat of a series (a team game's GM seat too) where
    a method speaks of seats, and a season's ``players_per_series`` where it
    speaks of a season.
    """

    declared: GameDeclaration

    #: The kind's name, the key the platform's tables use.
    name: ClassVar[str]
    #: The kind in words, as pages show it.
    label: ClassVar[str]
    #: How a season of this kind ranks its versions: RATED, RATED_PER_ROLE or SCORE_LADDER.
    ranking: ClassVar[str] = RATED
    #: The fewest seats a series of this kind has.
    min_seats: ClassVar[int] = 2
    #: Every series of a season of this kind plays the same deals (the season's ``deal_secret``).
    same_deals: ClassVar[bool] = False
    #: A series' points are the game's own score (a mean of deal scores), not games won.
    scored: ClassVar[bool] = False

    @classmethod
    def fits(cls, declared: GameDeclaration, players: int) -> bool:
        """Return True when a series of ``players`` of ``declared`` is of this kind."""
        raise NotImplementedError

    @property
    def ladder(self) -> score_ladder.ScoreLadder | None:
        """Return the score ladder a season of this kind is ranked on; None: it is rated."""
        return None

    # -- seating ------------------------------------------------------------------
    @property
    def roles(self) -> tuple[str, ...]:
        """Return the roles a bot can play in this kind ("player", "gm"); empty: its seats have no roles."""
        return ()

    def seat_roles(self, players: int, config: Mapping[str, Any]) -> tuple[str, ...] | None:
        """Return each seat's role ("player", "gm") in a series of ``players`` seats; None: seats have no roles."""
        return None

    def rotating_seats(self, players: int, config: Mapping[str, Any]) -> int:
        """Return how many seats rotate in a series: ``SeriesRules`` is asked about this number."""
        return players

    def seat_order(self, index: int, players: int, roles: Sequence[str] | None) -> list[int]:
        """Return game ``index``'s seats (seat -> series player): every seat moves on by one each game."""
        return [(seat + index) % players for seat in range(players)]

    def check_seats(self, players: int, config: Mapping[str, Any]) -> str | None:
        """Return why a series of ``players`` seats cannot be played under ``config``, or None."""
        info = self.declared.game.info
        if players < self.min_seats:
            return f"a series of {info.name} needs at least two bots"
        if not info.min_players <= players <= info.max_players:
            return (
                f"{info.name} is for {info.min_players} to {info.max_players} players: "
                f"give that many bots, not {players}"
            )
        return None

    def builtin_gm(self, config: Mapping[str, Any]) -> dict[str, Any] | None:
        """Return ``config`` with the GM left to the engine; None: this kind has no GM."""
        return None

    def seating_hint(self, builtin_gm: bool) -> str:
        """Return what a seating problem adds to tell a bot author how to seat the bots."""
        return ""

    def round_robin_problem(self) -> str | None:
        """Return why bots of this kind cannot meet one against one in a round robin, or None."""
        return None

    def sides_line(self, games: Sequence[GameRecord], labels: Sequence[str], roles: Sequence[str] | None) -> str:
        """Return a line on how the sides did over a series' ``games`` (``labels``: one per series player); "": none."""
        return ""

    # -- a series -------------------------------------------------------------------
    def forfeit_winners(self, seats: Sequence[int], roles: Sequence[str] | None, forfeiter: int) -> list[int]:
        """Return the series players who win a game that series player ``forfeiter`` forfeited: nobody."""
        return []

    def default_games(self, players: int, config: Mapping[str, Any]) -> int:
        """Return a series' length when none is given."""
        return self.declared.series.default_games(self.rotating_seats(players, config))

    def check_games(self, players: int, config: Mapping[str, Any], games: int) -> str | None:
        """Return why a series of ``games`` games of ``players`` seats cannot be played, or None."""
        return self.declared.series.check_games(self.rotating_seats(players, config), games)

    def score_series(self, game: Game, games: Sequence[GameRecord], planned: int, players: int) -> dict[str, Any]:
        """Return the series score of ``game``'s recorded ``games`` (``planned`` of them were to be played)."""
        return game.score_series(games, players)

    # -- a season ---------------------------------------------------------------------
    def check_season(self, players: int, games: int, config: Mapping[str, Any]) -> SeasonProblem | None:
        """Return what is wrong with a season of ``players`` a series and ``games`` a series, or None."""
        info = self.declared.game.info
        if players == 1:
            return (
                "players_per_series",
                f"{info.name} has no score ladder, so it has no solo seasons: "
                f"a season of it seats {info.min_players} to {info.max_players} players a series",
            )
        if not info.min_players <= players <= info.max_players:
            return (
                "players_per_series",
                f"{info.name} is played by {info.min_players} to {info.max_players} players, not {players}",
            )
        problem = self.declared.series.check_games(players, games)
        return ("games_per_series", problem) if problem else None

    def series_config(self, config: Mapping[str, Any], with_gm_bot: bool) -> dict[str, Any]:
        """Return the config a season's series is played with."""
        return dict(config)

    # -- validation ---------------------------------------------------------------------
    def validation_roles(self) -> tuple[str, ...]:
        """Return the roles a new version is validated in, one series each; ("",) for a game without roles."""
        return ("",)

    def validation_series(self, role: str, games: int) -> tuple[int, int, int]:
        """Return ``(seats, the version's seat, games)`` of a new version's validation series in ``role``.

        The version plays reference bots in the other seats; ``games`` is the platform's usual length.
        """
        return self.min_seats, 0, games


class Versus(Kind):
    """Two players, one against the other: a forfeit gives the game to the other; rated TrueSkill 1 v 1."""

    name = "versus"
    label = "one against one"

    @classmethod
    def fits(cls, declared: GameDeclaration, players: int) -> bool:
        return players <= 2

    def forfeit_winners(self, seats: Sequence[int], roles: Sequence[str] | None, forfeiter: int) -> list[int]:
        """Return the other player: the one who did not forfeit wins the game."""
        return [player for player in seats if player != forfeiter]


class FreeForAll(Kind):
    """Three or more players, each for itself: a forfeit makes no winner; rated TrueSkill free-for-all."""

    name = "free_for_all"
    label = "free for all"

    @classmethod
    def fits(cls, declared: GameDeclaration, players: int) -> bool:
        return players > 2


class TeamVsGM(Kind):
    """Player seats against one GM seat or the built-in GM (engines/teams.py); rated per role.

    Only the player seats rotate, the GM keeps the last seat; a forfeit gives
    the game to the forfeiter's other side.
    """

    name = "team_vs_gm"
    label = "players against the GM"
    ranking = RATED_PER_ROLE

    @classmethod
    def fits(cls, declared: GameDeclaration, players: int) -> bool:
        return declared.teams is not None

    @property
    def teams(self) -> teams.TeamRules:
        rules = self.declared.teams
        assert rules is not None  # fits() chose this kind for a game with teams
        return rules

    @property
    def roles(self) -> tuple[str, ...]:
        return self.teams.roles

    def seat_roles(self, players: int, config: Mapping[str, Any]) -> tuple[str, ...]:
        return self.teams.roles_of(players, self.declared.game(config).config)

    def rotating_seats(self, players: int, config: Mapping[str, Any]) -> int:
        return self.seat_roles(players, config).count(PLAYER)

    def seat_order(self, index: int, players: int, roles: Sequence[str] | None) -> list[int]:
        """Return game ``index``'s seats: the player seats rotate, the GM keeps its seat."""
        assert roles is not None
        return teams.seat_order(roles, index)

    def check_seats(self, players: int, config: Mapping[str, Any]) -> str | None:
        """Return why the seats cannot be played: the seats a team game has depend on its config (a GM seat or not)."""
        if players < self.min_seats:
            return f"a series of {self.declared.game.info.name} needs at least two bots"
        try:
            self.declared.game(config).new_initial_state(seed=0, num_players=players)
        except ConfigError as exc:
            return f"{self.declared.name}: {exc}"
        return None

    def builtin_gm(self, config: Mapping[str, Any]) -> dict[str, Any] | None:
        return self.teams.builtin(config)

    def seating_hint(self, builtin_gm: bool) -> str:
        return "; give players, the engine playing the GM" if builtin_gm else "; give players and the GM last"

    def round_robin_problem(self) -> str | None:
        return (
            f"{self.declared.name} is a team game (players against a GM): a round robin pairs bots one against one; "
            "play its series with arena play (the last bot the GM, or --builtin-gm)"
        )

    def sides_line(self, games: Sequence[GameRecord], labels: Sequence[str], roles: Sequence[str] | None) -> str:
        """Return the series by side: the players' game wins against the GM's, and who won."""
        assert roles is not None
        won, drawn, lost = teams.series_sides(games, roles)
        players = ", ".join(label for label, role in zip(labels, roles, strict=True) if role == PLAYER)
        gm = next((label for label, role in zip(labels, roles, strict=True) if role == GM), self.teams.builtin_label)
        result = teams.series_result(games, roles)
        verdict = "the players" if result == teams.WIN else "the GM" if result == teams.LOSS else "nobody: a draw"
        level = f", {drawn} level" if drawn else ""
        return f"Team series: players ({players}) {won} – {lost} GM ({gm}){level}; series to {verdict}"

    def forfeit_winners(self, seats: Sequence[int], roles: Sequence[str] | None, forfeiter: int) -> list[int]:
        """Return the forfeiter's other side (nobody when that is the built-in GM)."""
        assert roles is not None
        side = roles[forfeiter]
        return [player for player in range(len(roles)) if roles[player] != side]

    def check_season(self, players: int, games: int, config: Mapping[str, Any]) -> SeasonProblem | None:
        """Return what is wrong unless the game seats ``players`` player seats with a GM bot and without."""
        if players == 1:
            return super().check_season(players, games, config)
        name = self.declared.name
        seatings = [(self.teams.builtin(config), players)]
        if not self.teams.has_builtin_gm(config):
            seatings.insert(0, (dict(config), players + 1))
        for seating_config, seats in seatings:
            try:
                game = self.declared.game(seating_config)
                game.new_initial_state(seed=0, num_players=seats)
                roles = self.teams.roles_of(seats, game.config)
            except (ConfigError, ValueError) as exc:
                return (
                    "players_per_series",
                    f"{name} is a team game: players_per_series counts its player seats, "
                    f"and {players} cannot be seated ({exc})",
                )
            if roles.count(PLAYER) != players:
                return ("players_per_series", f"{name} seats {roles}, not {players} players")
        problem = self.declared.series.check_games(players, games)
        return ("games_per_series", problem) if problem else None

    def series_config(self, config: Mapping[str, Any], with_gm_bot: bool) -> dict[str, Any]:
        """Return the season's config, with the GM left to the engine when no GM bot sits."""
        return dict(config) if with_gm_bot else self.teams.builtin(config)

    def validation_roles(self) -> tuple[str, ...]:
        return self.roles

    def validation_series(self, role: str, games: int) -> tuple[int, int, int]:
        """Return the fewest seats the game has with a GM seat, the version in ``role`` (the GM last), and as
        many games as player seats."""
        roles = self.validation_seats()
        seat = len(roles) - 1 if role == GM else 0
        return len(roles), seat, self.declared.series.default_games(roles.count(PLAYER))

    def validation_seats(self) -> tuple[str, ...]:
        """Return the roles of the fewest seats the game is played by with its GM seat (the default config)."""
        info = self.declared.game.info
        game = self.declared.game()
        for players in range(info.min_players, info.max_players + 1):
            try:
                game.new_initial_state(seed=0, num_players=players)
            except ConfigError:
                continue
            roles = self.teams.roles_of(players, game.config)
            if GM in roles:
                return roles
        raise ValueError(f"{info.name} has no seating with a GM seat under its default config")


class SoloScoreLadder(Kind):
    """One player, ranked on the score ladder of the deals every version of a season plays alike; unrated."""

    name = "solo_score_ladder"
    label = "solo, on the score ladder"
    ranking = SCORE_LADDER
    min_seats = 1
    same_deals = True
    scored = True

    @classmethod
    def fits(cls, declared: GameDeclaration, players: int) -> bool:
        return players == 1 and declared.score_ladder is not None

    @property
    def ladder(self) -> score_ladder.ScoreLadder:
        rules = self.declared.score_ladder
        assert rules is not None  # fits() chose this kind for a game with a score ladder
        return rules

    def default_games(self, players: int, config: Mapping[str, Any]) -> int:
        """Return the ladder's number of deals."""
        return self.ladder.deals

    def score_series(self, game: Game, games: Sequence[GameRecord], planned: int, players: int) -> dict[str, Any]:
        """Return the score ladder's score of the deals (engines/score_ladder.py)."""
        return score_ladder.score_series(games, planned, self.ladder)

    def check_season(self, players: int, games: int, config: Mapping[str, Any]) -> SeasonProblem | None:
        """Return what is wrong with the season's deals: the ladder's minimum, and the game's series check."""
        problem = self.ladder.check_deals(games) or self.declared.series.check_games(players, games)
        return ("games_per_series", problem) if problem else None


#: The one dispatch table: the first kind that fits a declaration and a number of seats is its kind.
KINDS: tuple[type[Kind], ...] = (TeamVsGM, SoloScoreLadder, Versus, FreeForAll)


def kind_of(declared: GameDeclaration, players: int) -> Kind:
    """Return the kind of a series of ``players`` seats (a season's ``players_per_series``) of ``declared``."""
    for kind in KINDS:
        if kind.fits(declared, players):
            return kind(declared)
    raise ValueError(f"{declared.name}: no kind of game seats {players} players")  # FreeForAll takes the rest


def check_declaration(declared: GameDeclaration) -> None:
    """Raise ValueError when a declaration's kinds contradict each other (its ``__post_init__`` asks this)."""
    name = declared.name
    solo = declared.game.info.min_players == 1
    if solo and declared.score_ladder is None:
        raise ValueError(f"{name}: a game for one player declares how it is ranked, a score_ladder")
    if declared.score_ladder is not None and not solo:
        raise ValueError(f"{name}: a score_ladder is for a game one player can play (min_players 1)")
    if declared.demo is not None and declared.demo.players == 1:
        raise ValueError(f"{name}: a demo season of one player is a solo_demo")
    if declared.solo_demo is not None:
        if declared.score_ladder is None or declared.solo_demo.players != 1:
            raise ValueError(f"{name}: a solo_demo is a season of one player of a game with a score_ladder")
        problem = declared.score_ladder.check_deals(declared.solo_demo.games)
        if problem:
            raise ValueError(f"{name}: the solo_demo: {problem}")
    if declared.teams is not None and solo:
        raise ValueError(f"{name}: a team game is for two or more seats, not a solo game")
