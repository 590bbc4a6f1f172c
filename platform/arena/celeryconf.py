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
from django.conf import settings
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
