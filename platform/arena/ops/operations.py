"""What operators do to seasons, bot versions and series: the service functions behind the admin's actions.

Each function takes the object and plain data, locks the rows it changes in
the same order the recorder does (season, then series; bot, then version),
and raises :class:`OperationError` with what to do instead when the action
does not apply. The admin (arena.ops.admin) and any command call these, so the
rules live here once and are tested without a browser.

Choices worth knowing:

* Finishing a season freezes its standings (:class:`FinalStanding`, from the
  ratings, best μ − 3σ first) and cancels its queued and running series, in
  the transaction that moves it to ``finished``.
* Re-running a failed or cancelled series creates a *new* queued series with
  the same seats and a fresh seed, so the old series' history (attempts,
  reason) stays readable and the recorder's exactly-once rules apply to each
  id unchanged. The old one becomes (or stays) ``cancelled``, its
  ``failure_reason`` naming the copy: the recorder takes a failed series'
  late result but never a cancelled one's, so the pairing counts once.
* A disabled version that had passed validation (it was entered in a season,
  seated or rated: only an active version gets any of those) comes back
  ``active``, with its season entries in unfinished seasons; one that never
  had goes back to ``validating`` and its validation series is queued again.
"""

from __future__ import annotations

import random
from typing import Any

from django.db import transaction
from django.utils import timezone

from arena.bots import notices, signals
from arena.bots.models import Bot, BotVersion
from arena.matchmaking.scheduling import SERIES_DEADLINE, enqueue
from arena.ratings.models import Rating
from arena.seasons.models import FinalStanding, Season, SeasonEntry, SeasonTransitionError
from arena.series.models import Series, SeriesSeat, SeriesState

VersionStatus = BotVersion.Status
#: Written into a replaced series' failure_reason; its presence refuses a second re-run.
RERUN_MARKER = "re-run as series "


class OperationError(ValueError):
    """An operator's action that does not apply to this object; the message says what to do instead."""


# Seasons -----------------------------------------------------------------------------------------


def start_season(season: Season) -> Season:
    """Start a created season: the matchmaker pairs its entries from its next tick."""
    return _move(
        season, Season.Status.CREATED, Season.Status.RUNNING, "only a created season can start (a paused one resumes)"
    )


def pause_season(season: Season) -> Season:
    """Pause a running season: no new series are paired; queued and running ones still finish and count."""
    return _move(season, Season.Status.RUNNING, Season.Status.PAUSED, "only a running season can be paused")


def resume_season(season: Season) -> Season:
    """Resume a paused season."""
    return _move(
        season, Season.Status.PAUSED, Season.Status.RUNNING, "only a paused season can resume (a created one starts)"
    )


def finish_season(season: Season, operator: str = "an operator") -> list[FinalStanding]:
    """Finish a running or paused season, freeze its standings and cancel its outstanding series; return the standings.

    All in one transaction holding the season's row lock, the lock the
    recorder takes first, so the standings are the ratings after some
    recorded series and before the next, never half of one.
    """

    with transaction.atomic():
        status = _locked_status(season)
        if status not in (Season.Status.RUNNING, Season.Status.PAUSED):
            raise OperationError(f"Season {season.name!r} is {status}; only a running or paused season can finish")
        _transition(season, Season.Status.FINISHED)
        ratings = Rating.objects.filter(season=season).order_by("role", "-conservative", "-mu", "version_id")
        ranked = []
        counts: dict[str, int] = {}
        for rating in ratings:  # a team game's roles are ranked each on its own (other games: the one role "")
            counts[rating.role] = counts.get(rating.role, 0) + 1
            ranked.append((counts[rating.role], rating))
        standings = FinalStanding.objects.bulk_create(
            FinalStanding(
                season=season,
                rank=rank,
                role=rating.role,
                version_id=rating.version_id,
                mu=rating.mu,
                sigma=rating.sigma,
                series_played=rating.series_played,
                won=rating.won,
                drawn=rating.drawn,
                lost=rating.lost,
                series_points=rating.series_points,
                game_wins=rating.game_wins,
                provisional=rating.provisional,
            )
            for rank, rating in ranked
        )
        Series.objects.filter(season=season, state__in=[SeriesState.QUEUED, SeriesState.RUNNING]).update(
            state=SeriesState.CANCELLED,
            failure_reason=f"cancelled by {operator}: the season finished",
            finished_at=timezone.now(),
        )
    return standings


def _move(season: Season, allowed_from: str, to: str, hint: str) -> Season:
    with transaction.atomic():
        status = _locked_status(season)
        if status != allowed_from:
            raise OperationError(f"Season {season.name!r} is {status}; {hint}")
        return _transition(season, to)


def _locked_status(season: Season) -> str:
    """Lock the season's row and return its stored status (the page the operator acted on may be stale)."""
    return Season.objects.select_for_update().values_list("status", flat=True).get(pk=season.pk)


def _transition(season: Season, to: str) -> Season:
    try:
        season.transition(to)
    except SeasonTransitionError as exc:  # another operator moved it since the page was loaded
        raise OperationError(str(exc)) from None
    return season


# Bot versions ------------------------------------------------------------------------------------


def disable_version(version: BotVersion, reason: str) -> BotVersion:
    """Disable ``version`` with ``reason`` (what its owner reads) and take it out of every season.

    Its ratings, history and recorded series stay; series already queued for
    it still play (cancel them from the series list if they must not).
    """
    reason = reason.strip()
    if not reason:
        raise OperationError(f"Version {version}: give the reason; the owner reads it on their bot's page")
    with transaction.atomic():
        current = _locked(version)
        _set_status(current, VersionStatus.DISABLED, reason)
        SeasonEntry.objects.filter(version=current, active=True).update(active=False)
        notices.version_disabled(current, reason)
    return current


def enable_version(version: BotVersion) -> BotVersion:
    """Undo a disable: back to active (or retired, if a newer version replaced it), or to validation if never passed."""
    with transaction.atomic():
        current = _locked(version)
        if current.status != VersionStatus.DISABLED:
            raise OperationError(
                f"Version {current} is {current.get_status_display()}, not disabled; nothing to re-enable"
            )
        if not passed_validation(current):
            _set_status(
                current, VersionStatus.VALIDATING, "re-enabled by an operator; waiting for its validation series"
            )
            transaction.on_commit(lambda: signals.version_submitted.send(sender=BotVersion, version=current))
            return current
        newer = current.bot.versions.filter(number__gt=current.number, status=VersionStatus.ACTIVE).first()
        if newer is not None:
            _set_status(
                current, VersionStatus.RETIRED, f"re-enabled by an operator; replaced by version {newer.number}"
            )
            return current
        for earlier in current.bot.versions.filter(number__lt=current.number, status=VersionStatus.ACTIVE):
            _set_status(earlier, VersionStatus.RETIRED, f"replaced by version {current.number}")
            SeasonEntry.objects.filter(version=earlier, active=True).update(active=False)
        _set_status(current, VersionStatus.ACTIVE, "re-enabled by an operator")
        SeasonEntry.objects.filter(version=current, active=False).exclude(season__status=Season.Status.FINISHED).update(
            active=True
        )
    return current


def retire_version(version: BotVersion) -> BotVersion:
    """Retire ``version``: it keeps its ratings and record but is paired nowhere again."""
    with transaction.atomic():
        current = _locked(version)
        if current.status in (VersionStatus.RETIRED, VersionStatus.FAILED_VALIDATION):
            raise OperationError(
                f"Version {current} is {current.get_status_display()} and does not play; nothing to retire"
            )
        _set_status(current, VersionStatus.RETIRED, "retired by an operator")
        SeasonEntry.objects.filter(version=current, active=True).update(active=False)
    return current


def passed_validation(version: BotVersion) -> bool:
    """Return whether ``version`` was ever active: entered in a season, seated in a series or rated."""
    return (
        version.season_entries.exists()
        or version.series_seats.exists()
        or version.ratings.exists()
        or version.final_standings.exists()
    )


def _locked(version: BotVersion) -> BotVersion:
    # The bot first, as mark_validation_result does: one bot's status changes happen one at a time.
    Bot.objects.select_for_update().get(pk=version.bot_id)
    return BotVersion.objects.select_for_update().select_related("bot__owner").get(pk=version.pk)


def _set_status(version: BotVersion, status: str, reason: str) -> None:
    version.status, version.status_reason = status, reason
    version.save(update_fields=["status", "status_reason"])


# Series ------------------------------------------------------------------------------------------


def rerun_series(series: Any) -> Any:
    """Queue a fresh copy of a failed or cancelled series (same season and seats, new seed); return the copy.

    A solo season's copy keeps the season's deal seed, so it plays the same deals as every version.

    The copy is sent to the match workers once the transaction commits, like
    the matchmaker's series.
    """

    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=series.season_id)
        old = Series.objects.select_for_update().get(pk=series.pk)
        if old.state not in (SeriesState.FAILED, SeriesState.CANCELLED):
            raise OperationError(f"Series {old.pk} is {old.state}; only a failed or cancelled series can be re-run")
        if RERUN_MARKER in old.failure_reason:
            raise OperationError(f"Series {old.pk} was already {_rerun_note(old.failure_reason)}; re-run that one")
        if season.status != Season.Status.RUNNING:
            raise OperationError(
                f"Series {old.pk}: season {season.name!r} is {season.status}; resume it before re-running its series"
            )
        seats = list(old.seats.order_by("seat").select_related("version__bot__owner"))
        for seat in seats:
            if seat.version.status != VersionStatus.ACTIVE:
                raise OperationError(
                    f"Series {old.pk}: {seat.version} (seat {seat.seat}) is {seat.version.get_status_display()}; "
                    "only active versions play, so this series cannot be re-run"
                )
        new = Series.objects.create(
            season=season,
            # A fresh nonce, so fresh chance; a solo season's copy deals as all its series do (Series.chance_secret).
            seed=random.SystemRandom().getrandbits(31),
            deadline=timezone.now() + SERIES_DEADLINE,
        )
        SeriesSeat.objects.bulk_create(SeriesSeat(series=new, seat=seat.seat, version=seat.version) for seat in seats)
        # Cancelled, so a late result of the old run is not recorded as well (the recorder takes
        # failed series' results, never cancelled ones): the pairing counts once, through the copy.
        old.state = SeriesState.CANCELLED
        old.failure_reason = f"{old.failure_reason} ({RERUN_MARKER}{new.pk})".strip()
        old.save(update_fields=["state", "failure_reason"])
        transaction.on_commit(lambda: enqueue(new))
    return new


def cancel_series(series: Any, reason: str, operator: str = "an operator") -> Any:
    """Cancel a queued or running series with ``reason``: it counts for nobody, and its result must not be recorded."""

    reason = reason.strip()
    if not reason:
        raise OperationError(f"Series {series.pk}: give the reason; it is shown with the series")
    with transaction.atomic():
        Season.objects.select_for_update().get(pk=series.season_id)  # the recorder's order: season, then series
        current = Series.objects.select_for_update().get(pk=series.pk)
        if current.state not in (SeriesState.QUEUED, SeriesState.RUNNING):
            raise OperationError(
                f"Series {current.pk} is {current.state}; only a queued or running series can be cancelled"
            )
        current.state = SeriesState.CANCELLED
        current.failure_reason = f"cancelled by {operator}: {reason}"
        current.finished_at = timezone.now()
        current.save(update_fields=["state", "failure_reason", "finished_at"])
    return current


def _rerun_note(failure_reason: str) -> str:
    return failure_reason[failure_reason.index(RERUN_MARKER) :].rstrip(")")
