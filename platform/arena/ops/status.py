"""The operators' view of the pipeline: queue depths, throughput, workers, stuck and failed work, per-season counts.

:func:`collect_status` returns one plain dict (JSON-ready: datetimes as ISO
strings, durations in seconds) that ``manage.py arena_status`` prints and
the staff page /ops/ renders, so both always show the same numbers.

Queue depths come from the broker itself (Redis LLEN of each queue's lists);
workers answer a broadcast (Celery's ``inspect().active_queues()``, which
is a ping that also says which queues each worker consumes). The match
workers' health (:func:`worker_health`: which took themselves out and why,
their infrastructure failures) and the counts of series sent again
(:func:`resend_counts`) are read from the records the workers and the
inventory keep in Redis (workers/health.py). None of these needs the
database; everything else is counted from it.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from arena.bots.submissions import versions_awaiting_validation
from arena.matchmaking import pace
from arena.matchmaking.inventory import RESENDS_COUNTER
from arena.seasons.models import Season
from arena.series.models import Series, SeriesState
from workers import health
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
        "worker_health": worker_health(broker_url, now),
        "resends": resend_counts(broker_url),
        "pace": matchmaker_pace(broker_url),
        "queue_wait": queue_wait(now),
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
    drain has acknowledged yet (arena/results/inflow.py).
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


def _redis(broker_url: str) -> Any:
    """Return a Redis client of the broker with the status's timeouts, or None when the broker is not Redis."""
    if not broker_url.startswith(("redis://", "rediss://")):
        return None
    import redis

    return redis.Redis.from_url(broker_url, socket_timeout=BROKER_TIMEOUT_S, socket_connect_timeout=BROKER_TIMEOUT_S)


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value or "")


def _number(value: Any) -> float | None:
    try:
        return float(_text(value))
    except ValueError:
        return None


def worker_health(broker_url: str, now: datetime) -> dict[str, Any]:
    """Return the match workers' own records (workers/health.py): which take series, which took themselves out and why.

    ``{"workers": [{"name", "state" ("ok"/"out"), "reason", "out_seconds", "back_in_seconds",
    "series_played", "infrastructure_failures", "last_failure", "times_out"}]}``, or a note or an error.
    Each record expires about half a minute after its worker stopped refreshing it: a worker that is gone is
    not listed.
    """
    client = _redis(broker_url)
    if client is None:
        return {"note": NO_BROKER if not broker_url else "worker health is kept in Redis only", "workers": []}
    import redis

    try:
        keys = sorted(client.scan_iter(match=f"{health.WORKER_PREFIX}*", count=1000))
        with client.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.hgetall(key)
            records = pipe.execute()
    except redis.RedisError as exc:
        return {"error": f"the broker did not answer ({exc})", "workers": []}
    finally:
        client.close()
    at = now.timestamp()
    rows = []
    for key, record in zip(keys, records, strict=True):
        fields = {_text(name): value for name, value in record.items()}
        if not fields:
            continue
        since, back_at = _number(fields.get("since")), _number(fields.get("back_at"))
        out = _text(fields.get("state")) == "out"
        rows.append(
            {
                "name": _text(fields.get("worker")) or _text(key).removeprefix(health.WORKER_PREFIX),
                "state": "out" if out else "ok",
                "reason": _text(fields.get("reason")) if out else "",
                "out_seconds": round(at - since) if out and since else None,
                "back_in_seconds": max(0, round(back_at - at)) if out and back_at else None,
                "series_played": int(_number(fields.get("series_played")) or 0),
                "infrastructure_failures": int(_number(fields.get("infrastructure_failures")) or 0),
                "last_failure": _text(fields.get("last_failure")),
                "times_out": int(_number(fields.get("times_out")) or 0),
            }
        )
    return {"workers": rows}


#: The counters of series sent again, in Redis: the inventory's resends, the workers' retries and give-ups.
RESEND_COUNTERS = {
    "resent": RESENDS_COUNTER,
    "retried": health.RETRIED_COUNTER,
    "given_up": health.GIVEN_UP_COUNTER,
}


def resend_counts(broker_url: str) -> dict[str, Any]:
    """Return how many times series were sent again: ``resent`` (lost, by the inventory), ``retried`` (back to
    the queue after failing on a worker) and ``given_up`` (failed on the workers too often), since Redis started.
    """
    client = _redis(broker_url)
    if client is None:
        return {"note": NO_BROKER if not broker_url else "these counts are kept in Redis only"}
    import redis

    try:
        values = client.mget(list(RESEND_COUNTERS.values()))
    except redis.RedisError as exc:
        return {"error": f"the broker did not answer ({exc})"}
    finally:
        client.close()
    return {name: int(_number(value) or 0) for name, value in zip(RESEND_COUNTERS, values, strict=True)}


def _label(value: str) -> str:
    """Return ``value`` escaped for a label of Prometheus's text format."""
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def health_metrics(broker_url: str, now: datetime) -> list[tuple[str, str, str, list[tuple[str, float]]]]:
    """Return the match workers' health and the resend counts as Prometheus metrics (from Redis only).

    Each is ``(name, type, help, [(labels, value)])``, as /ops/metrics writes them.
    """
    workers = worker_health(broker_url, now)["workers"]
    counts = resend_counts(broker_url)
    named = [(f'{{worker="{_label(w["name"])}"}}', w) for w in workers]
    return [
        ("arena_worker_up", "gauge", "1 while a match worker takes series, 0 while it has taken itself out.",
         [(labels, 0.0 if w["state"] == "out" else 1.0) for labels, w in named]),
        ("arena_worker_out_info", "gauge", "A match worker that took itself out, and why.",
         [(f'{{worker="{_label(w["name"])}",reason="{_label(w["reason"])}"}}', 1.0)
          for w in workers if w["state"] == "out"]),
        ("arena_worker_infrastructure_failures_total", "counter",
         "Series a match worker failed for reasons of its own (disk, sandbox, artifact store).",
         [(labels, float(w["infrastructure_failures"])) for labels, w in named]),
        ("arena_worker_series_played_total", "counter", "Series a match worker played to the end.",
         [(labels, float(w["series_played"])) for labels, w in named]),
        ("arena_series_resent_total", "counter", "Series the inventory found lost and sent again.",
         [("", float(counts["resent"]))] if "resent" in counts else []),
        ("arena_series_retried_total", "counter", "Series that failed on a match worker and went back to the queue.",
         [("", float(counts["retried"]))] if "retried" in counts else []),
        ("arena_series_given_up_total", "counter", "Series the match workers gave up (failed on them too often).",
         [("", float(counts["given_up"]))] if "given_up" in counts else []),
    ]  # fmt: skip


def series_per_minute(now: datetime) -> dict[str, float]:
    """Return series finished (state done) per minute over the last 5 and 60 minutes."""
    done = Series.objects.filter(state=SeriesState.DONE)
    counts = done.aggregate(
        last_5=Count("pk", filter=Q(finished_at__gte=now - timedelta(minutes=5))),
        last_60=Count("pk", filter=Q(finished_at__gte=now - timedelta(minutes=60))),
    )
    return {"last_5_minutes": counts["last_5"] / 5, "last_60_minutes": counts["last_60"] / 60}


#: The queue wait is measured over the series recorded in this window, at most this many of them.
WAIT_WINDOW = timedelta(minutes=5)
WAIT_SAMPLE = 10_000


def queue_wait(now: datetime, window: timedelta = WAIT_WINDOW) -> dict[str, Any]:
    """Return how long the series recorded in the last ``window`` waited in the queue: count, p50, p95, max (s).

    The wait runs from the series' creation (the matchmaker's clock) to its
    ``started_at`` (the match worker's clock, from the result document; a
    negative difference, clocks apart, counts as 0). A series whose result did
    not say when it started is left out. Quantiles by the nearest rank.
    """
    rows = (
        Series.objects.filter(state=SeriesState.DONE, finished_at__gte=now - window, started_at__isnull=False)
        .order_by("-finished_at")
        .values_list("created", "started_at")[:WAIT_SAMPLE]
    )
    waits = sorted(max(0.0, (started - created).total_seconds()) for created, started in rows)
    if not waits:
        return {"count": 0, "p50": None, "p95": None, "max": None}
    return {
        "count": len(waits),
        "p50": nearest_rank(waits, 0.5),
        "p95": nearest_rank(waits, 0.95),
        "max": waits[-1],
    }


def nearest_rank(ordered: list[float], quantile: float) -> float:
    """Return the ``quantile`` of the sorted, non-empty ``ordered`` by the nearest-rank method."""
    return ordered[max(0, math.ceil(quantile * len(ordered)) - 1)]


def matchmaker_pace(broker_url: str) -> dict[str, Any]:
    """Return what the matchmaker sees: the match workers' ``capacity`` (processes, workers) and its ``target``.

    ``{"capacity": n, "workers": n, "target": n}``; ``target`` is None when the
    pace is off (ARENA_MATCHMAKER_DEPTH_PER_PROCESS 0). A note or an error
    instead when the capacity cannot be known: the matchmaker then queues its
    fixed slots per season.
    """
    client = _redis(broker_url)
    if client is None:
        return {"note": NO_BROKER if not broker_url else "the match workers' capacity is read from Redis only"}
    import redis

    try:
        capacity = pace.read_capacity(client)
    except redis.RedisError as exc:
        return {"error": f"the broker did not answer ({exc})"}
    finally:
        client.close()
    per_process = settings.ARENA_MATCHMAKER_DEPTH_PER_PROCESS
    target = pace.target_depth(capacity, per_process) if per_process > 0 else None
    return {"capacity": capacity.processes, "workers": capacity.workers, "target": target}


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
