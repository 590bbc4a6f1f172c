"""Record finished series exactly once: games, series points, TrueSkill ratings and their history.

A delivery (:func:`record_series_result`, the ``platform`` queue's task) does
two things. It puts the result in the season's inbox, :class:`PendingResult`,
unique per series, and commits: from then on the result cannot be lost, and a
second delivery of the same series is refused by the unique constraint or, once
applied, by the series' ``done`` state. Then it applies the season's inbox
(:func:`apply_pending`): whoever holds the season row's lock takes every
pending result of the season, oldest first, applies them in one transaction
(bulk inserts and bulk updates, a handful of statements per batch instead of
a dozen per result) and deletes them.

Only one transaction at a time holds a season's lock (``FOR NO KEY UPDATE``
on the season row, as the matchmaker and the seeding of new versions take
it too), so the rating updates
of a season are applied one after another whatever the number of platform
workers. A delivery that finds the lock taken leaves its result to the holder:
the holder looks at the inbox again after it commits, and the result was
committed before the delivery tried the lock, so the holder sees it.

The result goes to the append-only :class:`SeriesResultLog` in the same
transaction, in the order its ratings moved, so the log's id order is the
rating order and :func:`recompute_season` replays it to the same numbers.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from arena.bots.models import BotVersion
from arena.matchmaking.pairing import should_disable
from arena.ratings.closed_form import MuSigma, TrueSkillParameters
from arena.ratings.forfeits import FORFEIT_MIN_SERIES, FORFEIT_THRESHOLD, disable_for_forfeits, forfeit_by
from arena.ratings.models import Rating, RatingHistory
from arena.ratings.ranking import ranks_from_points, rate_ranking
from arena.seasons.models import Season
from arena.series.models import GameRecord, PendingResult, Series, SeriesResultLog, SeriesSeat, SeriesState

logger = logging.getLogger(__name__)

#: A version's rating counts as provisional until it has played this many series.
PROVISIONAL_SERIES = 10
#: Per game, the chance that a series between equals ends level on points. Watch: measured
#: 3-17 % between reference bots (docs/cli.md). Watch race: a series of n games among n
#: players, one point a game, shares the top often (docs/engines.md). Everything else is the
#: package default but τ, kept small because a version's code never changes.
DRAW_PROBABILITY = {"watch": 0.10, "watch_race": 0.20}
#: The fields of a rating row that recording changes.
RATING_COUNTERS = (
    "mu",
    "sigma",
    "series_played",
    "won",
    "drawn",
    "lost",
    "series_points",
    "game_wins",
    "forfeits",
    "provisional",
)
#: Results applied in one transaction at most; the rest wait for the next batch.
BATCH_SIZE = 500
#: States a result may still be recorded in. A failed series (swept too often) still takes its
#: late result: a result is never thrown away. A cancelled one does not: the operator said so.
RECORDABLE = (SeriesState.QUEUED, SeriesState.RUNNING, SeriesState.FAILED)


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


def series_ranks(document: dict[str, Any]) -> list[int]:
    """Return each series player's rank (0 best, ties shared) from the document's series points."""
    return ranks_from_points(document["score"]["points"])


def record_series_result(series_id: int, document: dict[str, Any]) -> bool:
    """Deliver a finished series' result document and apply its season's inbox.

    Return False when the series already has a result (recorded, or waiting in
    the inbox from an earlier delivery) or was cancelled, True when this
    delivery brought it. Raise ``Series.DoesNotExist`` for an unknown series.
    """
    season_id, state = Series.objects.values_list("season_id", "state").get(pk=series_id)
    if state in (SeriesState.DONE, SeriesState.CANCELLED):
        return False
    try:
        with transaction.atomic():
            PendingResult.objects.create(series_id=series_id, season_id=season_id, result=document)
    except IntegrityError:
        return False  # delivered before and not applied yet: the inbox has it
    apply_pending(season_id)
    return True


def apply_pending(season_id: int) -> int:
    """Apply the inbox of season ``season_id`` unless another transaction is applying it; return results applied."""
    applied = 0
    while True:
        with transaction.atomic():
            locked = _season_lock(season_id)
            if locked is None:
                return applied  # the holder of the lock applies ours after its own commit
            batch = list(PendingResult.objects.filter(season_id=season_id).order_by("id")[:BATCH_SIZE])
            if not batch:
                return applied
            applied += _apply_batch(locked, batch)
            PendingResult.objects.filter(pk__in=[p.pk for p in batch]).delete()
        # Committed: anything delivered while we held the lock is in the inbox now; go round again.


def _season_lock(season_id: int) -> Season | None:
    """Return the season row locked by this transaction, or None when another transaction holds it.

    FOR NO KEY UPDATE, the season lock everywhere: it excludes the other holders
    but not the key-share lock an insert referencing the season takes, so a
    delivery's insert into the inbox never waits for a batch being applied.
    """
    return Season.objects.select_for_update(no_key=True, skip_locked=True).filter(pk=season_id).order_by().first()


def apply_all_pending() -> int:
    """Apply every season's inbox (the beat's safety net for a delivery that died before applying)."""
    seasons = PendingResult.objects.values_list("season_id", flat=True).distinct().order_by()
    return sum(apply_pending(season_id) for season_id in list(seasons))


@dataclass
class _Tally:
    """What a batch changes of one rating row, kept in memory until the batch is written."""

    rating: Rating
    forfeited_now: bool = False
    disable_reason: str | None = None
    changed: bool = False


@dataclass
class _Batch:
    season: Season
    params: TrueSkillParameters
    ratings: dict[int, _Tally] = field(default_factory=dict)
    logs: list[SeriesResultLog] = field(default_factory=list)
    games: list[GameRecord] = field(default_factory=list)
    history: list[RatingHistory] = field(default_factory=list)
    seats: list[SeriesSeat] = field(default_factory=list)
    done: list[int] = field(default_factory=list)
    rejected: dict[int, tuple[str, str]] = field(default_factory=dict)  # series -> (state, reason)


def _apply_batch(season: Season, pending: list[PendingResult]) -> int:
    series_by_id = Series.objects.select_for_update(no_key=True).in_bulk([p.series_id for p in pending])
    seats_by_series: dict[int, list[SeriesSeat]] = {}
    for seat in SeriesSeat.objects.filter(series_id__in=series_by_id).select_related("version").order_by("seat"):
        seats_by_series.setdefault(seat.series_id, []).append(seat)
    batch = _Batch(season=season, params=season_parameters(season))
    versions = {seat.version_id for seats in seats_by_series.values() for seat in seats}
    _load_ratings(batch, versions)
    now = timezone.now()
    for item in pending:
        series = series_by_id.get(item.series_id)
        if series is None or series.state not in RECORDABLE:
            continue  # recorded or cancelled meanwhile: this delivery changes nothing
        seats = seats_by_series.get(series.pk, [])
        problem = _misfit(series, seats, item.result)
        if problem:
            logger.warning("series %s: result not recorded: %s", series.pk, problem)
            batch.rejected[series.pk] = (SeriesState.FAILED, f"result rejected: {problem}")
            continue
        if season.status == Season.Status.FINISHED:
            reason = f"{season.name} finished before the result arrived; its standings are final"
            batch.rejected[series.pk] = (SeriesState.CANCELLED, reason)
            continue
        _apply_one(batch, series, seats, item.result)
    _write(batch, now)
    return len(batch.done)


def _misfit(series: Series, seats: list[SeriesSeat], document: dict[str, Any]) -> str | None:
    players = document.get("players")
    if not isinstance(players, list) or len(players) != len(seats) or len(seats) < 2:
        return f"series {series.pk}: the result has {len(players or [])} players for {len(seats)} seats"
    for seat, player in zip(seats, players, strict=True):
        if not isinstance(player, dict) or player.get("sha256") != seat.version.archive_sha256:
            sha = player.get("sha256") if isinstance(player, dict) else None
            return f"series {series.pk}: seat {seat.seat} ran {sha}, not its version"
    return None


def _load_ratings(batch: _Batch, version_ids: Iterable[int]) -> None:
    rows = Rating.objects.select_for_update(no_key=True).filter(season=batch.season, version_id__in=list(version_ids))
    for rating in rows.select_related("version"):
        batch.ratings[rating.version_id] = _Tally(rating)


def _tally_for(batch: _Batch, version: BotVersion) -> _Tally:
    tally = batch.ratings.get(version.pk)
    if tally is None:  # the version's first series in the season: seed the default rating
        params = batch.params
        rating = Rating.objects.create(season=batch.season, version=version, mu=params.mu, sigma=params.sigma)
        batch.history.append(
            RatingHistory(season=batch.season, version=version, series=None, mu=params.mu, sigma=params.sigma)
        )
        tally = batch.ratings[version.pk] = _Tally(rating)
    return tally


def _apply_one(batch: _Batch, series: Series, seats: list[SeriesSeat], document: dict[str, Any]) -> None:
    versions = [seat.version for seat in seats]
    tallies = [_tally_for(batch, version) for version in versions]
    score = document["score"]
    ranks = series_ranks(document)
    before: list[MuSigma] = [(t.rating.mu, t.rating.sigma) for t in tallies]
    after = rate_ranking(before, ranks, batch.params)
    batch.logs.append(SeriesResultLog(series=series, result=document))
    for game in document["games"]:
        winners = game.get("winners") or []
        batch.games.append(
            GameRecord(
                series=series,
                index=game["index"],
                winner=versions[winners[0]] if len(winners) == 1 else None,
                reason=game["reason"],
                moves=[game["stats"].get(str(p), {}).get("moves", 0) for p in range(len(versions))],
                forfeit=game["forfeit"],
            )
        )
    top_shared = ranks.count(0) > 1
    for player, (seat, tally, (mu, sigma)) in enumerate(zip(seats, tallies, after, strict=True)):
        rating = tally.rating
        rating.mu, rating.sigma = mu, sigma
        rating.series_played += 1
        if ranks[player] == 0:
            if top_shared:
                rating.drawn += 1
            else:
                rating.won += 1
        else:
            rating.lost += 1
        rating.series_points += Decimal(str(score["points"][player]))
        rating.game_wins += score["game_wins"][player]
        forfeited = any(forfeit_by(game) == player for game in document["games"])
        rating.forfeits += forfeited
        rating.provisional = rating.series_played < PROVISIONAL_SERIES
        tally.changed = True
        tally.forfeited_now |= forfeited
        # The rate can only cross the limit with a forfeit, or on reaching the minimum count.
        if tally.disable_reason is None and (forfeited or rating.series_played == FORFEIT_MIN_SERIES):
            reason = should_disable(
                rating.forfeits, rating.series_played, threshold=FORFEIT_THRESHOLD, min_series=FORFEIT_MIN_SERIES
            )
            if reason is not None:
                tally.disable_reason = f"{reason} in {batch.season.name}"
        batch.history.append(
            RatingHistory(season=batch.season, version=seat.version, series=series, mu=mu, sigma=sigma)
        )
        seat.points = Decimal(str(score["points"][player]))
        seat.game_wins = score["game_wins"][player]
        seat.rank = ranks[player]
        batch.seats.append(seat)
    batch.done.append(series.pk)


def _write(batch: _Batch, now: Any) -> None:
    # Log first, in rating order: its ids are the order recompute_season replays.
    SeriesResultLog.objects.bulk_create(batch.logs)
    GameRecord.objects.bulk_create(batch.games)
    RatingHistory.objects.bulk_create(batch.history)
    changed = [t.rating for t in batch.ratings.values() if t.changed]
    Rating.objects.bulk_update(
        changed,
        [
            "mu",
            "sigma",
            "series_played",
            "won",
            "drawn",
            "lost",
            "series_points",
            "game_wins",
            "forfeits",
            "provisional",
        ],
    )
    SeriesSeat.objects.bulk_update(batch.seats, ["points", "game_wins", "rank"])
    Series.objects.filter(pk__in=batch.done).update(state=SeriesState.DONE, finished_at=now, failure_reason="")
    for series_id, (state, reason) in batch.rejected.items():
        Series.objects.filter(pk=series_id).update(state=state, failure_reason=reason[:2000])
    for tally in batch.ratings.values():
        if tally.disable_reason:
            disable_for_forfeits(tally.rating.version, tally.disable_reason)


def recompute_season(season: Season) -> dict[int, tuple[float, float]]:
    """Return every version's (μ, σ) from replaying the season's result log from its seeds."""
    params = season_parameters(season)
    seeds = {
        row.version_id: (row.mu, row.sigma)
        for row in RatingHistory.objects.filter(season=season, series=None).order_by("id")
    }
    seats: dict[int, list[int]] = {}
    for series_id, version_id in (
        SeriesSeat.objects.filter(series__season=season)
        .order_by("series_id", "seat")
        .values_list("series_id", "version_id")
    ):
        seats.setdefault(series_id, []).append(version_id)
    ratings = dict(seeds)
    # One series at a time from the (μ, σ) pairs, exactly as recording stores them.
    for series_id, result in (
        SeriesResultLog.objects.filter(series__season=season).order_by("id").values_list("series_id", "result")
    ):
        versions = seats[series_id]
        before = [ratings.get(v, (params.mu, params.sigma)) for v in versions]
        for version, rating in zip(versions, rate_ranking(before, series_ranks(result), params), strict=True):
            ratings[version] = rating
    return ratings
