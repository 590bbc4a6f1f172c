"""Platform-queue tasks of the ratings: record a series exactly once, drain the results stream, apply the inboxes."""

from __future__ import annotations

import logging
from typing import Any

import redis
from celery import current_app, shared_task

from arena import tasking
from arena.ratings import inflow, recording
from arena.ratings.recording import apply_all_pending

logger = logging.getLogger(__name__)


@shared_task(
    name="arena.record_series_result",
    **tasking.RETRY_WHILE_THE_DATABASE_IS_DOWN,
)
def record_series_result_task(outcome: dict[str, Any]) -> bool:
    """Take a match worker's ``{"series_id", "result"}`` exactly once; False if it was already taken.

    With a broker the result goes to the season's inbox and one apply per season
    is queued shortly after, so results that arrive together are applied as one
    batch; without one (the embedded default) it is applied at once.
    """
    if current_app.conf.task_always_eager:
        return recording.record_series_result(outcome["series_id"], outcome["result"])
    return recording.deliver_series_result(
        outcome["series_id"],
        outcome["result"],
        lambda season_id: apply_season_results_task.apply_async((season_id,), countdown=recording.APPLY_DELAY_S),
    )


@shared_task(name="arena.apply_season_results")
def apply_season_results_task(season_id: int) -> int:
    """Apply season ``season_id``'s waiting results in batches; return how many."""
    recording.release_apply(season_id)
    return recording.apply_pending(season_id)


@shared_task(name="arena.apply_pending_results")
def apply_pending_results_task() -> int:
    """Apply every season's waiting results (a delivery that died between its insert and its apply)."""
    return apply_all_pending()


@shared_task(
    name="arena.drain_results",
    **tasking.RETRY_WHILE_THE_DATABASE_IS_DOWN,
)
def drain_results_task() -> int:
    """Record the results waiting in the match workers' stream (arena.ratings.inflow); return how many were new.

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
