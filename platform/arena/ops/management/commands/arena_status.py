"""``manage.py arena_status``: the pipeline at a glance, for operators (``--json`` for scripts and monitoring)."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from arena.ops.status import collect_status, format_duration


def status_lines(status: dict[str, Any]) -> list[str]:
    """Return the status as text lines, one topic per block."""
    lines = [f"Watch Arena status at {status['at']}", f"broker: {status['broker']}"]
    queues = status["queues"]
    if "error" in queues or "note" in queues:
        lines.append(f"queues: {queues.get('error') or queues['note']}")
    else:
        lines.append("queues: " + ", ".join(f"{name} {depth} waiting" for name, depth in queues.items()))
    workers = status["workers"]
    if "note" in workers or "error" in workers:
        lines.append(f"workers: {workers.get('error') or workers['note']}")
    else:
        lines.append(f"workers: {len(workers['workers'])} answered")
        lines += [f"  {w['name']}: {', '.join(w['queues']) or 'no queues'}" for w in workers["workers"]]
    lines += health_lines(status["worker_health"], status["resends"])
    lines += pace_lines(status["pace"], status["queue_wait"])
    rate = status["throughput"]
    lines.append(
        f"series per minute: {rate['last_5_minutes']:.2f} (last 5 min), {rate['last_60_minutes']:.2f} (last 60 min)"
    )
    oldest = status["oldest_outstanding"]
    if oldest is None:
        lines.append("oldest queued/running series: none")
    else:
        overdue = " OVERDUE" if oldest["overdue"] else ""
        lines.append(
            f"oldest queued/running series: {oldest['id']} ({oldest['state']}, {oldest['season']}), "
            f"age {format_duration(oldest['age_seconds'])}, deadline {oldest['deadline'] or '-'}{overdue}, "
            f"attempts {oldest['attempts']}"
        )
    failed = status["failed_last_day"]
    lines.append(f"failed series in the last day: {failed['count']}")
    lines += [f"  {f['id']} ({f['season']}, {f['failed_at']}): {f['reason']}" for f in failed["latest"]]
    waiting = status["awaiting_validation"]
    lines.append(
        f"versions awaiting validation: {waiting['count']}"
        + (f", oldest waiting {format_duration(waiting['oldest_seconds'])}" if waiting["count"] else "")
    )
    seasons = status["running_seasons"]
    lines.append(f"running seasons: {len(seasons)}")
    lines += [
        f"  {s['name']} ({s['game']}): {s['entries']} entries, {s['series_done']} series done, "
        f"{s['series_queued']} queued, {s['series_running']} running"
        for s in seasons
    ]
    return lines


def health_lines(worker_health: dict[str, Any], resends: dict[str, Any]) -> list[str]:
    """Return the match workers' own health records and the counts of series sent again, as text lines."""
    rows = worker_health["workers"]
    if "error" in worker_health or "note" in worker_health:
        lines = [f"match workers' health: {worker_health.get('error') or worker_health['note']}"]
    else:
        out = sum(row["state"] == "out" for row in rows)
        lines = [f"match workers' health: {len(rows)} reporting, {out} took themselves out"]
    for row in rows:
        counts = f"series played {row['series_played']}, infrastructure failures {row['infrastructure_failures']}"
        if row["state"] == "out":
            back = (
                f"tries again in {format_duration(row['back_in_seconds'])}"
                if row["back_in_seconds"] is not None
                else "back when that is fixed"
            )
            since = format_duration(row["out_seconds"])
            lines.append(f"  {row['name']}: OUT for {since}: {row['reason']}; {back} ({counts})")
        else:
            lines.append(f"  {row['name']}: takes series ({counts})")
    if "error" in resends or "note" in resends:
        lines.append(f"series sent again: {resends.get('error') or resends['note']}")
    else:
        lines.append(
            f"series sent again: {resends['resent']} found lost and resent, {resends['retried']} back to the queue "
            f"after failing on a worker, {resends['given_up']} given up"
        )
    return lines


def pace_lines(pace: dict[str, Any], wait: dict[str, Any]) -> list[str]:
    """Return what the matchmaker sees (capacity, target) and how long recent series waited, as text lines."""
    if "capacity" not in pace:
        seen = f"matchmaker: fixed slots per season at each beat ({pace.get('error') or pace['note']})"
    elif pace["target"] is None:
        seen = f"matchmaker: fixed slots per season at each beat (pace off); capacity {pace['capacity']} processes"
    else:
        seen = (
            f"matchmaker: capacity {pace['capacity']} processes on {pace['workers']} workers, "
            f"keeps {pace['target']} series queued or running"
        )
    if not wait["count"]:
        return [seen, "queue wait (series recorded in the last 5 min): none known"]
    return [
        seen,
        f"queue wait (series recorded in the last 5 min): p50 {wait['p50']:.1f} s, p95 {wait['p95']:.1f} s, "
        f"max {wait['max']:.1f} s over {wait['count']} series",
    ]


class Command(BaseCommand):
    help = "Show queue depths, throughput, workers, stuck and failed series, validations and running seasons."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")

    def handle(self, *args: Any, **options: Any) -> None:
        status = collect_status()
        if options["json"]:
            self.stdout.write(json.dumps(status, indent=2))
        else:
            self.stdout.write("\n".join(status_lines(status)))
