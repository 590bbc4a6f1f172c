"""Beat tasks on the platform queue: the matchmaker, the sweeper, sending lost series again, the pair records."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.conf import settings

from arena import tasking
from arena.matchmaking.inventory import resend_lost
from arena.matchmaking.scheduling import sweep_overdue, top_up
from arena.series.head_to_head import fold_all

logger = logging.getLogger(__name__)

#: Set while a top-up asked for by a recording is queued; the top-up drops it as it starts, so results
#: recorded meanwhile ask for one more, and never more than one waits. It expires should the task be lost.
TOP_UP_MARK = "arena:matchmaker:top-up-queued"
TOP_UP_MARK_TTL_S = 10


@shared_task(name="arena.matchmake")
def matchmake_task(slots_per_season: int = 4) -> int:
    """Top the running seasons up to the match workers' capacity (or ``slots_per_season`` each); return how many.

    With a broker the series queued or running are kept at the target depth the
    match workers' records give (arena/matchmaking/pace.py); where that cannot
    be known (no broker: the embedded default) each running season gets up to
    ``slots_per_season`` new series.
    """
    return top_up(slots_per_season, settings.ARENA_MATCHMAKER_DEPTH_PER_PROCESS)


@shared_task(name="arena.top_up")
def top_up_task() -> int:
    """Top the running seasons up after series were recorded (never with the fixed slots); return how many."""
    client = tasking.broker_redis()
    if client is not None:
        try:
            client.delete(TOP_UP_MARK)
        except Exception as exc:  # Redis restarting: the mark expires by itself
            logger.info("matchmaker: could not drop the top-up mark: %s", exc)
        finally:
            client.close()
    return top_up(settings.ARENA_MATCHMAKER_SLOTS, settings.ARENA_MATCHMAKER_DEPTH_PER_PROCESS, fallback=False)


def request_top_up(sender: Any = None, **kwargs: Any) -> bool:
    """Receiver of ``series_recorded``: queue one top-up unless one is queued already; True if it queued one.

    Only with a broker and the pace on: the embedded default tops up at the beat only.
    """
    if settings.ARENA_MATCHMAKER_DEPTH_PER_PROCESS < 1:
        return False
    client = tasking.broker_redis()
    if client is None:
        return False
    try:
        queued = bool(client.set(TOP_UP_MARK, 1, nx=True, ex=TOP_UP_MARK_TTL_S))
    except Exception as exc:  # Redis away: the beat tops up
        logger.info("matchmaker: no top-up after the recording (%s); the beat's comes", exc)
        return False
    finally:
        client.close()
    if queued:
        tasking.send(top_up_task.s())
    return queued


@shared_task(name="arena.sweep_overdue_series")
def sweep_overdue_series_task() -> list[int]:
    """Requeue series stuck past their deadline (or fail them); return [requeued, failed]."""
    return list(sweep_overdue())


@shared_task(name="arena.resend_lost_series")
def resend_lost_series_task() -> list[int]:
    """Send again the queued series Redis no longer holds anywhere (arena.matchmaking.inventory); return their ids."""
    return resend_lost()


@shared_task(name="arena.fold_pair_records")
def fold_pair_records_task() -> int:
    """Add the series done since the last fold to the bot pages' pair records; return how many."""
    return fold_all()
