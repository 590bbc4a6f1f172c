"""Drain the match workers' results stream in batches, recording each result exactly once.

With Redis as the broker a match worker appends each ladder series' result to
the stream ``arena:results`` (workers/delivery.py) instead of sending one
Celery task per result, and queues at most one ``arena.drain_results`` at a
time to wake the platform. A drain reads the stream through the consumer group
:data:`GROUP` up to :data:`BATCH` entries at a time, records the whole batch
(:func:`arena.results.recording.record_many`: each season's share applied in
one transaction, or put in the inbox for the transaction that holds the
season's lock), and only once that has committed acknowledges and deletes the
entries.

Why no result is lost or counted twice:

- An entry leaves the stream only after the transaction that recorded its
  result (or put it in the inbox) has committed. A drain that dies in between
  leaves the entry pending in the group; the next drain claims it once it has
  been idle :data:`CLAIM_IDLE_MS` (``XAUTOCLAIM``) and records it again, which
  the series' ``done`` state (or the inbox's unique series) turns into nothing.
- A worker whose append failed keeps the result in its outbox and appends it
  again later; an append whose reply was lost may be there twice: the same
  uniqueness takes it once.
- If Redis loses the stream (restarted without its data), the series are
  still queued in the database under no lease and in no queue: the inventory
  (arena/matchmaking/inventory.py) sends them again with their seeds, and the
  replayed series brings its result again. The inventory drains the stream
  before it judges, so a result merely waiting there never costs a replay.
- An entry that cannot be read (not JSON, no series), or whose document the
  database refuses (found by recording a refused batch one by one), is moved
  to :data:`UNREADABLE` for an operator: never retried for ever, never
  dropped, and never holding up the results behind it.

An entry may also carry a ``failure`` instead of a result: the match workers
gave the series up (it failed on them as often as they try one,
workers/health.py). The drain marks the series failed with that reason, in
the same batch; a result of the series that arrives later is still recorded,
as for any failed series.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import time
from typing import Any

from django.db import DatabaseError, InterfaceError, OperationalError
from django.utils import timezone

from arena.results.recording import EncodedJson, record_many
from arena.series.models import Series, SeriesState
from workers.delivery import DRAIN_MARK, DRAIN_MARK_TTL_S, RESULTS_STREAM

logger = logging.getLogger(__name__)

#: The platform's consumer group on the results stream.
GROUP = "platform"
#: Entries read, inserted and acknowledged together.
BATCH = 500
#: An entry a consumer took this long ago without acknowledging it is claimed by the next drain.
CLAIM_IDLE_MS = 30_000
#: Where entries that name no series go, kept for an operator (the newest 10,000).
UNREADABLE = "arena:results:unreadable"
UNREADABLE_KEEP = 10_000
#: A drain stops after this long and queues the next, so one task never holds a worker for minutes.
BUDGET_S = 20.0
#: Consumers idle this long with nothing pending are removed from the group.
FORGET_CONSUMER_MS = 3_600_000


def consumer_name() -> str:
    return f"{socket.gethostname()}-{os.getpid()}"


def ensure_group(client: Any) -> None:
    """Create the stream and its consumer group unless they exist (a wiped Redis has neither).

    The group starts at the stream's beginning, so results appended before it
    existed are drained too.
    """
    import redis

    try:
        client.xgroup_create(RESULTS_STREAM, GROUP, id="0", mkstream=True)
    except redis.ResponseError as exc:
        if "BUSYGROUP" not in str(exc):
            raise


def read(fields: dict[Any, Any]) -> tuple[int, dict[str, Any]] | None:
    """Return ``(series id, result document)`` of a stream entry, or None when it names no series or result.

    The document is an :class:`arena.results.recording.EncodedJson`: it keeps
    the text the worker sent, which the log stores as it is.
    """
    series, text = fields.get(b"series", fields.get("series")), fields.get(b"result", fields.get("result"))
    try:
        series_id = int(series)
        document = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return None
    if not 0 < series_id < 2**63 or not isinstance(document, dict):
        return None
    return series_id, EncodedJson.of(document, text)


def read_failure(fields: dict[Any, Any]) -> tuple[int, str] | None:
    """Return ``(series id, reason)`` of an entry reporting a series the workers gave up, or None."""
    series, reason = fields.get(b"series", fields.get("series")), fields.get(b"failure", fields.get("failure"))
    try:
        series_id = int(series)
        text = reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)
    except (TypeError, ValueError):
        return None
    if reason is None or not 0 < series_id < 2**63:
        return None
    return series_id, text[:2000]


def fail_given_up(failures: list[tuple[int, str]]) -> int:
    """Mark the series the match workers gave up failed, with their reasons; return how many were still open."""
    now = timezone.now()
    failed = 0
    for series_id, reason in failures:
        failed += Series.objects.filter(pk=series_id, state__in=[SeriesState.QUEUED, SeriesState.RUNNING]).update(
            state=SeriesState.FAILED, finished_at=now, failure_reason=reason
        )
    if failed:
        logger.error("results stream: %d series given up by the match workers marked failed", failed)
    return failed


def take(client: Any, entries: list[tuple[Any, dict[Any, Any]]]) -> int:
    """Record a batch of entries, commit, then acknowledge and delete them; return how many series they recorded.

    The rest were duplicates, results of cancelled or unknown series, or unreadable.
    """
    results, unreadable, failures = [], [], []
    for _, fields in entries:
        if not fields:  # deleted from the stream while it was pending: nothing left to take
            continue
        found = read(fields)
        if found is not None:
            results.append((fields, found))
        elif (failure := read_failure(fields)) is not None:
            failures.append(failure)
        else:
            unreadable.append(fields)
    try:
        recorded = record_many([found for _, found in results])  # committed when it returns
    except (OperationalError, InterfaceError):
        raise  # the database is down: nothing is acknowledged, the next drain takes the batch again
    except (DatabaseError, ValueError) as exc:
        # A document the database refuses would fail its batch at every try and stall the stream
        # behind it: record one by one, and keep the ones refused alone for an operator.
        logger.error("results stream: a batch of %d was refused (%s); recording it one by one", len(results), exc)
        recorded = 0
        for fields, found in results:
            try:
                recorded += record_many([found])
            except (OperationalError, InterfaceError):
                raise
            except (DatabaseError, ValueError) as alone:
                unreadable.append({**fields, b"refused": str(alone)[:1000]})
                # Failed, with the reason, so the inventory does not replay it into the same refusal.
                Series.objects.filter(pk=found[0], state__in=[SeriesState.QUEUED, SeriesState.RUNNING]).update(
                    state=SeriesState.FAILED, failure_reason=f"result refused by the database: {alone}"[:2000]
                )
    if failures:  # after the results: a series both played and given up (two messages) counts as played
        fail_given_up(failures)
    ids = [entry_id for entry_id, _ in entries]
    with client.pipeline(transaction=False) as pipe:
        for fields in unreadable:
            pipe.xadd(UNREADABLE, fields, maxlen=UNREADABLE_KEEP, approximate=True)
        pipe.xack(RESULTS_STREAM, GROUP, *ids)
        pipe.xdel(RESULTS_STREAM, *ids)
        pipe.execute()
    if unreadable:
        logger.error("results stream: %d entries unreadable or refused; kept in %s", len(unreadable), UNREADABLE)
    if recorded < len(results):
        logger.info("results stream: %d of %d results recorded nothing new", len(results) - recorded, len(results))
    return recorded


def drain(client: Any, consumer: str | None = None, budget_s: float = BUDGET_S) -> tuple[int, bool]:
    """Record what waits in the results stream; return (series recorded, whether the stream is empty).

    First the entries other consumers took and left (idle :data:`CLAIM_IDLE_MS`),
    then new ones, :data:`BATCH` at a time, until none is left or ``budget_s``
    has passed. The workers' wake-up mark stays set while it drains (so an
    append meanwhile queues no second drain to compete for the season's lock);
    when the stream is empty it drops the mark and reads once more, since an
    append that still saw the mark woke nobody else.
    """
    consumer = consumer or consumer_name()
    ensure_group(client)
    deadline = time.monotonic() + budget_s
    recorded = 0

    def new_entries() -> list[tuple[Any, dict[Any, Any]]]:
        answer = client.xreadgroup(GROUP, consumer, {RESULTS_STREAM: ">"}, count=BATCH)
        return answer[0][1] if answer else []

    entries = client.xautoclaim(RESULTS_STREAM, GROUP, consumer, CLAIM_IDLE_MS, start_id="0-0", count=BATCH)[1]
    while True:
        entries = entries or new_entries()
        if not entries:
            client.delete(DRAIN_MARK)
            entries = new_entries()
            if not entries:
                return recorded, True
        client.expire(DRAIN_MARK, DRAIN_MARK_TTL_S)  # still draining: appends need not wake another
        recorded += take(client, entries)
        entries = []
        if time.monotonic() > deadline:
            return recorded, False


def forget_idle_consumers(client: Any) -> int:
    """Remove consumers of stopped platform workers (idle an hour, nothing pending); return how many."""
    import redis

    try:
        consumers = client.xinfo_consumers(RESULTS_STREAM, GROUP)
    except redis.ResponseError:  # no stream or no group yet
        return 0
    gone = 0
    for consumer in consumers:
        if consumer["pending"] == 0 and consumer["idle"] > FORGET_CONSUMER_MS:
            client.xgroup_delconsumer(RESULTS_STREAM, GROUP, consumer["name"])
            gone += 1
    return gone
