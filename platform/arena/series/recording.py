"""Record a finished series exactly once: games, series points, TrueSkill ratings and their history.

``record_series_result`` runs in one transaction that first locks the season
row, so the rating updates of a season are applied one at a time in the
order they commit, whatever the number of platform workers; it then locks the
series row, and a series already ``done`` is left alone, so a duplicate
delivery or a retried task changes nothing. The result goes to the
append-only :class:`SeriesResultLog` (unique per series) in the same
transaction, which makes the log's id order the order the ratings moved in:
:func:`recompute_season` replays it and must land on the stored ratings.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from arena.ratings.closed_form import DRAW, WIN_A, WIN_B, TrueSkillParameters, recompute
from arena.ratings.forfeits import FORFEIT_MIN_SERIES, check_forfeit_rate, forfeit_by
from arena.ratings.models import Rating, RatingHistory
from arena.seasons.models import Season
from arena.series.models import GameRecord, Series, SeriesResultLog, SeriesState

#: A version's rating counts as provisional until it has played this many series.
PROVISIONAL_SERIES = 10
#: Per game, the chance that a series between equals ends level on points (measured for
#: Watch: 3-17 % between reference bots, docs/cli.md); everything else is the package default
#: but τ, kept small because a version's code never changes.
DRAW_PROBABILITY = {"watch": 0.10}


def season_parameters(season: Season) -> TrueSkillParameters:
    """Return the TrueSkill constants of ``season``."""
    defaults = TrueSkillParameters()
    return TrueSkillParameters(
        mu=defaults.mu,
        sigma=defaults.sigma,
        beta=defaults.beta,
        tau=defaults.sigma / 100,
        draw_probability=DRAW_PROBABILITY.get(season.game, defaults.draw_probability),
    )


def series_outcome(document: dict[str, Any]) -> int:
    """Return WIN_A, DRAW or WIN_B for seat 0 against seat 1, from the Watch series points."""
    winner = document["score"]["winner"]
    return DRAW if winner is None else WIN_A if winner == 0 else WIN_B


class RecordingError(ValueError):
    """A result that does not fit its series (wrong seats or players)."""


def record_series_result(series_id: int, document: dict[str, Any]) -> bool:
    """Apply a finished series' result document; return False when it was already recorded."""
    with transaction.atomic():
        season_id = Series.objects.values_list("season_id", flat=True).get(pk=series_id)
        season = Season.objects.select_for_update().get(pk=season_id)  # one season's updates, one at a time
        series = Series.objects.select_for_update().get(pk=series_id)
        if series.state == SeriesState.DONE:
            return False
        seats = list(series.seats.order_by("seat").select_related("version"))
        versions = [seat.version for seat in seats]
        if len(versions) != 2 or len(document.get("players", [])) != 2:
            raise RecordingError(f"series {series_id}: two-player results only so far, got {len(versions)} seats")
        for seat, player in zip(seats, document["players"], strict=True):
            if player.get("sha256") != seat.version.archive_sha256:
                raise RecordingError(
                    f"series {series_id}: seat {seat.seat} ran {player.get('sha256')}, not its version"
                )
        SeriesResultLog.objects.create(series=series, result=document)
        for game in document["games"]:
            winners = game.get("winners") or []
            GameRecord.objects.create(
                series=series,
                index=game["index"],
                winner=versions[winners[0]] if len(winners) == 1 else None,
                reason=game["reason"],
                moves=[game["stats"].get(str(p), {}).get("moves", 0) for p in range(len(versions))],
                forfeit=game["forfeit"],
            )
        params = season_parameters(season)
        ratings = [rating_for(season, version, params) for version in versions]
        outcome = series_outcome(document)
        # The same one call recompute_season makes per logged series: bit for bit the same numbers.
        before = {0: (ratings[0].mu, ratings[0].sigma), 1: (ratings[1].mu, ratings[1].sigma)}
        after = recompute([(0, 1, outcome)], params, initial=before)
        new_a, new_b = after[0], after[1]
        score = document["score"]
        for index, (rating, (mu, sigma)) in enumerate(zip(ratings, (new_a, new_b), strict=True)):
            rating.mu, rating.sigma = mu, sigma
            rating.series_played += 1
            if outcome == DRAW:
                rating.drawn += 1
            elif (outcome == WIN_A) == (index == 0):
                rating.won += 1
            else:
                rating.lost += 1
            rating.series_points += Decimal(str(score["points"][index]))
            rating.game_wins += score["game_wins"][index]
            rating.provisional = rating.series_played < PROVISIONAL_SERIES
            rating.save()
            RatingHistory.objects.create(season=season, version=rating.version, series=series, mu=mu, sigma=sigma)
        series.state = SeriesState.DONE
        series.result = document
        series.finished_at = timezone.now()
        series.save(update_fields=["state", "result", "finished_at"])
        for player, (version, rating) in enumerate(zip(versions, ratings, strict=True)):
            # The rate can only cross the limit with a forfeit of this series, or on
            # the series that brings the version to the minimum count: check then only
            # (the count searches every logged result of the version in the season).
            forfeited_now = any(forfeit_by(game) == player for game in document["games"])
            if forfeited_now or rating.series_played == FORFEIT_MIN_SERIES:
                check_forfeit_rate(season, version)
    return True


def rating_for(season: Season, version: Any, params: TrueSkillParameters) -> Rating:
    """Return the version's locked rating row in ``season``, seeding it (and its history) if new."""
    rating = Rating.objects.select_for_update().filter(season=season, version=version).first()
    if rating is None:
        rating = Rating.objects.create(season=season, version=version, mu=params.mu, sigma=params.sigma)
        RatingHistory.objects.create(season=season, version=version, series=None, mu=params.mu, sigma=params.sigma)
    return rating


def recompute_season(season: Season) -> dict[int, tuple[float, float]]:
    """Return every version's (μ, σ) from replaying the season's result log from its seeds."""
    params = season_parameters(season)
    seeds = {
        row.version_id: (row.mu, row.sigma)
        for row in RatingHistory.objects.filter(season=season, series=None).order_by("id")
    }
    logs = SeriesResultLog.objects.filter(series__season=season).order_by("id").select_related("series")
    seats = {}
    for series_id, seat, version_id in Series.objects.filter(season=season).values_list(
        "id", "seats__seat", "seats__version_id"
    ):
        seats[(series_id, seat)] = version_id
    # One series at a time from the (μ, σ) pairs, exactly as record_series_result stores
    # them: carrying the variance from step to step instead (what recompute() does for
    # a whole sequence) differs in the last bit often enough to break equality.
    ratings = dict(seeds)
    for log in logs:
        a, b = seats[(log.series_id, 0)], seats[(log.series_id, 1)]
        before = {0: ratings.get(a, (params.mu, params.sigma)), 1: ratings.get(b, (params.mu, params.sigma))}
        after = recompute([(0, 1, series_outcome(log.result))], params, initial=before)
        ratings[a], ratings[b] = after[0], after[1]
    return ratings
