"""Rate one series of any number of seats from its ranking: the single step every rating update makes.

Two seats use the closed form of :mod:`arena.ratings.closed_form` (the
package's ``rate_1vs1`` within 1e-9, and much faster: docs/benchmarks.md). More seats use
the trueskill package's own factor graph (``TrueSkill.rate`` with ``ranks``,
ties sharing a rank) in the season's environment with the built-in backend.

The package gives up on some large free-for-alls with very unequal ratings:
its expectation propagation divides by a vanishing number and raises
``FloatingPointError`` (or, in a few corners, ``ZeroDivisionError`` or
``ValueError`` from a negative variance). The series still counts: its seats
are then rated as the chain of their neighbours in the ranking, first against
second, second against third and so on, each step the two-seat closed form;
a pair that is too unlikely for double precision even so is left as it was.
Every step is deterministic, so a season's recompute lands on the same numbers.

A team game's series (engines/teams.py) is rated by :func:`rate_teams`: the
players' team against the GM, with the package's team support.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

import trueskill

from arena.ratings.closed_form import DRAW, WIN_A, WIN_B, MuSigma, TrueSkillParameters, recompute
from engines.teams import LOSS, WIN


@functools.lru_cache(maxsize=64)
def _environment(params: TrueSkillParameters) -> trueskill.TrueSkill:
    return params.to_env()


def ranks_from_points(points: Sequence[float]) -> list[int]:
    """Return each seat's rank from its series points: 0 for the most, equal points sharing a rank."""
    return [sum(other > mine for other in points) for mine in points]


def rate_ranking(before: Sequence[MuSigma], ranks: Sequence[int], params: TrueSkillParameters) -> list[MuSigma]:
    """Return every seat's new ``(mu, sigma)`` after a series that ranked them ``ranks`` (0 best, ties equal)."""
    if len(before) != len(ranks) or len(before) < 2:
        raise ValueError(
            f"need one rank per seat and at least two seats, got {len(before)} ratings, {len(ranks)} ranks"
        )
    if len(before) == 2:
        return _pair(before[0], before[1], ranks[0], ranks[1], params)
    env = _environment(params)
    groups = [(env.create_rating(mu, sigma),) for mu, sigma in before]
    try:
        rated = env.rate(groups, ranks=list(ranks))
    except (FloatingPointError, ZeroDivisionError, ValueError):
        return _neighbour_chain(before, ranks, params)
    return [(group[0].mu, group[0].sigma) for group in rated]


def _pair(a: MuSigma, b: MuSigma, rank_a: int, rank_b: int, params: TrueSkillParameters) -> list[MuSigma]:
    outcome = DRAW if rank_a == rank_b else WIN_A if rank_a < rank_b else WIN_B
    # Exactly the call recording has always made for two seats: stored ratings stay bit for bit the same.
    after = recompute([(0, 1, outcome)], params, initial={0: a, 1: b})
    return [after[0], after[1]]


def _neighbour_chain(before: Sequence[MuSigma], ranks: Sequence[int], params: TrueSkillParameters) -> list[MuSigma]:
    order = sorted(range(len(before)), key=lambda seat: (ranks[seat], seat))
    ratings = list(before)
    for upper, lower in itertools.pairwise(order):
        try:
            ratings[upper], ratings[lower] = _pair(ratings[upper], ratings[lower], ranks[upper], ranks[lower], params)
        except FloatingPointError:
            continue  # too unlikely to rate even as a pair: these two keep their ratings
    return ratings


def rate_teams(
    team: Sequence[MuSigma], gm: MuSigma, result: int, params: TrueSkillParameters
) -> tuple[list[MuSigma], MuSigma]:
    """Return the team's and the GM's new ``(mu, sigma)`` after a team game's series (engines/teams.py).

    ``result`` is the series for the players: ``teams.WIN``, ``teams.DRAW`` or
    ``teams.LOSS``. The package's team support rates the two sides, each player
    weighted 1 / team size (its partial play): the team performs as its players'
    mean, so a GM's rating and a player's share one scale whatever the team's
    size, and a GM at μ 25 is an even match for a team of players at μ 25. A
    series too unlikely for the package's arithmetic leaves every rating as it was.
    """
    env = _environment(params)
    ranks = [0, 1] if result == WIN else [1, 0] if result == LOSS else [0, 0]
    weight = 1 / len(team)
    groups = [tuple(env.create_rating(mu, sigma) for mu, sigma in team), (env.create_rating(*gm),)]
    try:
        rated = env.rate(groups, ranks=ranks, weights=[(weight,) * len(team), (1.0,)])
    except (FloatingPointError, ZeroDivisionError, ValueError):
        return list(team), gm
    return [(r.mu, r.sigma) for r in rated[0]], (rated[1][0].mu, rated[1][0].sigma)
