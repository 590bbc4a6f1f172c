"""Platform-queue tasks of the ratings: record a series exactly once, drain the results stream, apply the inboxes."""

from __future__ import annotations

import logging
from typing import Any

import redis
from celery import shared_task

from arena import tasking
from arena.results import inflow, recording
from arena.results.recording import apply_all_pending

logger = logging.getLogger(__name__)


@shared_task(
    name="arena.record_series_result",
    **tasking.RETRY_WHILE_THE_DATABASE_IS_DOWN,
)
def record_series_result_task(outcome: dict[str, Any]) -> bool:
    """Take a match worker's ``{"series_id", "result"}`` exactly once; False if it was already taken.

    The same road in process (the embedded default, tests) and with a broker:
    the result goes to its season's inbox and the inbox is applied at once
    unless another transaction holds the season, which then applies it after
    its commit (arena.results.recording).
    """
    return recording.record_series_result(outcome["series_id"], outcome["result"])


@shared_task(name="arena.apply_pending_results")
def apply_pending_results_task() -> int:
    """Apply every season's waiting results (a delivery that died between its insert and its apply)."""
    return apply_all_pending()


@shared_task(
    name="arena.drain_results",
    **tasking.RETRY_WHILE_THE_DATABASE_IS_DOWN,
)
def drain_results_task() -> int:
    """Record the results waiting in the match workers' stream (arena.results.inflow); return how many were new.

    Queued by a match worker after its append (one at a time) and by the beat
    every few seconds; a drain that used its time budget queues the next one.
    Without Redis there is no stream and it does nothing.
    """
    client = tasking.broker_redis()
    if client is None:
        return 0
    try:
        recorded, empty = inflow.drain(client)
    except (redis.ConnectionError, redis.TimeoutError) as exc:  # Redis restarting: the stream waits for it
        logger.warning("results stream: Redis did not answer (%s); the next drain takes the results", exc)
        return 0
    if not empty:
        tasking.send(drain_results_task.s())
    inflow.forget_idle_consumers(client)
    return recorded
