"""Team games with roles: a team of player seats against one game-master seat, or the engine's own GM.

A game opts in by declaring :class:`TeamRules` (``GameDeclaration.teams``).
Its seats have roles, which the engine's ``seat_roles(num_players, config)``
names: every seat but the GM's is a ``player`` seat, and the GM's (the last)
is the ``gm`` seat; with the config that switches to the built-in GM
(``TeamRules.builtin_config``, ``{"gm": "builtin"}``) there is no GM seat and
the engine plays the GM itself.

What the rest of the system asks of a team game, in one place:

* a series rotates only the player seats (each player bot sits each player
  position once) and keeps the GM in its seat (:func:`seat_order`);
* a game is the players' when their return is positive, the GM's when it is
  negative, level when it is zero; a forfeit gives the game to the other side
  (:func:`game_side`); the series goes to the side that won more games, and
  equal is a draw (:func:`series_sides`);
* the platform rates the team against the GM with TrueSkill's team support,
  each player weighted 1 / team size (arena/ratings/ranking.py), and the
  built-in GM sits at the fixed rating declared here;
* without GM bots a season ranks the player bots also by win rate, with its
  Wilson 95 % interval (:func:`wilson_interval`), and by mean turns to win.

Pure: no I/O, no third-party imports.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engines.checks import is_integer
from engines.result import GameRecord

PLAYER = "player"
GM = "gm"
#: A game's result for one side: won, level, lost.
WIN, DRAW, LOSS = 1, 0, -1

#: ``seat_roles(num_players, config)`` -> the role of each seat, "player" or "gm".
SeatRoles = Callable[[int, Mapping[str, Any]], Sequence[str]]


@dataclass(frozen=True)
class TeamRules:
    """How a team game seats its roles and rates its built-in GM.

    ``seat_roles`` is the engine's own function. ``builtin_config`` is the
    configuration that leaves the GM to the engine (merged over a season's
    or a series' config); ``builtin_mu`` and ``builtin_sigma`` are the fixed
    rating the platform gives that GM: never stored, never updated.
    """

    seat_roles: SeatRoles
    roles: tuple[str, ...] = (PLAYER, GM)
    builtin_config: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({"gm": "builtin"}))
    builtin_mu: float = 25.0
    builtin_sigma: float = 1.0
    builtin_label: str = "the built-in GM"

    def __post_init__(self) -> None:
        if self.roles != (PLAYER, GM):
            raise ValueError(f"a team game's roles are {PLAYER!r} and {GM!r}, in that order, not {self.roles!r}")
        if not self.builtin_config:
            raise ValueError("builtin_config is the config that leaves the GM to the engine; it cannot be empty")
        if not (math.isfinite(self.builtin_mu) and self.builtin_sigma > 0 and math.isfinite(self.builtin_sigma)):
            raise ValueError(
                f"the built-in GM's rating needs a finite mu and a positive sigma, not "
                f"{self.builtin_mu!r}, {self.builtin_sigma!r}"
            )

    def roles_of(self, num_players: int, config: Mapping[str, Any]) -> tuple[str, ...]:
        """Return each seat's role for ``num_players`` seats under ``config``, checked: players first, the GM last."""
        roles = tuple(self.seat_roles(num_players, config))
        players = roles.count(PLAYER)
        if len(roles) != num_players or set(roles) - {PLAYER, GM} or roles[:players] != (PLAYER,) * players:
            raise ValueError(f"seat_roles({num_players}) gave {roles!r}: player seats first, at most one gm seat last")
        if roles.count(GM) > 1:
            raise ValueError(f"seat_roles({num_players}) gave {roles!r}: a team game has at most one gm seat")
        return roles

    def builtin(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """Return ``config`` with the GM left to the engine."""
        return {**config, **self.builtin_config}

    def has_builtin_gm(self, config: Mapping[str, Any]) -> bool:
        """Return True when ``config`` leaves the GM to the engine."""
        return all(config.get(key) == value for key, value in self.builtin_config.items())


def seat_order(roles: Sequence[str], index: int) -> list[int]:
    """Return game ``index``'s seats (seat -> series player): the player seats rotate, the GM keeps its seat.

    The series players are in seat order of game 0 (the GM, when there is
    one, is the last); after as many games as there are player seats each
    player bot has sat each player position once.
    """
    players = [seat for seat, role in enumerate(roles) if role == PLAYER]
    count = len(players)
    order = list(range(len(roles)))
    for position, seat in enumerate(players):
        order[seat] = players[(position + index) % count]
    return order


def game_side(game: GameRecord, roles: Sequence[str]) -> int:
    """Return how one recorded game went for the players: WIN, DRAW or LOSS.

    ``roles`` are the series players' roles. A forfeit gives the game to the
    forfeiter's other side; otherwise the players' return decides (the engine
    gives the players +1 for a win, −1 for a loss, 0 for a level game), and a
    record without returns falls back on its winners.
    """
    if game.forfeit is not None:
        return LOSS if roles[game.forfeit.player] == PLAYER else WIN
    first_player = roles.index(PLAYER)
    if game.returns:
        value = game.returns[first_player]
        return WIN if value > 0 else LOSS if value < 0 else DRAW
    winners = game.winners
    if any(roles[w] == PLAYER for w in winners):
        return WIN
    if any(roles[w] == GM for w in winners) or GM not in roles:
        return LOSS
    return DRAW


def series_sides(games: Sequence[GameRecord], roles: Sequence[str]) -> tuple[int, int, int]:
    """Return ``(players' wins, draws, GM's wins)`` over a series' recorded games."""
    results = [game_side(game, roles) for game in games]
    return results.count(WIN), results.count(DRAW), results.count(LOSS)


def series_result(games: Sequence[GameRecord], roles: Sequence[str]) -> int:
    """Return the series for the players: WIN when they won more games than the GM, LOSS when fewer, else DRAW."""
    won, _drawn, lost = series_sides(games, roles)
    return WIN if won > lost else LOSS if won < lost else DRAW


def win_turns(game: GameRecord, roles: Sequence[str]) -> int | None:
    """Return the turns the players took to win ``game``, or None when they did not win it by the rules."""
    if game.forfeit is not None or game_side(game, roles) != WIN:
        return None
    turns = game.stat(roles.index(PLAYER), "turns")
    return turns if is_integer(turns) else None


#: The normal quantile of a two-sided 95 % interval.
Z_975 = 1.959963984540054


def wilson_interval(wins: float, games: int, z: float = Z_975) -> tuple[float, float]:
    """Return the Wilson score interval of a win rate of ``wins`` in ``games`` (0, 1 when there are none).

    ``wins`` may be fractional (the web's records count a drawn series as half a win).

    (p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n): unlike the normal
    approximation it stays within 0 and 1 and is honest at 0 or n wins.
    """
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    z2 = z * z
    centre = p + z2 / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games))
    denominator = 1 + z2 / games
    # It always holds p; rounding can put an end a hair inside it at 0 or n wins (1 - 1e-16).
    low, high = (centre - spread) / denominator, (centre + spread) / denominator
    return max(0.0, min(p, low)), min(1.0, max(p, high))
