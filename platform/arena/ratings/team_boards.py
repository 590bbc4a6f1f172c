"""A team game's season has two leaderboards: its player bots and its GM bots, each rated on its own.

A version of a team game is rated per role (``Rating.role``, engines/teams.py).
:func:`team_board` lists one role's ratings best conservative rating first. In
a season played with the engine's built-in GM (no GM-role version has a
rating), each player row also gives its win rate over the games played, with
the Wilson 95 % interval, and its mean turns to win: the built-in GM sits at
a fixed rating, so the win rate against it is a measure on its own.
"""

from __future__ import annotations

from dataclasses import dataclass

import engines
from arena.ratings.models import Rating
from arena.seasons.models import Season
from engines.teams import GM, PLAYER, wilson_interval

#: The leaderboards of a team season, in the order the season page shows them.
ROLE_BOARDS = ((PLAYER, "Player bots"), (GM, "GM bots"))


@dataclass(frozen=True)
class TeamRow:
    """One line of a team season's leaderboard: the rating, and against the built-in GM the win rate and turns."""

    rank: int
    rating: Rating
    #: Games won over games played; None before the first game.
    win_rate: float | None = None
    #: The Wilson 95 % interval of the win rate.
    low: float = 0.0
    high: float = 1.0
    #: The mean turns of the games the team won by the rules; None when it won none.
    turns_to_win: float | None = None


def played_with_builtin_gm(season: Season) -> bool:
    """Return True when no GM bot has a rating in the team season ``season``: the built-in GM plays the GM."""
    return not Rating.objects.filter(season=season, role=GM).exists()


def builtin_gm(season: Season) -> dict[str, object]:
    """Return the team game's built-in GM as the pages show it: its label and fixed μ and σ."""
    rules = engines.declaration(season.game).teams
    assert rules is not None
    return {"label": rules.builtin_label, "mu": rules.builtin_mu, "sigma": rules.builtin_sigma}


def team_board(season: Season, role: str) -> list[TeamRow]:
    """Return ``role``'s ratings in team season ``season``, best μ − 3σ first (equal ones share a rank).

    The player board of a season played with the built-in GM also carries each
    version's win rate, its interval and its mean turns to win.
    """
    ratings = list(
        Rating.objects.filter(season=season, role=role)
        .select_related("version__bot__owner")
        .order_by("-conservative", "-mu", "version_id")
    )
    with_rates = role == PLAYER and played_with_builtin_gm(season)
    rows = []
    for index, rating in enumerate(ratings):
        rank = rows[-1].rank if rows and rows[-1].rating.conservative == rating.conservative else index + 1
        if not with_rates or not rating.games_played:
            rows.append(TeamRow(rank=rank, rating=rating))
            continue
        low, high = wilson_interval(rating.game_wins, rating.games_played)
        rows.append(
            TeamRow(
                rank=rank,
                rating=rating,
                win_rate=rating.game_wins / rating.games_played,
                low=low,
                high=high,
                turns_to_win=rating.win_turns / rating.game_wins if rating.game_wins else None,
            )
        )
    return rows
