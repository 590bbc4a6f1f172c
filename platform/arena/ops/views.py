"""The operators' status page (/ops/): what ``manage.py arena_status`` prints, for staff only."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from arena.ops.deadlines import DatabaseAnswer, answer_within
from arena.ops.status import (
    collect_status,
    format_duration,
    health_metrics,
    matchmaker_pace,
    oldest_outstanding,
    queue_depths,
    queue_wait,
    series_per_minute,
)
from arena.series.models import PendingResult, Series, SeriesState


def staff_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Send anonymous visitors to log in; refuse (403) a logged-in user who is not staff."""

    @wraps(view)
    @login_required
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_staff:
            raise PermissionDenied("the operators' status page is for staff; ask an administrator for access")
        return view(request, *args, **kwargs)

    return wrapper


@require_safe
@never_cache
@staff_required
def ops(request: HttpRequest) -> HttpResponse:
    """Render the pipeline's status: queues, workers, throughput, stuck and failed series, seasons."""
    status = collect_status()
    oldest = status["oldest_outstanding"]
    queues, workers = status["queues"], status["workers"]
    context = {
        "status": status,
        "queue_message": queues.get("error") or queues.get("note"),
        "queue_rows": [(name, depth) for name, depth in queues.items() if name not in ("error", "note")],
        "worker_message": workers.get("error") or workers.get("note"),
        "health_message": status["worker_health"].get("error") or status["worker_health"].get("note"),
        "health_rows": [
            {**row, "out_for": format_duration(row["out_seconds"]), "back_in": format_duration(row["back_in_seconds"])}
            for row in status["worker_health"]["workers"]
        ],
        "oldest_age": format_duration(oldest["age_seconds"]) if oldest else None,
        "validation_wait": format_duration(status["awaiting_validation"]["oldest_seconds"]),
    }
    return render(request, "ops/ops.html", context)


@require_safe
@never_cache
def metrics(request: HttpRequest) -> HttpResponse:
    """The pipeline's figures in Prometheus's text format, for a scraper with ARENA_METRICS_TOKEN, or staff.

    A scraper sends ``Authorization: Bearer <token>``; with no token configured
    only a signed-in staff user may read them. Workers are not asked (that
    waits for their replies); everything else ``/ops/`` shows is here. A
    scraper's request needs no database (a staff session does): the page
    answers while the database is down or hangs, and says so.
    """
    token = settings.ARENA_METRICS_TOKEN
    sent = request.headers.get("Authorization", "")
    by_token = bool(token) and constant_time_compare(sent, f"Bearer {token}")
    if not by_token and not (request.user.is_authenticated and request.user.is_staff):
        return HttpResponse("metrics need a bearer token (ARENA_METRICS_TOKEN) or a staff login\n", status=401,
                            content_type="text/plain; charset=utf-8")  # fmt: skip
    return HttpResponse(prometheus_text(), content_type="text/plain; version=0.0.4; charset=utf-8")


class Exposition:
    """Metrics in Prometheus's text format, written one metric (HELP, TYPE, samples) at a time."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def metric(self, name: str, kind: str, help_text: str, samples: list[tuple[str, float]]) -> None:
        """Add metric ``name`` with its samples, each ``(labels, value)``: ``('{queue="matches"}', 3.0)``."""
        self.lines.extend([f"# HELP {name} {help_text}", f"# TYPE {name} {kind}"])
        self.lines.extend(f"{name}{labels} {value:g}" for labels, value in samples)

    def comment(self, text: str) -> None:
        """Add a comment line (scrapers ignore it; a person reading the page sees it)."""
        self.lines.append("# " + " ".join(text.split()))

    def extend(self, other: Exposition) -> None:
        self.lines.extend(other.lines)

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def prometheus_text() -> str:
    """Return the figures as Prometheus exposition text: the broker's always, the database's when it answers."""
    out = Exposition()
    broker_metrics(out)
    database_metrics(out, timezone.now())
    return out.text()


def broker_metrics(out: Exposition) -> None:
    """Add what Redis alone tells (queues, the results stream, whether it answers): never a database query here."""
    queues = queue_depths(settings.CELERY_BROKER_URL)
    depths = [(f'{{queue="{name}"}}', float(n)) for name, n in queues.items() if isinstance(n, int)]
    out.metric("arena_queue_messages", "gauge", "Messages waiting in each broker queue.", depths)
    out.metric(
        "arena_broker_up",
        "gauge",
        "1 if the broker answered (or none is needed).",
        [("", 0.0 if "error" in queues else 1.0)],
    )
    # The match workers' health and the series sent again (arena.ops.status: Redis only).
    for name, kind, help_text, samples in health_metrics(settings.CELERY_BROKER_URL, timezone.now()):
        out.metric(name, kind, help_text, samples)
    # What the matchmaker sees (arena.matchmaking.pace): absent when it cannot know, and queues fixed slots.
    seen = matchmaker_pace(settings.CELERY_BROKER_URL)
    if "capacity" in seen:
        out.metric("arena_matchmaker_capacity", "gauge",
                   "Series the match workers in service run at once (their processes), as the matchmaker counts them.",
                   [("", float(seen["capacity"]))])  # fmt: skip
        out.metric("arena_matchmaker_workers", "gauge", "Match workers in service with a fresh heartbeat.",
                   [("", float(seen["workers"]))])  # fmt: skip
    if seen.get("target") is not None:
        out.metric("arena_matchmaker_target", "gauge", "Series the matchmaker keeps queued or running.",
                   [("", float(seen["target"]))])  # fmt: skip


def database_metrics(out: Exposition, now: datetime) -> None:
    """Add whether and how the database answered within ARENA_METRICS_DB_TIMEOUT_S, then its figures if it did."""
    figures = Exposition()
    answer = answer_within(settings.ARENA_METRICS_DB_TIMEOUT_S, lambda: database_figures(figures, now))
    out.metric("arena_database_up", "gauge", "1 if the database answered the figures below in time.",
               [("", 1.0 if answer.up else 0.0)])  # fmt: skip
    out.metric("arena_database_state", "gauge", "1 for how the database answered: up, timed_out, unreachable, error.",
               [(f'{{state="{state}"}}', float(state == answer.state)) for state in DatabaseAnswer.STATES])  # fmt: skip
    out.metric("arena_database_response_seconds", "gauge", "How long the database took to answer, or to be given up.",
               [("", answer.seconds)])  # fmt: skip
    if answer.up:
        out.extend(figures)
    else:
        out.comment(f"database {answer.describe()}: the figures counted in it are left out")


def database_figures(out: Exposition, now: datetime) -> None:
    """Add the figures counted in the database (run under :func:`answer_within`: printed only if it all answered)."""
    from django.db.models import Count

    states = dict(Series.objects.values_list("state").annotate(n=Count("pk")).order_by())
    out.metric(
        "arena_series",
        "gauge",
        "Series by state.",
        [(f'{{state="{s}"}}', float(states.get(s, 0))) for s in SeriesState.values],
    )
    oldest = oldest_outstanding(now)
    out.metric("arena_oldest_outstanding_series_age_seconds", "gauge", "Age of the oldest queued or running series.",
               [("", float(oldest["age_seconds"]) if oldest else 0.0)])  # fmt: skip
    rates = series_per_minute(now)
    out.metric("arena_series_done_per_minute", "gauge", "Series recorded per minute.",
               [('{window="5m"}', rates["last_5_minutes"]), ('{window="60m"}', rates["last_60_minutes"])])  # fmt: skip
    out.metric("arena_results_waiting", "gauge", "Results delivered and not yet applied (the inbox).",
               [("", float(PendingResult.objects.count()))])  # fmt: skip
    wait = queue_wait(now)
    out.metric("arena_series_wait_seconds", "gauge",
               "How long the series recorded in the last 5 minutes waited in the queue (created to started).",
               [(f'{{quantile="{q}"}}', float(wait[key])) for q, key in (("0.5", "p50"), ("0.95", "p95"), ("1", "max"))
                if wait[key] is not None])  # fmt: skip
    out.metric("arena_series_wait_count", "gauge", "Series recorded in the last 5 minutes whose wait is known.",
               [("", float(wait["count"]))])  # fmt: skip
