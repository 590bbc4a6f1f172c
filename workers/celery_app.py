"""The match workers' Celery app: runs series, holds no database credentials, imports no Django.

Start a match worker with::

    ARENA_BROKER_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/celery -A workers.celery_app worker -Q matches --concurrency 2

It consumes the ``matches`` queue only. A finished series goes back to the
platform through the task the platform linked (``record_series_result`` on the
``platform`` queue), so no result backend is needed; ``ARENA_RESULT_BACKEND``
adds one for tools and tests.

The settings that keep a series from being lost or counted twice (ARCHITECTURE.md):
JSON only; ``acks_late`` with ``reject_on_worker_lost`` (a worker killed
mid-series gives its series back to the queue); prefetch 1 (a worker holds no
series it is not running); a broker visibility timeout above the longest
series (Redis redelivers an unacknowledged series only after it); hard and
soft time limits.

A match worker watches its own health (workers/health.py: a consumer step
and a remote-control command): it stops consuming ``matches`` when it fails
series for reasons of its own, says why in Redis, and comes back when the
cause is gone.
"""

from __future__ import annotations

import os

from celery import Celery
from celery.signals import worker_ready
from kombu import Queue

from workers import health, kombu_fixes

MATCHES_QUEUE = "matches"
PLATFORM_QUEUE = "platform"

#: The longest a series may run before Celery kills it (soft limit first).
SERIES_TIME_LIMIT_S = int(os.environ.get("ARENA_SERIES_TIME_LIMIT_S", "3600"))
#: Redis redelivers an unacknowledged task after this; it must exceed the longest series.
VISIBILITY_TIMEOUT_S = SERIES_TIME_LIMIT_S * 2


def configure(app: Celery, broker_url: str, result_backend: str | None = None) -> Celery:
    """Apply the pipeline's settings to ``app``; with no broker, tasks run in-process."""
    app.conf.update(
        broker_url=broker_url or "memory://",
        task_always_eager=not broker_url,
        task_eager_propagates=True,
        result_backend=result_backend or None,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        broker_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT_S},
        result_backend_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT_S},
        task_time_limit=SERIES_TIME_LIMIT_S + 60,
        task_soft_time_limit=SERIES_TIME_LIMIT_S,
        task_default_queue=MATCHES_QUEUE,
        task_queues=[Queue(MATCHES_QUEUE)],
        task_routes={"arena.run_series": {"queue": MATCHES_QUEUE}},
        worker_hijack_root_logger=False,
        broker_connection_retry_on_startup=True,
        # A broker that restarts is waited for, however long it takes, never given up on.
        broker_connection_retry=True,
        broker_connection_max_retries=None,
    )
    kombu_fixes.install()
    return app


@worker_ready.connect
def _flush_outbox(sender: object = None, **_: object) -> None:
    """Publish the results an earlier run of this worker kept while the broker was away."""
    from workers.delivery import flush_outbox
    from workers.tasks import CACHE_DIR

    app = getattr(sender, "app", None)
    if app is not None and not app.conf.task_always_eager:
        flush_outbox(app, CACHE_DIR)


app = configure(
    # fixups=[]: never load Django, even where DJANGO_SETTINGS_MODULE is set.
    Celery("arena-matches", include=["workers.tasks"], fixups=[]),
    os.environ.get("ARENA_BROKER_URL", ""),
    os.environ.get("ARENA_RESULT_BACKEND"),
)
app.steps["consumer"].add(health.HealthStep)
