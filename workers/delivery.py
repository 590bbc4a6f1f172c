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
(``arena.record_series_result`` on the ``platform`` queue) instead of relying
on a linked callback, which Celery drops when the publish fails. A result
that cannot be published is written to the outbox, a directory of one JSON
file per series, and published again before the worker's next series and
when it starts. The platform records a series exactly once, so publishing
a result twice is harmless; losing one is not.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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

    def renew() -> None:
        while True:
            try:
                client.set(key, holder, ex=LEASE_TTL_S)
            except Exception as exc:  # Redis restarting: try again at the next refresh
                logger.warning("series %s: could not renew its lease: %s", series_id, exc)
            if stop.wait(LEASE_REFRESH_S):
                return

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
    """Publish ``outcome`` to the platform; keep it in the outbox when that fails. True if published now."""
    try:
        publish(app, outcome)
        return True
    except Exception as exc:
        path = keep(outcome, cache_dir)
        logger.warning("series %s: result kept in %s until the broker is back: %s", outcome.get("series_id"), path, exc)
        return False


def publish(app: Any, outcome: dict[str, Any]) -> None:
    """Send ``outcome`` to the platform task its spec names (a ladder series' by default)."""
    task = outcome.get("result_task") or RECORD_TASK
    if task not in RESULT_TASKS:
        raise ValueError(f"a spec may hand its result to {sorted(RESULT_TASKS)}, not {task!r}")
    app.send_task(task, args=[outcome], queue=PLATFORM_QUEUE, retry=True, retry_policy=PUBLISH_RETRY_POLICY)


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
    with tempfile.NamedTemporaryFile("w", dir=folder, suffix=".tmp", delete=False) as handle:
        json.dump(outcome, handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(handle.name, path)
    return path


def flush_outbox(app: Any, cache_dir: Path) -> int:
    """Publish the results kept in the outbox, oldest first; stop at the first failure. Return how many went."""
    folder = outbox_dir(cache_dir)
    if not folder.is_dir():
        return 0
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
