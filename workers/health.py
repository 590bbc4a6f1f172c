"""A match worker's own health: it takes itself out of the ``matches`` queue when the fault is its own, and says why.

A series can fail on a worker for three kinds of reason:

- the bot's: a crash, a timeout, an illegal move. That is a forfeit inside the
  result document, never an exception, and nothing here sees it;
- the spec's, or the code's: a spec this worker cannot run, or an error nobody
  expected. The worker is as healthy as before;
- the worker's own, its *infrastructure* (workers/tasks.py lists the
  exceptions): its disk (``OSError`` such as ENOSPC from a download, an unpack
  or the outbox), its sandbox (``SandboxFailure``, ``SandboxError``), the
  artifact store it fetches from (``ArtifactError``), or a result it could
  neither publish nor keep (``UndeliveredResult``).

**The series** goes back to the queue at once (the task rejects its message
with ``requeue``; nothing is acknowledged), so another worker plays it. Each
time a series fails on a worker that stays in service is one *try*, counted
in Redis (:data:`TRIES_PREFIX`, shared by every worker); at
:data:`MAX_TRIES` the worker gives up: it acknowledges the message and reports
the series failed, with the reason, through the results stream
(workers/delivery.py, :func:`~workers.delivery.report_failure`), where the
platform's drain marks it ``failed``. A failure that takes its worker out is
the worker's fault, not the series', and costs the series no try. Nothing is
retried on the worker itself: a worker retrying locally would keep the message
(Celery's retry holds it on the same worker until its countdown) and go on
failing it there.

**The worker** takes itself out, stopping its consumer of the ``matches``
queue (Celery's ``cancel_task_queue``, as the ``cancel_consumer`` control
command does), when

- its :func:`probe` fails: its cache's file system has less than
  :data:`MIN_FREE_MB` free or cannot be written, or the sandbox cannot run
  (``workers.sandbox.sandbox_problem``). It comes back by itself once the
  probe passes again: the probe is what it was taken out for;
- or :data:`SICK_AFTER` different series in a row failed on it for reasons of
  its own while the probe saw nothing (cgroups that refuse, a network that
  cannot reach the artifact store). It comes back after a cool-down
  (:data:`COOLDOWN_S`, doubled at each time out in a row, at most
  :data:`COOLDOWN_MAX_S`, reset by a series played): nothing it can check
  says whether the cause is gone, so it tries one series at a time.

A restart also brings it back, and probes again. The series being rejected
waits for the consumer to stop first (a remote-control command of this module,
:func:`arena_take_out`, which the pool process sends its own worker and whose
reply comes after the consumer stopped), or the freed worker would take the
same message again.

**What the platform sees**: each match worker keeps the Redis hash
:data:`WORKER_PREFIX` ``<worker name>`` (its state, ``ok`` or ``out``, the
reason, since when, series played and infrastructure failures, and how many
series it runs at once, ``concurrency``), refreshed every
:data:`PROBE_INTERVAL_S` (``probe_s``, with a ``heartbeat``) by a thread of the
worker's main process, expiring three intervals after its last refresh and
deleted when the worker stops cleanly: a worker that is gone drops out of the
list by itself. arena/ops/status.py reads these for ``/ops/``, ``/ops/metrics``
and ``manage.py arena_status``; the matchmaker adds up the ``concurrency`` of
the workers ``ok`` with a fresh heartbeat to know how many series to keep
queued (arena/matchmaking/pace.py). Everything is logged too.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from celery import bootsteps
from celery.worker.control import control_command

from workers.artifacts import replacing
from workers.delivery import redis_client, report_failure

logger = logging.getLogger(__name__)

MATCHES_QUEUE = "matches"


def _setting(name: str, default: int, minimum: int) -> int:
    """Return the integer environment variable ``name``; stop the process with a message naming it if it is bad."""
    value = os.environ.get(name, str(default))
    try:
        number = int(value)
    except ValueError:
        raise ValueError(f"{name} must be an integer, not {value!r}") from None
    if number < minimum:
        raise ValueError(f"{name} must be at least {minimum}, not {number}")
    return number


#: How often the main process probes its worker and refreshes its record.
PROBE_INTERVAL_S = _setting("ARENA_WORKER_PROBE_S", 10, 1)
#: The free space the worker's cache needs: a bot archive (up to 20 MB) and its unpacked files.
MIN_FREE_MB = _setting("ARENA_WORKER_MIN_FREE_MB", 64, 0)
#: Different series failing in a row for the worker's own reasons, with the probe passing, that take it out.
SICK_AFTER = _setting("ARENA_WORKER_SICK_AFTER", 3, 1)
#: How long a worker taken out for failures the probe cannot see stays out the first time.
COOLDOWN_S = _setting("ARENA_WORKER_COOLDOWN_S", 60, 1)
COOLDOWN_MAX_S = 16 * COOLDOWN_S
#: Tries of a series on workers that stayed in service before it is given up and reported failed.
MAX_TRIES = _setting("ARENA_SERIES_MAX_TRIES", 3, 1)
#: A series that failed for the worker's reasons waits this long times its tries before it goes back.
RETRY_PAUSE_S = 2.0

WORKER_PREFIX = "arena:worker:"
STREAK_PREFIX = "arena:worker-streak:"
TRIES_PREFIX = "arena:series-tries:"
#: Counters for the operator: tries of series that went back to the queue, series given up.
RETRIED_COUNTER = "arena:stats:series-retried"
GIVEN_UP_COUNTER = "arena:stats:series-given-up"
#: How long a series' tries are remembered (a series older than that has been resent or failed).
TRIES_TTL_S = 86400
PROBE_BYTES = 64 * 1024
MEGABYTE = 1024 * 1024


def record_key(worker: str) -> str:
    return f"{WORKER_PREFIX}{worker}"


def record_ttl_s() -> int:
    return 3 * PROBE_INTERVAL_S


def probe(cache_dir: Path) -> str | None:
    """Return why this worker cannot run series now (its disk, its sandbox), or None when it can."""
    from workers.sandbox import sandbox_problem

    try:
        for folder in (cache_dir, cache_dir / "outbox"):
            folder.mkdir(parents=True, exist_ok=True)
            with replacing(folder / ".probe") as (out, _):
                out.write(b"\0" * PROBE_BYTES)
                out.flush()
                os.fsync(out.fileno())
            (folder / ".probe").unlink()
        free = shutil.disk_usage(cache_dir).free
    except OSError as exc:
        return f"its cache {cache_dir} cannot be written: {exc}"
    if free < MIN_FREE_MB * MEGABYTE:
        return (
            f"its cache {cache_dir} has {free / MEGABYTE:.1f} MB free, under the {MIN_FREE_MB} MB it needs "
            "(ARENA_WORKER_MIN_FREE_MB)"
        )
    problem = sandbox_problem()
    return f"its sandbox cannot run: {problem}" if problem else None


def describe(exc: BaseException) -> str:
    """Return an exception as one line for logs and the operator's views."""
    text = " ".join(str(exc).split()) or "(no message)"
    return f"{type(exc).__name__}: {text}"[:500]


@dataclass(frozen=True)
class Verdict:
    """What to do with a series that failed on this worker."""

    requeue: bool  # back to the queue (else: given up, reported failed, acknowledged)
    pause_s: float  # how long to wait before it goes back
    took_out: bool  # this worker took itself out
    tries: int  # the series' tries so far (0 when it cost none)


def judge_failure(
    app: Any, worker: str, spec: dict[str, Any], task_id: str, exc: BaseException, own: bool, cache_dir: Path
) -> Verdict:
    """Record series ``spec``'s failure on ``worker`` and decide what becomes of the series and of the worker.

    ``own`` says the failure is the worker's infrastructure's (module docstring).
    Redis being unreachable never stops the decision: the series then goes back
    to the queue uncounted, and the probe, which needs no Redis, still takes a
    sick worker out.
    """
    series_id = spec.get("series_id")
    reason = describe(exc)
    client = redis_client(str(app.conf.broker_url or ""))
    took_out = False
    if own:
        problem = probe(cache_dir)
        streak = _count_own_failure(client, worker, series_id, reason)
        if problem:
            took_out = take_out(app, worker, problem)
        elif streak >= SICK_AFTER:
            level = _streak_level(client, worker)
            back_after = min(COOLDOWN_S * 2 ** max(level - 1, 0), COOLDOWN_MAX_S)
            took_out = take_out(
                app, worker, f"{streak} series in a row failed on it; the last: {reason}", back_after_s=back_after
            )
    if took_out:
        logger.error("series %s goes back to the queue for another worker: %s", series_id, reason)
        return Verdict(requeue=True, pause_s=0.0, took_out=True, tries=0)
    tries = _count_try(client, spec, task_id, worker, reason)
    if tries >= MAX_TRIES:
        logger.error("series %s failed %d times on the match workers; given up: %s", series_id, tries, reason)
        if isinstance(series_id, int):
            why = f"failed {tries} times on the match workers; the last, on {worker}: {reason}"
            report_failure(app, series_id, why)
        _increment(client, GIVEN_UP_COUNTER)
        return Verdict(requeue=False, pause_s=0.0, took_out=False, tries=tries)
    logger.warning("series %s failed (try %d of %d), back to the queue: %s", series_id, tries, MAX_TRIES, reason)
    _increment(client, RETRIED_COUNTER)
    return Verdict(requeue=True, pause_s=RETRY_PAUSE_S * tries if own else 0.0, took_out=False, tries=tries)


def series_played(app: Any, worker: str, spec: dict[str, Any], task_id: str) -> None:
    """Note a series played to the end on ``worker``: its streak and cool-down start again; never raise."""
    client = redis_client(str(app.conf.broker_url or ""))
    if client is None:
        return
    key = record_key(worker)
    try:
        with client.pipeline(transaction=False) as pipe:
            pipe.hincrby(key, "series_played", 1)
            pipe.hset(key, "cooldown_level", 0)
            pipe.expire(key, record_ttl_s())
            pipe.delete(f"{STREAK_PREFIX}{worker}", _tries_key(spec, task_id))
            pipe.execute()
    except Exception as exc:  # Redis restarting: the record is the operator's, the series is played
        logger.info("could not note the series played in this worker's record: %s", exc)


def _tries_key(spec: dict[str, Any], task_id: str) -> str:
    series_id = spec.get("series_id")
    # A validation series has no series id: its message (the task id) names it.
    return f"{TRIES_PREFIX}{series_id if isinstance(series_id, int) else task_id}"


def _count_own_failure(client: Any, worker: str, series_id: Any, reason: str) -> int:
    """Add a failure of the worker's own to its record; return how many different series failed in a row."""
    if client is None:
        return 0
    key, streak = record_key(worker), f"{STREAK_PREFIX}{worker}"
    try:
        with client.pipeline(transaction=False) as pipe:
            pipe.hincrby(key, "infrastructure_failures", 1)
            pipe.hset(key, mapping={"last_failure": reason, "last_failure_at": time.time()})
            pipe.expire(key, record_ttl_s())
            pipe.sadd(streak, str(series_id))
            pipe.expire(streak, TRIES_TTL_S)
            pipe.scard(streak)
            return int(pipe.execute()[-1])
    except Exception as exc:
        logger.warning("could not record this worker's failure in Redis: %s", exc)
        return 0


def _streak_level(client: Any, worker: str) -> int:
    """Start a new streak; return how many times in a row the worker was taken out for one (1 the first time)."""
    try:
        with client.pipeline(transaction=False) as pipe:
            pipe.delete(f"{STREAK_PREFIX}{worker}")
            pipe.hincrby(record_key(worker), "cooldown_level", 1)
            return int(pipe.execute()[-1])
    except Exception:
        return 1


def _count_try(client: Any, spec: dict[str, Any], task_id: str, worker: str, reason: str) -> int:
    """Count a try of the series; return its tries so far (1 when Redis cannot count: never given up blind)."""
    if client is None:
        return 1
    key = _tries_key(spec, task_id)
    try:
        with client.pipeline(transaction=False) as pipe:
            pipe.hincrby(key, "tries", 1)
            pipe.hset(key, mapping={"last": f"on {worker}: {reason}"})
            pipe.expire(key, TRIES_TTL_S)
            return int(pipe.execute()[0])
    except Exception as exc:
        logger.warning("could not count the series' try in Redis: %s", exc)
        return 1


def _increment(client: Any, key: str) -> None:
    if client is not None:
        with contextlib.suppress(Exception):
            client.incr(key)


def take_out(app: Any, worker: str, reason: str, back_after_s: float | None = None) -> bool:
    """Ask ``worker``'s main process (from its pool process) to stop taking series; True once it has.

    The reply comes after the consumer stopped, so the message the caller then
    rejects is not taken by the same worker again.
    """
    try:
        replies = app.control.broadcast(
            "arena_take_out",
            arguments={"reason": reason, "back_after_s": back_after_s},
            destination=[worker],
            reply=True,
            timeout=5.0,
        )
    except Exception as exc:
        logger.error("could not take this worker out (%s); it stays in for now: %s", exc, reason)
        return False
    if not any("ok" in (answer.get(worker) or {}) for answer in replies or []):
        logger.error("this worker's main process did not confirm it stopped taking series: %s", replies)
        return False
    return True


@dataclass
class Out:
    """Why the worker took itself out, and when it may come back (``back_at`` None: when the probe passes)."""

    reason: str
    since: float
    back_at: float | None


class Monitor:
    """The main process's side: the worker's state, its record in Redis, the probe and the way back."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.consumer: Any = None
        self.worker = ""
        self.broker_url = ""
        self.cache_dir = Path()
        self.concurrency = 1  # series the worker runs at once (its pool's processes)
        self.out: Out | None = None
        self.times_out = 0
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None

    def attach(self, consumer: Any, cache_dir: Path) -> None:
        """Start watching ``consumer``'s worker (again, after a reconnection: its state is kept)."""
        self.consumer, self.worker = consumer, consumer.hostname
        self.broker_url, self.cache_dir = str(consumer.app.conf.broker_url or ""), cache_dir
        self.concurrency = pool_size(consumer)
        if self.out is not None:
            _stop_consuming(consumer)  # a consumer restarted after a lost connection consumes nothing it had stopped
        if self.thread is None:
            self.stopping.clear()
            self.thread = threading.Thread(target=self.run, name="arena-worker-health", daemon=True)
            self.thread.start()

    def run(self) -> None:
        self.publish()
        while not self.stopping.wait(PROBE_INTERVAL_S):
            try:
                self.tick()
            except Exception:  # the monitor must outlive anything it meets
                logger.exception("the worker's health check failed")

    def stop(self) -> None:
        """Stop the monitor and delete the worker's record: a worker that stopped runs no series."""
        self.stopping.set()
        if self.thread is not None:
            self.thread.join(10)
            self.thread = None
        self.withdraw()

    def withdraw(self) -> None:
        """Delete this worker's record from Redis (it stops); never raise."""
        client = redis_client(self.broker_url)
        if client is None or not self.worker:
            return
        try:
            client.delete(record_key(self.worker))
        except Exception as exc:  # Redis away: the record expires by itself
            logger.info("could not delete this worker's health record: %s", exc)
        finally:
            client.close()

    def tick(self) -> None:
        """Probe; take the worker out, or bring it back; refresh its record."""
        problem = probe(self.cache_dir)
        out = self.out
        if problem and (out is None or (out.back_at is None and out.reason != problem)):
            self.take_out(problem, None, self._later)  # out, or still out for what the probe says now
        elif out is not None and not problem and (out.back_at is None or time.time() >= out.back_at):
            self.come_back()
        else:
            self.publish()

    def _later(self, operation: Callable[..., Any]) -> None:
        """Run ``operation(consumer)`` on the worker's event loop (from this monitor's thread)."""
        consumer = self.consumer
        consumer.call_soon(operation, consumer)

    def take_out(self, reason: str, back_after_s: float | None, run: Callable[[Callable[..., Any]], None]) -> None:
        """Stop consuming the matches queue (through ``run``: now, or on the event loop), and say why."""
        with self.lock:
            now = time.time()
            if self.out is None:
                self.times_out += 1
                self.out = Out(reason, now, now + back_after_s if back_after_s else None)
                fresh = True
            else:
                fresh = False
                if back_after_s is None:  # a probe's reason: it comes back when the probe passes
                    self.out = Out(reason, self.out.since, None)
        run(_stop_consuming)
        if fresh:
            comes_back = "when that is fixed" if back_after_s is None else f"in {back_after_s:.0f} s to try again"
            logger.error(
                "%s takes itself out of the %s queue: %s; it comes back %s", self.worker, MATCHES_QUEUE, reason,
                comes_back,
            )  # fmt: skip
        self.publish()

    def come_back(self) -> None:
        with self.lock:
            out, self.out = self.out, None
        self._later(_consume_again)
        if out is not None:
            logger.warning(
                "%s takes series again (out %.0f s for: %s)", self.worker, time.time() - out.since, out.reason
            )
        self.publish()

    def publish(self) -> None:
        """Write this worker's record to Redis with a fresh expiry; never raise."""
        client = redis_client(self.broker_url)
        if client is None or not self.worker:
            return
        out = self.out
        fields = {
            "worker": self.worker,
            "state": "out" if out else "ok",
            "reason": out.reason if out else "",
            "since": out.since if out else "",
            "back_at": (out.back_at or "") if out else "",
            "times_out": self.times_out,
            "heartbeat": time.time(),
            "probe_s": PROBE_INTERVAL_S,
            "concurrency": self.concurrency,
            "host": socket.gethostname(),
            "pid": os.getpid(),
        }
        try:
            with client.pipeline(transaction=False) as pipe:
                pipe.hset(record_key(self.worker), mapping=fields)
                pipe.expire(record_key(self.worker), record_ttl_s())
                pipe.execute()
        except Exception as exc:  # Redis restarting: the next tick writes it again
            logger.info("could not write this worker's health record: %s", exc)
        finally:
            client.close()


def pool_size(consumer: Any) -> int:
    """Return how many series ``consumer``'s worker runs at once: its ``--concurrency`` (at least 1)."""
    controller = getattr(consumer, "controller", None)
    return max(1, int(getattr(controller, "concurrency", None) or 1))


def _stop_consuming(consumer: Any) -> None:
    """Consumer.cancel_task_queue, also while the consumer is between connections (no task consumer)."""
    consumer.app.amqp.queues.deselect(MATCHES_QUEUE)
    if consumer.task_consumer is not None and consumer.task_consumer.consuming_from(MATCHES_QUEUE):
        consumer.task_consumer.cancel_by_queue(MATCHES_QUEUE)


def _consume_again(consumer: Any) -> None:
    if consumer.task_consumer is not None:
        consumer.add_task_queue(MATCHES_QUEUE)
    else:
        queues = consumer.app.amqp.queues
        queues.select_add(queues[MATCHES_QUEUE])


#: The worker's monitor, in its main process (the pool processes only talk to it).
MONITOR = Monitor()


@control_command(args=[("reason", str), ("back_after_s", float)], signature="<reason> [back_after_s]")
def arena_take_out(state: Any, reason: str, back_after_s: float | None = None, **_: Any) -> dict[str, str]:
    """Stop consuming the matches queue now and say why (sent by this worker's own pool process)."""
    if MONITOR.consumer is None:
        return {"error": "not a match worker"}
    MONITOR.take_out(reason, back_after_s, lambda operation: operation(MONITOR.consumer))
    return {"ok": f"no longer consuming from {MATCHES_QUEUE}: {reason}"}


class HealthStep(bootsteps.StartStopStep):
    """The match worker's consumer step that runs the :class:`Monitor` (workers/celery_app.py adds it)."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def start(self, parent: Any) -> None:
        from workers.tasks import CACHE_DIR

        MONITOR.attach(parent, CACHE_DIR)

    def shutdown(self, parent: Any) -> None:
        MONITOR.stop()
