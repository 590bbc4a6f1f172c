"""The platform's Celery app: the ``platform`` queue (results, matchmaking, sweeps) and series sent to match workers.

Start the platform worker and the scheduler with::

    .venv/bin/celery -A arena.celeryconf worker -Q platform --concurrency 2
    .venv/bin/celery -A arena.celeryconf beat

(with ``platform/`` on ``PYTHONPATH``; docker-compose.yml does both). It has
the match workers' reliability settings (workers/celery_app.py) and routes
``arena.run_series`` to the ``matches`` queue. With no broker configured (the
embedded default) every task runs in-process, so the demo needs neither
Redis nor PostgreSQL.
"""

from __future__ import annotations

import os

from celery import Celery
from celery.signals import task_prerun
from django.conf import settings
from django.db import close_old_connections
from kombu import Queue

from workers.celery_app import MATCHES_QUEUE, PLATFORM_QUEUE, configure

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")

# workers.tasks: in the embedded default the platform runs series in-process too.
app = configure(Celery("arena", include=["workers.tasks"]), settings.CELERY_BROKER_URL, settings.CELERY_RESULT_BACKEND)
app.conf.update(
    task_default_queue=PLATFORM_QUEUE,
    task_queues=[Queue(PLATFORM_QUEUE), Queue(MATCHES_QUEUE)],
    task_routes={"arena.run_series": {"queue": MATCHES_QUEUE}, "arena.*": {"queue": PLATFORM_QUEUE}},
    beat_schedule=settings.CELERY_BEAT_SCHEDULE,
)
# Celery's Django fixup closes the database connection before and after every task unless
# this is set; a platform task is a few milliseconds, and opening a PostgreSQL connection
# for each cost more than the task itself (tests/benchmarks/recording_speed.py). With it,
# a worker process keeps its connection for 2 x 1000 tasks, checked like a web request's.
app.conf["CELERY_DB_REUSE_MAX"] = 1000
app.autodiscover_tasks()


@task_prerun.connect
def _check_database_connections(sender: object = None, **_: object) -> None:
    """Before every task, let Django drop a connection that broke or aged out (as before every web request).

    With CELERY_DB_REUSE_MAX, Celery's Django fixup never calls
    ``close_old_connections``, so after a PostgreSQL restart the worker kept
    reusing the dead connection and every task failed until an operator
    restarted it. This marks each connection for a health check
    (``CONN_HEALTH_CHECKS``) at its next use: a ``SELECT 1`` when the task
    first touches the database, and a fresh connection if that fails. Tasks
    run in-process (eager) leave the caller's connection alone: it may be in
    the middle of a transaction.
    """
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    close_old_connections()
