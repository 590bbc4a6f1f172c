"""Turn the matchmaker's plan into queued series and send them to the match workers on commit.

``schedule_round`` reads a running season's active entries with their ratings
and running series, asks :func:`arena.matchmaking.pairing.plan_round` for
pairings, creates each ``Series`` (queued, with a deadline) and its seats,
and after the transaction commits enqueues ``run_series`` on the ``matches``
queue linked to ``record_series_result`` on the ``platform`` queue. The spec
a worker gets is self-contained (workers/tasks.py).

A solo season (one player a series, a score ladder) pairs nobody:
``schedule_round`` gives it to :func:`schedule_solo`, which queues one series
for each active entry that has none yet, every one of them with the season's
fixed deal seed. A newly active version gets its solo series at once
(:func:`schedule_new_version`, on ``version_activated``), not at the next beat.

A team game's season (engines/teams.py) pairs its player-role versions as
any season does (``players_per_series`` of them, least played first, nearest
by μ), then gives each group a GM-role version (:func:`pick_gm`: the least
busy, then the nearest by μ to the team's mean μ, never a version or bot of
the group) in the last seat. A season without active GM-role entries plays
its series with the engine's built-in GM instead (no GM seat, the built-in
config merged in: :meth:`~arena.seasons.models.Season.series_config`).

How many series to create is :func:`top_up`'s: with a broker it keeps the
series queued or running at a target depth derived from the match workers'
capacity and shares the free slots fairly between the running seasons
(arena/matchmaking/pace.py); where the capacity cannot be known (no broker:
the embedded default) the beat's fixed slots per season apply.
"""

from __future__ import annotations

import contextlib
import logging
import random
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

from celery import chain
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from arena.bots.artifacts import archive_url
from arena.bots.models import BotVersion
from arena.matchmaking import pace
from arena.matchmaking.pairing import Candidate, MatchmakingPolicy, plan_round
from arena.ratings.models import Rating
from arena.results.recording import apply_pending, season_parameters
from arena.results.tasks import record_series_result_task
from arena.seasons.models import Season, SeasonEntry
from arena.series.models import PendingResult, Series, SeriesSeat, SeriesState
from arena.tasking import broker_redis, is_running, send
from engines import kinds
from engines.teams import GM, PLAYER
from workers.tasks import run_series_task

logger = logging.getLogger(__name__)

#: A queued or running series not done by then is swept back to the queue (or failed).
SERIES_DEADLINE = timedelta(minutes=30)
MAX_ATTEMPTS = 3
#: One top-up at a time, across the platform's processes: the Redis lock's name, how long it is held
#: at most, and how long a second top-up waits for it before leaving the work to the holder.
TOP_UP_LOCK = "arena:matchmaker:top-up"
TOP_UP_LOCK_TTL_S = 60
TOP_UP_LOCK_WAIT_S = 5


def candidates(season: Season, role: str = "") -> list[Candidate]:
    """Return the season's active, playable versions with their rating and load; in a team game those of ``role``."""
    params = season_parameters(season)
    entries = (
        SeasonEntry.objects.filter(season=season, active=True, version__status=BotVersion.Status.ACTIVE)
        .select_related("version")
        .annotate(
            running=Count(
                "version__series_seats",
                filter=Q(version__series_seats__series__state__in=[SeriesState.QUEUED, SeriesState.RUNNING]),
            )
        )
    )
    ratings = {r.version_id: r for r in Rating.objects.filter(season=season, role=role)}
    found = []
    for entry in entries:
        if role and not entry.version.plays_role(role):
            continue
        rating = ratings.get(entry.version_id)
        found.append(
            Candidate(
                version_id=entry.version_id,
                bot_id=entry.version.bot_id,
                mu=rating.mu if rating else params.mu,
                sigma=rating.sigma if rating else params.sigma,
                series_played=rating.series_played if rating else 0,
                running=entry.running,
            )
        )
    return found


def series_spec(series: Series) -> dict[str, Any]:
    """Return the self-contained spec a match worker runs ``series`` from."""
    season = series.season
    seats = []
    for seat in series.seats.order_by("seat").select_related("version__bot"):
        version = seat.version
        seats.append(
            {
                "version_id": version.pk,
                "name": f"{version.bot.name} v{version.number}",
                "sha256": version.archive_sha256,
                "archive": archive_url(version.archive_sha256, version.archive_format),
            }
        )
    return {
        "series_id": series.pk,
        "game": season.game,
        "rules_version": season.rules_version,
        # A team game's series without a GM seat is played with the built-in GM.
        "config": season.series_config(with_gm_bot=len(seats) > season.players_per_series),
        "chance": series.chance_secret(),  # the match worker's only: no bot, page or document gets it
        "games": season.games_per_series,
        "time_control": season.time_control,
        "seats": seats,
    }


def enqueue(series: Series) -> None:
    """Send ``series`` to the match workers; its result comes back to the platform queue.

    With a broker the worker publishes the result itself (``"deliver"``, which
    keeps it in the worker's outbox when the broker refuses: workers/delivery.py)
    and the message's task id names the series (``series-<id>-<nonce>``), which
    is how the inventory (arena.matchmaking.inventory) finds it in Redis. In
    process (the embedded default, tests) it is the chain of the two tasks.
    """

    spec = series_spec(series)
    if run_series_task.app.conf.task_always_eager or is_running():
        send(
            chain(
                run_series_task.s(spec).set(queue="matches"),
                record_series_result_task.s().set(queue="platform"),
            )
        )
        return
    run_series_task.apply_async((dict(spec, deliver=True),), queue="matches", task_id=series_task_id(series.pk))


def series_task_id(series_id: int) -> str:
    """Return a fresh task id naming series ``series_id``: each sending of a series is its own message."""
    return f"series-{series_id}-{uuid.uuid4().hex[:12]}"


def schedule_round(
    season: Season, slots: int, policy: MatchmakingPolicy | None = None, rng: random.Random | None = None
) -> list[Series]:
    """Create up to ``slots`` series for ``season`` and enqueue them once committed."""
    if season.status != Season.Status.RUNNING or slots <= 0:
        return []
    return SCHEDULERS[season.kind.ranking](season, slots, policy, rng)


def schedule_groups(
    season: Season, slots: int, policy: MatchmakingPolicy | None, rng: random.Random | None
) -> list[Series]:
    """Create up to ``slots`` series of a rated ``season``, its versions grouped as its kind groups them."""
    policy = policy or MatchmakingPolicy(group_size=season.players_per_series, beta=season_parameters(season).beta)
    rng = rng or random.Random()
    created = []
    with transaction.atomic():
        Season.objects.select_for_update(no_key=True).get(pk=season.pk)  # one matchmaker per season at a time
        groups = GROUPINGS[season.kind.ranking](season, slots, policy, rng)
        for group in groups:
            series = Series.objects.create(
                season=season, seed=rng.getrandbits(31), deadline=timezone.now() + SERIES_DEADLINE
            )
            for seat, version_id in enumerate(group):
                SeriesSeat.objects.create(series=series, seat=seat, version_id=version_id)
            created.append(series)
            transaction.on_commit(lambda series=series: enqueue(series))
    # A result delivered while this held the season's lock went to the inbox for the holder to apply.
    if PendingResult.objects.filter(season=season).exists():
        apply_pending(season.pk)
    return created


def top_up(slots_per_season: int, depth_per_process: int, fallback: bool = True) -> int:
    """Queue series so that as many are queued or running as the match workers' capacity asks; return how many.

    The target is ``capacity x depth_per_process`` (arena/matchmaking/pace.py),
    counted over every season's outstanding series; the free slots go to the
    running seasons by :func:`arena.matchmaking.pace.split`, and a season that
    cannot use its whole share (its versions at their caps) leaves the rest to
    the others. When the capacity cannot be known (no broker, Redis not
    answering) or ``depth_per_process`` is 0, it queues up to
    ``slots_per_season`` in every running season as the beat always did, or,
    without ``fallback``, nothing. One top-up runs at a time.
    """
    client = broker_redis() if depth_per_process > 0 else None
    try:
        capacity = pace.worker_capacity(client)
        if capacity is None:
            if not fallback:
                return 0
            seasons = Season.objects.filter(status=Season.Status.RUNNING).order_by("pk")
            return sum(len(schedule_round(season, slots_per_season)) for season in seasons)
        with one_top_up(client) as ours:
            if not ours:
                return 0  # another top-up holds the lock: it counts what this one would have
            return fill_to(pace.target_depth(capacity, depth_per_process))
    finally:
        if client is not None:
            client.close()


def fill_to(target: int) -> int:
    """Create series in the running seasons until ``target`` are queued or running in all; return how many."""
    outstanding = dict(
        Series.objects.filter(state__in=[SeriesState.QUEUED, SeriesState.RUNNING])
        .values_list("season_id")
        .annotate(n=Count("pk"))
        .order_by()
    )
    free = target - sum(outstanding.values())
    if free <= 0:
        return 0
    seasons = {
        season.pk: season
        for season in Season.objects.filter(status=Season.Status.RUNNING).annotate(
            active_entries=Count(
                "entries",
                filter=Q(entries__active=True, entries__version__status=BotVersion.Status.ACTIVE),
            )
        )
    }
    loads = [
        pace.SeasonLoad(
            season.pk,
            pace.season_weight(season.active_entries, season.players_per_series),
            outstanding.get(season.pk, 0),
        )
        for season in seasons.values()
    ]
    created = 0
    while free > 0 and loads:
        shares = pace.split(free, loads)
        if not shares:
            break
        still_hungry = []
        for load in loads:
            share = shares.get(load.season_id, 0)
            if not share:
                still_hungry.append(load)
                continue
            made = len(schedule_round(seasons[load.season_id], share))
            created += made
            free -= made
            if made == share:  # it could have taken more: it stays for the slots others leave
                still_hungry.append(pace.SeasonLoad(load.season_id, load.weight, load.outstanding + made))
        loads = still_hungry
    return created


@contextlib.contextmanager
def one_top_up(client: Any) -> Iterator[bool]:
    """Hold the top-up lock in Redis while inside; yield False when another top-up kept it too long."""
    import redis

    lock = client.lock(TOP_UP_LOCK, timeout=TOP_UP_LOCK_TTL_S, blocking_timeout=TOP_UP_LOCK_WAIT_S)
    try:
        got = lock.acquire()
    except redis.RedisError as exc:
        logger.warning("matchmaker: the top-up lock could not be taken (%s); topping up without it", exc)
        yield True
        return
    try:
        yield bool(got)
    finally:
        if got:
            with contextlib.suppress(redis.RedisError):
                lock.release()


def rated_groups(season: Season, slots: int, policy: MatchmakingPolicy, rng: random.Random) -> list[tuple[int, ...]]:
    """Return up to ``slots`` groups of a season rated on one leaderboard: close ratings, fresh opponents."""
    return plan_round(candidates(season), slots, policy, rng)


def team_groups(season: Season, slots: int, policy: MatchmakingPolicy, rng: random.Random) -> list[tuple[int, ...]]:
    """Return up to ``slots`` seatings of a team season: the player-role versions, then a GM-role version if any.

    Without active GM-role entries every group is the players alone (the built-in GM plays); with them, a
    group for which no GM is free this round waits for a later one.
    """
    players = candidates(season, PLAYER)
    gms = candidates(season, GM)
    groups = plan_round(players, slots, policy, rng)
    if not gms:
        return groups
    busy = Counter(version for group in groups for version in group)
    by_version = {candidate.version_id: candidate for candidate in players}
    seated = []
    for group in groups:
        team = [by_version[version] for version in group]
        gm = pick_gm(team, gms, busy, policy.max_concurrent_per_version)
        if gm is not None:
            busy[gm.version_id] += 1
            seated.append((*group, gm.version_id))
    return seated


def pick_gm(team: list[Candidate], gms: list[Candidate], busy: Counter[int], cap: int) -> Candidate | None:
    """Return the GM for ``team``: the least played of the free GM-role versions, then the nearest by μ to the
    team's mean μ, then the lowest id; never a version or a bot of the team. None when none is free.

    ``busy`` counts the series each version was given earlier in this round (in either role); a version
    at ``cap`` series at once is not free.
    """
    mean_mu = sum(member.mu for member in team) / len(team)
    taken_versions = {member.version_id for member in team}
    taken_bots = {member.bot_id for member in team}
    free = [
        gm
        for gm in gms
        if gm.version_id not in taken_versions
        and gm.bot_id not in taken_bots
        and gm.running + busy[gm.version_id] < cap
    ]
    if not free:
        return None
    return min(
        free,
        key=lambda gm: (gm.series_played + gm.running + busy[gm.version_id], abs(gm.mu - mean_mu), gm.version_id),
    )


#: Series states that give a version its solo series: a failed or cancelled one is played again.
SOLO_SERIES_KEPT = (SeriesState.QUEUED, SeriesState.RUNNING, SeriesState.DONE)


def schedule_solo(season: Season, slots: int, version_ids: list[int] | None = None) -> list[Series]:
    """Create a one-player series for up to ``slots`` active entries of solo ``season`` that have none; enqueue them.

    An entry has its series while one is queued, running or done; a series
    that failed (swept past its attempts, its result refused) or was cancelled
    leaves it without, so it is played again, as a rated ladder goes on
    pairing a version whose series failed. Entries are served in the order
    they joined; ``version_ids`` keeps to those versions. Every series draws
    its chance from the season's :attr:`~arena.seasons.models.Season.deal_secret`
    (:meth:`~arena.series.models.Series.chance_secret`), so all versions play
    the same deals.
    """
    if season.status != Season.Status.RUNNING or season.kind.ranking != kinds.SCORE_LADDER or slots <= 0:
        return []
    created = []
    with transaction.atomic():
        Season.objects.select_for_update(no_key=True).get(pk=season.pk)  # one scheduler per season at a time
        served = SeriesSeat.objects.filter(series__season=season, series__state__in=SOLO_SERIES_KEPT)
        entries = (
            SeasonEntry.objects.filter(season=season, active=True, version__status=BotVersion.Status.ACTIVE)
            .exclude(version_id__in=served.values("version_id"))
            .order_by("joined_at", "pk")
        )
        if version_ids is not None:
            entries = entries.filter(version_id__in=version_ids)
        for version_id in entries.values_list("version_id", flat=True)[:slots]:
            series = Series.objects.create(
                season=season, seed=random.SystemRandom().getrandbits(31), deadline=timezone.now() + SERIES_DEADLINE
            )
            SeriesSeat.objects.create(series=series, seat=0, version_id=version_id)
            created.append(series)
            transaction.on_commit(lambda series=series: enqueue(series))
    return created


def schedule_new_version(sender: Any, version: BotVersion, **kwargs: Any) -> list[Series]:
    """Queue the new version's series in each running solo season it entered; return them.

    A step of ``version_activated`` (arena/ops/receivers.py), called after the
    version was entered into its seasons (arena.results.entries), so its
    entries exist; the rated seasons pair it at the next beat.
    """
    seasons = Season.objects.filter(
        status=Season.Status.RUNNING, players_per_series=1, entries__version=version, entries__active=True
    ).order_by("pk")
    return [series for season in seasons for series in schedule_solo(season, 1, [version.pk])]


#: How each ranking of engines/kinds.py groups a rated season's versions into series.
GROUPINGS: dict[str, Callable[[Season, int, MatchmakingPolicy, random.Random], list[tuple[int, ...]]]] = {
    kinds.RATED: rated_groups,
    kinds.RATED_PER_ROLE: team_groups,
}

#: The matchmaking layer's table of the kinds of game, keyed by their ranking: how a round is scheduled.
SCHEDULERS: dict[str, Callable[[Season, int, MatchmakingPolicy | None, random.Random | None], list[Series]]] = {
    kinds.RATED: schedule_groups,
    kinds.RATED_PER_ROLE: schedule_groups,
    kinds.SCORE_LADDER: lambda season, slots, _policy, _rng: schedule_solo(season, slots),
}


def sweep_overdue(now: Any = None) -> tuple[int, int]:
    """Requeue series stuck past their deadline, or fail them after MAX_ATTEMPTS; return (requeued, failed)."""
    now = now or timezone.now()
    requeued = failed = 0
    overdue = Series.objects.filter(state__in=[SeriesState.QUEUED, SeriesState.RUNNING], deadline__lt=now)
    for series_id in overdue.values_list("pk", flat=True):
        with transaction.atomic():
            series = Series.objects.select_for_update().get(pk=series_id)
            if series.state not in (SeriesState.QUEUED, SeriesState.RUNNING) or series.deadline >= now:
                continue
            series.attempts += 1
            if series.attempts >= MAX_ATTEMPTS:
                series.state = SeriesState.FAILED
                series.finished_at = now
                series.failure_reason = f"not done after {series.attempts} attempts (a {SERIES_DEADLINE} deadline each)"
                failed += 1
            else:
                series.state = SeriesState.QUEUED
                series.deadline = now + SERIES_DEADLINE
                requeued += 1
                transaction.on_commit(lambda series=series: enqueue(series), robust=True)
            series.save(update_fields=["state", "attempts", "deadline", "finished_at", "failure_reason"])
    return requeued, failed
