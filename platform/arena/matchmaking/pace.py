"""How many series the matchmaker keeps outstanding: the match workers' capacity, the target depth, each season's share.

No Django here: Redis and plain numbers. :func:`arena.matchmaking.scheduling.top_up`
does the database work with them.

* **Capacity** is what the match workers say of themselves (workers/health.py):
  each keeps a Redis hash ``arena:worker:<name>`` with its state, a heartbeat
  refreshed every ``probe_s`` and its ``concurrency`` (pool processes, each
  running one series at a time). :func:`read_capacity` adds up the
  concurrency of the records in state ``ok`` whose heartbeat is at most
  :data:`FRESH_PROBES` probe intervals old. A worker that took itself out, or
  stopped refreshing its record (frozen, killed, its host gone), counts for
  nothing; a stopped worker deletes its record.
* **The target depth** is the number of series queued or running that the
  matchmaker keeps: ``capacity x depth_per_process`` (``ARENA_MATCHMAKER_DEPTH_PER_PROCESS``,
  2 by default): one series on every process, and one waiting for it, so a
  process that finishes takes its next series from the queue at once while
  the recording and the top-up that replace it run. A deeper queue would only
  make series wait longer (docs/operations.md, "The ladder's pace").
* **Each season's share** of the free slots (the target less what is
  outstanding) goes by :func:`split`: one slot at a time to the season with
  the fewest outstanding series per unit of weight, the weight being its
  active entries per seat of a series (how many series its versions can fill
  at once). So every version gets about the same share of the workers,
  whichever season it plays in, and a season with nothing outstanding is
  served before any season gets a second slot: none starves.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from workers import health

#: A record whose heartbeat is older than this many of its probe intervals does not count (one missed
#: refresh is tolerated; the record itself expires after three).
FRESH_PROBES = 2


@dataclass(frozen=True)
class Capacity:
    """The match workers in service as the matchmaker sees them: ``processes`` series at once, on ``workers``."""

    processes: int
    workers: int


@dataclass(frozen=True)
class SeasonLoad:
    """A running season for :func:`split`: its weight and its series queued or running now."""

    season_id: int
    weight: float
    outstanding: int


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value or "")


def _number(value: Any, default: float) -> float:
    try:
        return float(_text(value))
    except ValueError:
        return default


def counted_processes(record: dict[Any, Any], now: float) -> int:
    """Return the series a worker's record says it runs at once, or 0 if it is out, stale or not a record."""
    fields = {_text(name): value for name, value in record.items()}
    if _text(fields.get("state")) != "ok":
        return 0
    probe_s = _number(fields.get("probe_s"), health.PROBE_INTERVAL_S)
    heartbeat = _number(fields.get("heartbeat"), 0.0)
    if now - heartbeat > FRESH_PROBES * probe_s:
        return 0
    # A record written before workers said their concurrency counts one process.
    return max(1, int(_number(fields.get("concurrency"), 1)))


def read_capacity(client: Any, now: float | None = None) -> Capacity:
    """Return the match workers' capacity from their records in Redis (``client``); raise Redis's errors."""
    now = time.time() if now is None else now
    keys = list(client.scan_iter(match=f"{health.WORKER_PREFIX}*", count=1000))
    with client.pipeline(transaction=False) as pipe:
        for key in keys:
            pipe.hgetall(key)
        records = pipe.execute()
    counted = [counted_processes(record, now) for record in records]
    return Capacity(processes=sum(counted), workers=sum(1 for n in counted if n))


def worker_capacity(client: Any) -> Capacity | None:
    """Return the match workers' capacity, or None when it cannot be known (no Redis, or Redis did not answer)."""
    if client is None:
        return None
    import redis

    try:
        return read_capacity(client)
    except (redis.RedisError, OSError):
        return None


def target_depth(capacity: Capacity, depth_per_process: int) -> int:
    """Return how many series to keep queued or running for ``capacity``: ``depth_per_process`` per process."""
    if depth_per_process < 1:
        raise ValueError(f"depth_per_process must be at least 1, got {depth_per_process}")
    return capacity.processes * depth_per_process


def season_weight(active_entries: int, seats_per_series: int) -> float:
    """Return a season's weight for :func:`split`: its active entries per seat of a series."""
    return active_entries / max(1, seats_per_series)


def split(free: int, seasons: Iterable[SeasonLoad]) -> dict[int, int]:
    """Share ``free`` slots between ``seasons``: each in turn to the lowest (outstanding + given) / weight.

    Ties go to the lower season id. Seasons of weight 0 get nothing; the shares
    add up to ``free`` whenever one season has a weight.
    """
    heap = [(load.outstanding / load.weight, load.season_id, load) for load in seasons if load.weight > 0]
    heapq.heapify(heap)
    shares: dict[int, int] = {}
    for _ in range(max(0, free) if heap else 0):
        _, season_id, load = heapq.heappop(heap)
        given = shares[season_id] = shares.get(season_id, 0) + 1
        heapq.heappush(heap, ((load.outstanding + given) / load.weight, season_id, load))
    return shares
