"""Platform-queue tasks: record a finished series; run the matchmaker and the sweeper on the beat."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from arena.seasons.models import Season


@shared_task(name="arena.record_series_result", autoretry_for=(OSError,), retry_backoff=2, max_retries=10)
def record_series_result_task(outcome: dict[str, Any]) -> bool:
    """Apply a match worker's ``{"series_id", "result"}`` exactly once; False if it was already recorded."""
    from arena.series.recording import record_series_result

    return record_series_result(outcome["series_id"], outcome["result"])


@shared_task(name="arena.matchmake")
def matchmake_task(slots_per_season: int = 4) -> int:
    """Queue up to ``slots_per_season`` new series in every running season; return how many."""
    from arena.matchmaking.scheduling import schedule_round

    return sum(
        len(schedule_round(season, slots_per_season)) for season in Season.objects.filter(status=Season.Status.RUNNING)
    )


@shared_task(name="arena.sweep_overdue_series")
def sweep_overdue_series_task() -> list[int]:
    """Requeue series stuck past their deadline (or fail them); return [requeued, failed]."""
    from arena.matchmaking.scheduling import sweep_overdue

    return list(sweep_overdue())


@shared_task(name="arena.apply_pending_results")
def apply_pending_results_task() -> int:
    """Apply every season's waiting results (a delivery that died between its insert and its apply)."""
    from arena.series.recording import apply_all_pending

    return apply_all_pending()
