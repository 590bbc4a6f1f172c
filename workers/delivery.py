"""How a match worker keeps the platform informed: a lease while it plays a series, and a result never thrown away.

**Lease.** While a worker plays series *n* it holds the Redis key
``arena:lease:series:<n>`` (expiring after :data:`LEASE_TTL_S`, refreshed
every :data:`LEASE_REFRESH_S` by a thread). The platform's inventory
(arena.matchmaking.inventory) re-sends a queued series that is in no
broker queue and under no lease: a worker killed mid-series, a message lost
with a Redis restart, a series acknowledged after a soft time limit. That
bounds the time to notice a lost series by the lease's expiry, not by the
series time limit or the broker's visibility timeout (two hours).

**Delivery.** With a broker, the worker publishes the result itself
instead of relying on a linked callback, which Celery drops when the publish
fails. With Redis (production) a ladder series' result is one entry appended
to the stream :data:`RESULTS_STREAM`, which the platform drains in batches
(arena/results/inflow.py), and at most one ``arena.drain_results`` task per
:data:`DRAIN_MARK_TTL_S` wakes the platform; a validation's result, and every
result with another broker, is a task on the ``platform`` queue. A result
that cannot be published is written to the outbox, a directory of one JSON
file per series, and published again before the worker's next series and
when it starts. The platform records a series exactly once, so publishing
a result twice is harmless; losing one is not. A result that can be neither
published nor kept (Redis refuses it and the disk is full) raises
:class:`UndeliveredResult`: the task then gives the series back to the queue to
be played again, and the worker, whose disk is full, takes itself out
(workers/health.py). Nothing half-written stays in the outbox: a file is
written beside its name and renamed into place, removed on any error, and the
leftovers of a worker killed mid-write are removed when the outbox is flushed.

**Failure.** A series that failed on the workers as often as they try it is
reported with :func:`report_failure`: an entry of the same stream naming the
series and the reason instead of a result, which the platform's drain turns
into a failed series.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from workers.artifacts import replacing

logger = logging.getLogger(__name__)

RECORD_TASK = "arena.record_series_result"
#: The platform tasks a spec may name to take its result (``result_task``): a ladder series, a validation.
RESULT_TASKS = frozenset({RECORD_TASK, "arena.record_validation"})
PLATFORM_QUEUE = "platform"
LEASE_PREFIX = "arena:lease:series:"
#: A lease not refreshed for this long is a dead worker's: the platform may re-send its series.
LEASE_TTL_S = int(os.environ.get("ARENA_LEASE_TTL_S", "45"))
LEASE_REFRESH_S = max(1, LEASE_TTL_S // 3)
#: Publishing a result: tries, and the pause between them, before it goes to the outbox.
PUBLISH_RETRY_POLICY = {"max_retries": 3, "interval_start": 0.5, "interval_step": 1.0, "interval_max": 2.0}
#: The Redis stream of ladder series results, drained by the platform (arena/results/inflow.py).
RESULTS_STREAM = "arena:results"
#: The platform task that drains it, and the mark that keeps it to one queued at a time.
DRAIN_TASK = "arena.drain_results"
DRAIN_MARK = "arena:drain-queued"
#: How long the mark lives if its drain is lost (the beat drains the stream anyway); a running
#: drain keeps it alive, and drops it when the stream is empty.
DRAIN_MARK_TTL_S = 10
#: A temporary file in the outbox older than this was left by a worker killed while writing it.
STALE_TEMPORARY_S = 60


class UndeliveredResult(RuntimeError):
    """A result the broker refused and the outbox could not keep: the series must be played again."""


def lease_key(series_id: int) -> str:
    return f"{LEASE_PREFIX}{series_id}"


def redis_client(broker_url: str) -> Any:
    """Return a Redis client of the broker with short timeouts, or None when the broker is not Redis."""
    if not broker_url.startswith(("redis://", "rediss://")):
        return None
    import redis

    return redis.Redis.from_url(broker_url, socket_timeout=5, socket_connect_timeout=5)


@contextlib.contextmanager
def lease(broker_url: str, series_id: Any) -> Iterator[None]:
    """Hold series ``series_id``'s lease while the block runs; without Redis (or an id) do nothing.

    Redis being unreachable never stops the series: the lease is best effort,
    and a series that runs unleased at worst runs twice (recorded once).
    """
    client = redis_client(broker_url) if isinstance(series_id, int) else None
    if client is None:
        yield
        return
    key = lease_key(series_id)
    holder = f"{socket.gethostname()}:{os.getpid()}"
    stop = threading.Event()

    def take() -> None:
        try:
            client.set(key, holder, ex=LEASE_TTL_S)
        except Exception as exc:  # Redis restarting: try again at the next refresh
            logger.warning("series %s: could not renew its lease: %s", series_id, exc)

    def renew() -> None:
        while not stop.wait(LEASE_REFRESH_S):
            take()

    take()  # held before the block starts, not whenever the thread first runs
    thread = threading.Thread(target=renew, name=f"lease-{series_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(10)
        with contextlib.suppress(Exception):
            client.delete(key)


def outbox_dir(cache_dir: Path) -> Path:
    return cache_dir / "outbox"


def deliver(app: Any, outcome: dict[str, Any], cache_dir: Path) -> bool:
    """Publish ``outcome`` to the platform; keep it in the outbox when that fails. True if published now.

    Raises :class:`UndeliveredResult` when it can be neither published nor kept.
    """
    try:
        publish(app, outcome)
        return True
    except Exception as exc:
        try:
            path = keep(outcome, cache_dir)
        except OSError as kept:
            raise UndeliveredResult(
                f"series {outcome.get('series_id')}: the broker refused its result ({exc}) "
                f"and the outbox could not keep it ({kept})"
            ) from kept
        logger.warning("series %s: result kept in %s until the broker is back: %s", outcome.get("series_id"), path, exc)
        return False


def publish(app: Any, outcome: dict[str, Any]) -> None:
    """Send ``outcome`` to the platform task its spec names (a ladder series' by default).

    A ladder series' result goes to the results stream when the broker is
    Redis (:func:`append_result`), anything else as a task on the platform queue.
    """
    task = outcome.get("result_task") or RECORD_TASK
    if task not in RESULT_TASKS:
        raise ValueError(f"a spec may hand its result to {sorted(RESULT_TASKS)}, not {task!r}")
    client = stream_client(str(app.conf.broker_url or "")) if task == RECORD_TASK else None
    if client is None:
        app.send_task(task, args=[outcome], queue=PLATFORM_QUEUE, retry=True, retry_policy=PUBLISH_RETRY_POLICY)
        return
    append_result(client, outcome)
    wake_platform(app, client)


_STREAM_CLIENTS: dict[str, Any] = {}


def stream_client(broker_url: str) -> Any:
    """Return this process's Redis client of the broker (one connection pool per URL), or None if not Redis."""
    if broker_url not in _STREAM_CLIENTS:
        _STREAM_CLIENTS[broker_url] = redis_client(broker_url)
    return _STREAM_CLIENTS[broker_url]


def append_result(client: Any, outcome: dict[str, Any]) -> None:
    """Append ``outcome`` to the results stream, trying as :data:`PUBLISH_RETRY_POLICY` says; raise if it never went.

    An append whose reply was lost may have gone in anyway and goes in again
    from the outbox: the platform records the series once.
    """
    # The document as its own field: the platform stores these very bytes (it only parses them to rate).
    document = json.dumps(outcome.get("result"), separators=(",", ":"))
    fields = {"series": str(outcome.get("series_id")), "result": document}
    pause = PUBLISH_RETRY_POLICY["interval_start"]
    last = int(PUBLISH_RETRY_POLICY["max_retries"])
    for attempt in range(last + 1):
        try:
            client.xadd(RESULTS_STREAM, fields)
            return
        except Exception as exc:  # redis' connection and timeout errors: Redis restarting
            if attempt == last:
                raise
            logger.info("results stream: append failed (%s), trying again in %.1f s", exc, pause)
            time.sleep(pause)
            pause = min(pause + PUBLISH_RETRY_POLICY["interval_step"], PUBLISH_RETRY_POLICY["interval_max"])


def wake_platform(app: Any, client: Any) -> None:
    """Queue one drain of the results stream unless one is queued already (the mark); never raise.

    The result is in the stream by now: if this fails, the beat's drain
    (every few seconds) records it instead.
    """
    try:
        if client.set(DRAIN_MARK, 1, nx=True, ex=DRAIN_MARK_TTL_S):
            app.send_task(DRAIN_TASK, queue=PLATFORM_QUEUE)
    except Exception as exc:
        logger.warning("results stream: could not wake the platform (%s); the beat's drain will record it", exc)


def report_failure(app: Any, series_id: int, reason: str) -> bool:
    """Tell the platform series ``series_id`` failed for good, through the results stream; True if it went.

    Only with Redis (no other broker has the stream); if it does not go, the
    series stays queued and the platform's inventory finds it lost, resends it
    and, past its resends, fails it.
    """
    client = stream_client(str(app.conf.broker_url or ""))
    if client is None:
        return False
    try:
        client.xadd(RESULTS_STREAM, {"series": str(series_id), "failure": reason[:2000]})
    except Exception as exc:
        logger.error("series %s: could not report its failure (%s): %s", series_id, exc, reason)
        return False
    wake_platform(app, client)
    return True


def keep(outcome: dict[str, Any], cache_dir: Path) -> Path:
    """Write ``outcome`` to the outbox atomically, one file per series; return its path."""
    folder = outbox_dir(cache_dir)
    folder.mkdir(parents=True, exist_ok=True)
    about = outcome.get("validation") or {}
    if about:  # a validation series has no series id: its version and game name it
        name = f"validation-{about.get('version_id')}-{about.get('game')}"
    else:
        name = f"series-{outcome.get('series_id')}"
    path = folder / f"{name}.json"
    with replacing(path) as (out, _):  # removed again on any error: a full disk leaves nothing behind
        out.write(json.dumps(outcome).encode())
        out.flush()
        os.fsync(out.fileno())
    return path


def remove_stale_temporaries(folder: Path, older_than_s: float = STALE_TEMPORARY_S) -> int:
    """Remove the half-written files a killed worker left in ``folder``; return how many.

    Only files older than ``older_than_s``: another pool process may be writing one right now.
    """
    removed = 0
    limit = time.time() - older_than_s
    # ".incoming-*" from replacing(); "*.tmp" from the NamedTemporaryFile of earlier versions.
    for path in [*folder.glob(".incoming-*"), *folder.glob("*.tmp")]:
        with contextlib.suppress(FileNotFoundError):
            if path.stat().st_mtime < limit:
                path.unlink()
                removed += 1
    if removed:
        logger.warning("outbox: removed %d half-written file(s) a stopped worker left", removed)
    return removed


def flush_outbox(app: Any, cache_dir: Path) -> int:
    """Publish the results kept in the outbox, oldest first; stop at the first failure. Return how many went."""
    folder = outbox_dir(cache_dir)
    if not folder.is_dir():
        return 0
    remove_stale_temporaries(folder)
    sent = 0
    for path in sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime):
        try:
            outcome = json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            logger.error("outbox: %s is unreadable, left for an operator: %s", path, exc)
            path.rename(path.with_suffix(".bad"))
            continue
        try:
            publish(app, outcome)
        except Exception as exc:
            logger.warning("outbox: the broker still refuses results (%s); %s waits", exc, path.name)
            break
        path.unlink()
        sent += 1
    if sent:
        logger.info("outbox: published %d kept result(s)", sent)
    return sent
