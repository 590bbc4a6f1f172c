"""The operators' view of the pipeline: queue depths, throughput, workers, stuck and failed work, per-season counts.

:func:`collect_status` returns one plain dict (JSON-ready: datetimes as ISO
strings, durations in seconds) that ``manage.py arena_status`` prints and
the staff page /ops/ renders, so both always show the same numbers.

Queue depths come from the broker itself (Redis LLEN of each queue's lists);
workers answer a broadcast (Celery's ``inspect().active_queues()``, which
is a ping that also says which queues each worker consumes). Neither needs
the database; everything else is counted from it.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from arena.bots.submissions import versions_awaiting_validation
from arena.seasons.models import Season
from arena.series.models import Series, SeriesState
from workers.celery_app import MATCHES_QUEUE, PLATFORM_QUEUE
from workers.delivery import RESULTS_STREAM

QUEUES = (MATCHES_QUEUE, PLATFORM_QUEUE)
#: How long to wait for workers to answer the broadcast.
WORKER_REPLY_TIMEOUT_S = 1.0
#: How long to wait for the broker before saying it is unreachable.
BROKER_TIMEOUT_S = 2.0
#: Failed series listed (all are counted).
FAILED_LISTED = 10
NO_BROKER = "in-process (no broker)"


def collect_status(now: datetime | None = None) -> dict[str, Any]:
    """Return the pipeline's status as a JSON-ready dict (see the module docstring)."""
    now = now or timezone.now()
    broker_url = settings.CELERY_BROKER_URL
    return {
        "at": now.isoformat(),
        "broker": _broker_label(broker_url),
        "queues": queue_depths(broker_url),
        "workers": running_workers(broker_url),
        "throughput": series_per_minute(now),
        "oldest_outstanding": oldest_outstanding(now),
        "failed_last_day": failed_since(now - timedelta(days=1)),
        "awaiting_validation": awaiting_validation(now),
        "running_seasons": running_seasons(),
    }


def _broker_label(broker_url: str) -> str:
    """Return the broker URL without its password, or the in-process note."""
    if not broker_url:
        return NO_BROKER
    from kombu.utils.url import maybe_sanitize_url

    return maybe_sanitize_url(broker_url)


def queue_depths(broker_url: str) -> dict[str, Any]:
    """Return {"matches": n, "platform": n, "results": n} waiting, or {"error": ...} / {"note": ...} when unknowable.

    ``results`` counts the entries of the match workers' results stream that no
    drain has acknowledged yet (arena/ratings/inflow.py).
    """
    if not broker_url:
        return {"note": NO_BROKER}
    if not broker_url.startswith(("redis://", "rediss://")):
        return {"note": f"queue depth is read from Redis only, not {broker_url.split(':', 1)[0]}"}
    import redis
    from kombu.transport.redis import PRIORITY_STEPS, Channel

    client = redis.Redis.from_url(broker_url, socket_timeout=BROKER_TIMEOUT_S, socket_connect_timeout=BROKER_TIMEOUT_S)
    try:
        with client.pipeline() as pipe:
            for queue in QUEUES:
                # kombu keeps one list per priority step: the queue's name, then "<name>\x06\x16<step>".
                for step in PRIORITY_STEPS:
                    pipe.llen(queue if step == 0 else f"{queue}{Channel.sep}{step}")
            pipe.xlen(RESULTS_STREAM)
            *sizes, streamed = pipe.execute()
    except redis.RedisError as exc:
        return {"error": f"the broker did not answer ({exc}); is Redis running at {_broker_label(broker_url)}?"}
    finally:
        client.close()
    per_queue = len(PRIORITY_STEPS)
    depths = {queue: sum(sizes[i * per_queue : (i + 1) * per_queue]) for i, queue in enumerate(QUEUES)}
    return {**depths, "results": streamed}


def running_workers(broker_url: str) -> dict[str, Any]:
    """Return {"workers": [{"name", "queues"}], ...} from the workers that answer, or a note with no broker."""
    if not broker_url:
        return {"note": NO_BROKER, "workers": []}
    from celery import Celery

    # A throwaway app on the current broker: the workers answer any app on it, and
    # neither arena.celeryconf's nor workers.celery_app's broker is read twice.
    app = Celery("arena-status", broker=broker_url, fixups=[], set_as_current=False)
    app.conf.broker_connection_retry_on_startup = False
    app.conf.broker_connection_timeout = BROKER_TIMEOUT_S
    try:
        replies = app.control.inspect(timeout=WORKER_REPLY_TIMEOUT_S).active_queues() or {}
    except Exception as exc:  # kombu raises the transport's own errors (OperationalError, OSError, redis errors)
        return {"error": f"could not ask the workers ({exc})", "workers": []}
    finally:
        app.close()
    workers = [
        {"name": name, "queues": sorted(queue["name"] for queue in queues or [])}
        for name, queues in sorted(replies.items())
    ]
    return {"workers": workers}


def series_per_minute(now: datetime) -> dict[str, float]:
    """Return series finished (state done) per minute over the last 5 and 60 minutes."""
    done = Series.objects.filter(state=SeriesState.DONE)
    counts = done.aggregate(
        last_5=Count("pk", filter=Q(finished_at__gte=now - timedelta(minutes=5))),
        last_60=Count("pk", filter=Q(finished_at__gte=now - timedelta(minutes=60))),
    )
    return {"last_5_minutes": counts["last_5"] / 5, "last_60_minutes": counts["last_60"] / 60}


def oldest_outstanding(now: datetime) -> dict[str, Any] | None:
    """Return the oldest queued or running series with its age and deadline, or None when there is none."""
    series = (
        Series.objects.filter(state__in=[SeriesState.QUEUED, SeriesState.RUNNING])
        .select_related("season")
        .order_by("created", "pk")
        .first()
    )
    if series is None:
        return None
    return {
        "id": series.pk,
        "season": series.season.name,
        "state": series.state,
        "created": series.created.isoformat(),
        "age_seconds": round((now - series.created).total_seconds()),
        "deadline": series.deadline.isoformat() if series.deadline else None,
        "overdue": series.deadline is not None and series.deadline < now,
        "attempts": series.attempts,
    }


def failed_since(since: datetime) -> dict[str, Any]:
    """Return the count of series failed since ``since`` and the latest few with their reasons.

    The sweeper fails a series without stamping ``finished_at``, a minute or
    so after its deadline passed, so the deadline stands in for the time of
    failure when ``finished_at`` is empty.
    """
    failed = (
        Series.objects.filter(state=SeriesState.FAILED)
        .annotate(failed_at=Coalesce("finished_at", "deadline", "created"))
        .filter(failed_at__gte=since)
    )
    latest = failed.select_related("season").order_by("-failed_at", "-pk")[:FAILED_LISTED]
    return {
        "count": failed.count(),
        "latest": [
            {
                "id": series.pk,
                "season": series.season.name,
                "failed_at": series.failed_at.isoformat(),
                "attempts": series.attempts,
                "reason": series.failure_reason or "(no reason recorded)",
            }
            for series in latest
        ],
    }


def awaiting_validation(now: datetime) -> dict[str, Any]:
    """Return how many versions wait for their validation series, and how long the oldest has waited."""
    waiting = versions_awaiting_validation()
    oldest = waiting.first()
    return {
        "count": waiting.count(),
        "oldest_seconds": round((now - oldest.uploaded_at).total_seconds()) if oldest else None,
    }


def running_seasons() -> list[dict[str, Any]]:
    """Return per running season: active entries, and its series done, queued and running."""
    seasons = (
        Season.objects.filter(status=Season.Status.RUNNING)
        .annotate(entries_active=Count("entries", filter=Q(entries__active=True), distinct=True))
        .order_by("name")
    )
    rows = []
    for season in seasons:
        states = dict(season.series.order_by().values_list("state").annotate(n=Count("pk")))
        rows.append(
            {
                "id": season.pk,
                "name": season.name,
                "game": season.game,
                "entries": season.entries_active,
                "series_done": states.get(SeriesState.DONE, 0),
                "series_queued": states.get(SeriesState.QUEUED, 0),
                "series_running": states.get(SeriesState.RUNNING, 0),
            }
        )
    return rows


def format_duration(seconds: float | None) -> str:
    """Return ``seconds`` as the largest two units ("2h 05m", "3m 10s", "42s")."""
    if seconds is None:
        return "-"
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h {minutes:02d}m"
    if minutes:
        return f"{minutes}m {secs:02d}s"
    return f"{secs}s"
