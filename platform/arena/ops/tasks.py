"""Beat tasks on the platform queue: the matchmaker, the sweeper, sending lost series again, the pair records."""

from __future__ import annotations

from celery import shared_task

from arena.matchmaking.inventory import resend_lost
from arena.matchmaking.scheduling import schedule_round, sweep_overdue
from arena.seasons.models import Season
from arena.series.pairings import fold_all


@shared_task(name="arena.matchmake")
def matchmake_task(slots_per_season: int = 4) -> int:
    """Queue up to ``slots_per_season`` new series in every running season; return how many."""
    return sum(
        len(schedule_round(season, slots_per_season)) for season in Season.objects.filter(status=Season.Status.RUNNING)
    )


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
