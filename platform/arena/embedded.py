"""The living ladder on the embedded default: the beat and the workers in this process, no broker.

In production the beat sends the matchmaker, the sweeper and the inbox's safety
net to the platform queue, match workers run the series and the platform worker
records them. On the embedded default (no ``ARENA_BROKER_URL``) the served site
does the same here:

* a scheduler thread sends every entry of ``settings.CELERY_BEAT_SCHEDULE``
  at its interval, as Celery beat would;
* a pool of worker threads, one per core, takes what was sent and runs it
  with Celery's ``apply``: the very task functions the workers run, a
  series' ``run_series`` then its ``record_series_result`` (a chain), a
  version's validation series, the matchmaker's tick;
* ``arena.tasking.send`` is how the platform queues a task: to the broker when
  there is one, to this pool while it runs, and otherwise at once in the caller
  (tests, the demo's own rounds, management commands).

Threads suffice: a series spends its time in the bots' sandboxed processes and
the referee waiting on their pipes. The queue lives in memory, but nothing is
lost with it: every series and validation it holds is also a row in the
database (a series ``queued``, a version ``validating``), and :meth:`start`
sends those again, so a restart picks up what a stop left queued. A stop lets
the series being played finish and be recorded (each recording is one
transaction), so none is left half-recorded. ``manage.py serve`` and ``demo``
stop that way on SIGTERM too (:func:`sigterm_as_ctrl_c`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connections

from arena import tasking
from arena.bots.models import BotVersion
from arena.bots.tasks import validate_version_task
from arena.matchmaking.scheduling import enqueue
from arena.series.models import Series, SeriesState
from arena.tasking import send

logger = logging.getLogger(__name__)

_STOP = object()


def default_workers() -> int:
    """Return the pool size: the cores this process may run on."""
    return max(1, len(os.sched_getaffinity(0)))


class EmbeddedLadder:
    """The scheduler thread and the worker pool of the embedded default; one per process."""

    def __init__(self, workers: int | None = None, schedule: dict[str, Any] | None = None) -> None:
        self.workers = workers or default_workers()
        self.schedule = settings.CELERY_BEAT_SCHEDULE if schedule is None else schedule
        self.accepting = False
        self.busy = 0
        self.done = 0
        self._queue: queue.Queue[Any] = queue.Queue()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._entries: dict[str, tuple[float, Any]] = {}

    def put(self, signature: Any) -> None:
        """Queue ``signature`` for the pool."""
        self._queue.put(signature)

    @property
    def waiting(self) -> int:
        """Tasks sent and not yet taken by a worker thread."""
        return self._queue.qsize()

    def start(self) -> None:
        """Send again what the database says is queued, then start the pool and the scheduler."""
        if tasking.current_pool() is not None:
            raise RuntimeError("an embedded ladder already runs in this process")
        if settings.CELERY_BROKER_URL:
            raise RuntimeError("a broker is configured: run the Celery workers and beat instead (docs/operations.md)")
        self._entries = beat_entries(self.schedule)
        tasking.set_pool(self)
        self.accepting = True
        resent = resend_queued()  # before the beat, whose matchmaker's new series must not be sent twice
        close_old_connections()
        for number in range(self.workers):
            self._spawn(self._work, f"arena-worker-{number + 1}")
        self._spawn(self._beat, "arena-beat")
        logger.info(
            "embedded ladder: %d worker threads; sent again %d queued series, %d validations", self.workers, *resent
        )

    def _spawn(self, target: Callable[[], None], name: str) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        thread.start()
        self._threads.append(thread)

    def stop(self, timeout: float | None = None) -> bool:
        """Stop taking work, let the series being played finish and be recorded; True if all finished in time.

        What is still queued stays queued in the database for the next start.
        """
        self.accepting = False
        self._stop.set()
        for _ in range(self.workers):
            self._queue.put(_STOP)
        deadline = None if timeout is None else time.monotonic() + timeout
        for thread in self._threads:
            thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
        finished = not any(thread.is_alive() for thread in self._threads)
        if tasking.current_pool() is self:
            tasking.set_pool(None)
        return finished

    def _beat(self) -> None:
        """Send each schedule entry's task at its interval, the first time at once (as Celery beat does)."""
        due = dict.fromkeys(self._entries, 0.0)
        while not self._stop.is_set():
            now = time.monotonic()
            for name, (interval, signature) in self._entries.items():
                if now >= due[name]:
                    due[name] = now + interval
                    self.put(signature.clone())
            self._stop.wait(max(0.05, min(due.values(), default=1.0) - time.monotonic()))

    def _work(self) -> None:
        """Run sent tasks until stopped; a task's failure is logged, never the end of the thread."""
        try:
            while True:
                signature = self._queue.get()
                if signature is _STOP or self._stop.is_set():
                    return
                with self._lock:
                    self.busy += 1
                try:
                    signature.apply()
                except Exception:
                    logger.exception("embedded ladder: task %s failed", signature)
                finally:
                    with self._lock:
                        self.busy -= 1
                        self.done += 1
                    close_old_connections()
        finally:
            connections.close_all()


def beat_entries(schedule: dict[str, Any]) -> dict[str, tuple[float, Any]]:
    """Return each beat schedule entry as (interval in seconds, the task's signature); refuse an unknown task."""
    from arena.celeryconf import app

    app.loader.import_default_modules()  # the tasks modules autodiscovery finds
    entries = {}
    for name, entry in schedule.items():
        if entry["task"] not in app.tasks:
            raise RuntimeError(f"beat schedule entry {name!r} names no known task {entry['task']!r}")
        task = app.tasks[entry["task"]]
        entries[name] = (float(entry["schedule"]), task.s(*entry.get("args", ()), **entry.get("kwargs", {})))
    return entries


def resend_queued() -> tuple[int, int]:
    """Send every queued or running series and every version awaiting validation; return (series, versions).

    On the embedded default nothing but this process plays series, so a series
    still queued or running when it starts was left by an earlier stop.
    """

    pending = Series.objects.filter(state__in=[SeriesState.QUEUED, SeriesState.RUNNING]).order_by("pk")
    series = list(pending.select_related("season"))
    for one in series:
        enqueue(one)
    versions = list(BotVersion.objects.filter(status=BotVersion.Status.VALIDATING).values_list("pk", flat=True))
    for version_id in versions:
        send(validate_version_task.s(version_id))
    return len(series), len(versions)


def serve(write: Callable[[str], None], port: int, workers: int | None = None, drain_s: float = 60.0) -> None:
    """Serve the site on 127.0.0.1:``port`` with the ladder running, until Ctrl-C; then stop the ladder cleanly.

    ``write`` prints a line for the user. With a broker configured the Celery
    workers and beat run the ladder, so only the site is served. A second
    Ctrl-C while the series being played finish leaves them queued for the
    next start. Run it inside :func:`sigterm_as_ctrl_c` to stop the same way on
    SIGTERM.
    """
    if settings.CELERY_BROKER_URL:
        write("A broker is configured: the Celery workers and beat run the ladder. Serving the site until Ctrl-C.")
        _runserver(port)
        return
    ladder = EmbeddedLadder(workers)
    ladder.start()
    write(
        f"The ladder runs here: the matchmaker every {settings.ARENA_MATCHMAKER_INTERVAL_S} s, "
        f"{ladder.workers} series at a time (one per core). Serving it until Ctrl-C."
    )
    try:
        _runserver(port)
    finally:
        write(f"Stopping: letting {ladder.busy} task(s) being run finish (Ctrl-C again to leave them queued)...")
        try:
            finished = ladder.stop(drain_s)
        except KeyboardInterrupt:
            finished = False
        write(
            "Stopped; every series played was recorded."
            if finished
            else "Stopped; series still being played stay queued and run at the next start."
        )


@contextlib.contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """While inside, SIGTERM interrupts this process as Ctrl-C does (KeyboardInterrupt); the old handler after.

    A container runtime or a service manager stops a process with SIGTERM,
    whose default kills it at once: mid-series, with nothing recorded. Inside,
    ``serve`` stops as on Ctrl-C instead. Signals go to the main thread only, so
    elsewhere (a command called from a thread) this changes nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _runserver(port: int) -> None:
    """Run Django's threaded server on 127.0.0.1:``port`` until Ctrl-C."""
    from django.core.management import call_command

    # Ctrl-C: runserver exits with SystemExit(0) (or a KeyboardInterrupt escapes it); the caller stops the ladder.
    with contextlib.suppress(KeyboardInterrupt, SystemExit):
        # insecure_serving: the site's own CSS and scripts, on this local address only.
        call_command("runserver", f"127.0.0.1:{port}", use_reloader=False, insecure_serving=True)
