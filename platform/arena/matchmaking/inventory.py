"""Find series the broker lost and send them again, in under a minute, whatever the series time limit.

A series is *queued* in the database from the moment the matchmaker creates
it until its result is recorded. Between the two it must be somewhere: a
message waiting in one of Redis's ``matches`` lists, a message a worker has
just taken (Redis's ``unacked`` hash), or a worker playing it, which holds the
series' lease (workers/delivery.py). A queued series found in none of them
after :data:`LOST_GRACE` was lost: Redis restarted without persistence, a
worker died holding it, a soft time limit acknowledged it, the sweeper's
publish failed while the broker was down, or its result was lost between
worker and platform (the results stream wiped with Redis). :func:`resend_lost`
sends each such series again, with the same seed; the recorder takes a
series' first result only, so a series that was merely slow and runs twice is
still counted once.

A result on its way never costs a replay. The inventory drains the results
stream before it judges, and then counts as held every series whose result is
still in the stream: not read yet, or read by a drain (another platform
worker's, say) whose transaction has not committed. A drain deletes an entry
only after its commit, and the database is read after the stream, so a result
is always either still in the stream or already committed when the series is
judged. A series whose result waits in its season's inbox (``PendingResult``)
is not judged either. The match worker holds its lease until its result is in
the stream.

Resends are counted on the series (``Series.resends``) and in Redis
(:data:`RESENDS_COUNTER`, for the operator's metrics); a series found lost
again after :data:`MAX_RESENDS` resends is failed with the reason instead of
sent again. Each resend moves the series' deadline (the sweeper's) to 30
minutes after it, as the first sending did, so the cap also bounds how far
the deadline moves.

The beat runs it every 20 s (``resend-lost-series``); the sweeper's
30-minute deadline stays as the last net. Without Redis (the embedded
default) there is no broker to lose anything and it does nothing.
"""

from __future__ import annotations

import contextlib
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

from arena.results import inflow
from arena.series.models import PendingResult, Series, SeriesState
from arena.tasking import broker_redis
from workers.delivery import RESULTS_STREAM
from workers.health import TRIES_PREFIX

logger = logging.getLogger(__name__)

#: A series sent less than this long ago may be between the platform and Redis, or between a
#: worker's fetch and its lease: left alone.
LOST_GRACE = timedelta(seconds=settings.ARENA_LOST_GRACE_S)
MATCHES_QUEUE = "matches"
UNACKED_KEY = "unacked"
UNACKED_INDEX_KEY = "unacked_index"
LEASE_PREFIX = "arena:lease:series:"
_TASK_ID = re.compile(r"^series-(\d{1,18})-")
#: Resends of a series before it is failed instead (each one means it was lost again).
MAX_RESENDS = settings.ARENA_SERIES_MAX_RESENDS
#: Every resend, counted for /ops/metrics (a counter: it restarts at 0 with a wiped Redis).
RESENDS_COUNTER = "arena:stats:series-resent"
#: Stream entries read to find results on their way; with more waiting, judging waits for the next round.
STREAM_READ_LIMIT = 2 * inflow.BATCH


@dataclass
class Inventory:
    """What Redis holds of the series: waiting in a queue, just taken by a worker, being played (leased)."""

    waiting: set[int] = field(default_factory=set)
    taken: set[int] = field(default_factory=set)
    leased: set[int] = field(default_factory=set)
    #: Series whose result is in the results stream: not drained yet, or being recorded.
    results: set[int] = field(default_factory=set)
    #: False when the stream held too many entries to read: nothing may be judged lost this round.
    complete: bool = True

    def holds(self, series_id: int) -> bool:
        """True if the series is on its way: waiting, played under a live lease, or its result in the stream.

        A message taken by a worker that holds no lease for it (``taken`` only)
        was left by a worker that died: Redis would give it back only after the
        visibility timeout, hours later.
        """
        return series_id in self.waiting or series_id in self.leased or series_id in self.results


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
    # Last: a worker appends its result before it drops its lease, so a result is in the stream by
    # the time its lease is gone, and stays there until the drain that took it has committed.
    entries = client.xrange(RESULTS_STREAM, "-", "+", count=STREAM_READ_LIMIT + 1)
    found.complete = len(entries) <= STREAM_READ_LIMIT
    for _, fields in entries:
        series = fields.get(b"series", fields.get("series"))
        with contextlib.suppress(TypeError, ValueError):
            found.results.add(int(series))
    return found


def resend_lost(now: Any = None, grace: timedelta = LOST_GRACE) -> list[int]:
    """Send again every queued series sent more than ``grace`` ago that Redis holds nowhere; return their ids.

    A series already resent :data:`MAX_RESENDS` times is failed instead, with the reason.
    """
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
    if not inventory.complete:
        logger.warning("results are still arriving in the stream; lost series are looked for at the next round")
        return []
    # A series' deadline is set to (time sent + SERIES_DEADLINE) each time it is sent.
    sent_before = now - grace + SERIES_DEADLINE
    # Read only now, after Redis: a result that left the stream had been committed before (see the docstring).
    pending = Series.objects.filter(
        state__in=[SeriesState.QUEUED, SeriesState.RUNNING], deadline__lt=sent_before, pending_result__isnull=True
    )
    resent, failed = [], []
    for series_id in pending.values_list("pk", flat=True):
        if inventory.holds(series_id):
            continue
        with transaction.atomic():
            series = Series.objects.select_for_update().select_related("season").get(pk=series_id)
            if series.state not in (SeriesState.QUEUED, SeriesState.RUNNING) or series.deadline >= sent_before:
                continue
            if PendingResult.objects.filter(series_id=series_id).exists():
                continue  # its result arrived meanwhile and waits for its season's lock
            if series.resends >= MAX_RESENDS:
                series.state = SeriesState.FAILED
                series.finished_at = now
                series.failure_reason = given_up_reason(client, series)
                series.save(update_fields=["state", "finished_at", "failure_reason"])
                failed.append(series_id)
                continue
            series.resends += 1
            series.deadline = now + SERIES_DEADLINE
            series.save(update_fields=["resends", "deadline"])
            transaction.on_commit(lambda series=series: enqueue(series), robust=True)
        resent.append(series_id)
    if resent:
        logger.warning("resent %d series the broker no longer held: %s", len(resent), resent)
        with contextlib.suppress(Exception):  # only the operator's counter
            client.incrby(RESENDS_COUNTER, len(resent))
    if failed:
        logger.error("failed %d series lost again after %d resends: %s", len(failed), MAX_RESENDS, failed)
    return resent


def given_up_reason(client: Any, series: Series) -> str:
    """Return why a series lost after its last resend is failed: the count, and its last failure on a worker."""
    reason = (
        f"lost {series.resends + 1} times between the platform and the match workers and sent again "
        f"{series.resends} times (ARENA_SERIES_MAX_RESENDS); not sent again"
    )
    try:
        last = client.hget(f"{TRIES_PREFIX}{series.pk}", "last")
    except Exception:  # Redis restarting: the count alone says enough
        last = None
    if last:
        text = last.decode(errors="replace") if isinstance(last, bytes) else str(last)
        reason += f"; its last failure on a worker: {text}"
    return reason[:2000]
