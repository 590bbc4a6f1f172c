"""Find series the broker lost and send them again, in under a minute, whatever the series time limit.

A series is *queued* in the database from the moment the matchmaker creates
it until its result is recorded. Between the two it must be somewhere: a
message waiting in one of Redis's ``matches`` lists, a message a worker has
just taken (Redis's ``unacked`` hash), or a worker playing it, which holds the
series' lease (workers/delivery.py). A queued series found in none of them
after :data:`LOST_GRACE` was lost: Redis restarted without persistence, a
worker died holding it, a soft time limit acknowledged it, the sweeper's
publish failed while the broker was down, or its result was lost between
worker and platform (the results stream wiped with Redis). Before it judges,
the inventory drains the results stream, so a series whose result merely
waits there is recorded, not sent again. :func:`resend_lost` sends each such series again, with
the same seed; the recorder takes a series' first result only, so a series
that was merely slow and runs twice is still counted once.

The beat runs it every 20 s (``resend-lost-series``); the sweeper's
30-minute deadline stays as the last net. Without Redis (the embedded
default) there is no broker to lose anything and it does nothing.
"""

from __future__ import annotations

import json
import logging
import re
import time
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from arena.ratings import inflow
from arena.series.models import Series, SeriesState
from arena.tasking import broker_redis

logger = logging.getLogger(__name__)

#: A series sent less than this long ago may be between the platform and Redis, or between a
#: worker's fetch and its lease: left alone.
LOST_GRACE = timedelta(seconds=settings.ARENA_LOST_GRACE_S)
MATCHES_QUEUE = "matches"
UNACKED_KEY = "unacked"
UNACKED_INDEX_KEY = "unacked_index"
LEASE_PREFIX = "arena:lease:series:"
_TASK_ID = re.compile(r"^series-(\d{1,18})-")


@dataclass
class Inventory:
    """What Redis holds of the series: waiting in a queue, just taken by a worker, being played (leased)."""

    waiting: set[int] = field(default_factory=set)
    taken: set[int] = field(default_factory=set)
    leased: set[int] = field(default_factory=set)

    def holds(self, series_id: int) -> bool:
        """True if the series is on its way: waiting, or played under a live lease.

        A message taken by a worker that holds no lease for it (``taken`` only)
        was left by a worker that died: Redis would give it back only after the
        visibility timeout, hours later.
        """
        return series_id in self.waiting or series_id in self.leased


def series_of(raw: bytes | str) -> int | None:
    """Return the series a kombu message (JSON, as kombu keeps it in Redis) runs, from its task id; else None."""
    try:
        message = json.loads(raw)
        task_id = message["headers"]["id"]
    except (ValueError, KeyError, TypeError):
        return None
    match = _TASK_ID.match(task_id) if isinstance(task_id, str) else None
    return int(match.group(1)) if match else None


def read_inventory(client: Any, grace_s: float) -> Inventory:
    """Read the ``matches`` lists (every priority), the unacked hash and the leases from Redis."""
    found = Inventory()
    for key in client.scan_iter(match=f"{MATCHES_QUEUE}*", count=1000):
        if client.type(key) not in (b"list", "list"):
            continue
        for raw in client.lrange(key, 0, -1):
            series_id = series_of(raw)
            if series_id is not None:
                found.waiting.add(series_id)
    recent = time.time() - grace_s
    delivered = dict(client.zrangebyscore(UNACKED_INDEX_KEY, "-inf", "+inf", withscores=True))
    for tag, value in client.hgetall(UNACKED_KEY).items():
        try:
            message = json.loads(value)[0]
        except (ValueError, KeyError, TypeError, IndexError):
            continue
        series_id = series_of(json.dumps(message)) if isinstance(message, dict) else None
        if series_id is None:
            continue
        # A message a worker took moments ago may not have its lease yet: count it as waiting.
        (found.waiting if delivered.get(tag, 0) >= recent else found.taken).add(series_id)
    for key in client.scan_iter(match=f"{LEASE_PREFIX}*", count=1000):
        text = key.decode() if isinstance(key, bytes) else key
        suffix = text.removeprefix(LEASE_PREFIX)
        if suffix.isdigit():
            found.leased.add(int(suffix))
    return found


def resend_lost(now: Any = None, grace: timedelta = LOST_GRACE) -> list[int]:
    """Send again every queued series sent more than ``grace`` ago that Redis holds nowhere; return their ids."""
    from arena.matchmaking.scheduling import SERIES_DEADLINE, enqueue

    client = broker_redis()
    if client is None:
        return []
    # A series whose result waits in the results stream is not lost: record those first.
    _, empty = inflow.drain(client)
    if not empty:
        logger.warning("results are still waiting in the stream; lost series are looked for at the next round")
        return []
    now = now or timezone.now()
    inventory = read_inventory(client, grace.total_seconds())
    # A series' deadline is set to (time sent + SERIES_DEADLINE) each time it is sent.
    sent_before = now - grace + SERIES_DEADLINE
    pending = Series.objects.filter(state__in=[SeriesState.QUEUED, SeriesState.RUNNING], deadline__lt=sent_before)
    resent = []
    for series_id in pending.values_list("pk", flat=True):
        if inventory.holds(series_id):
            continue
        with transaction.atomic():
            series = Series.objects.select_for_update().select_related("season").get(pk=series_id)
            if series.state not in (SeriesState.QUEUED, SeriesState.RUNNING) or series.deadline >= sent_before:
                continue
            series.deadline = now + SERIES_DEADLINE
            series.save(update_fields=["deadline"])
            transaction.on_commit(lambda series=series: enqueue(series), robust=True)
        resent.append(series_id)
    if resent:
        logger.warning("resent %d series the broker no longer held: %s", len(resent), resent)
    return resent
