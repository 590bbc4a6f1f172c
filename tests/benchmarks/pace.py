"""The ladder's pace: series a minute and queue wait with 1, 2 and 4 match worker processes; the recorder's headroom.

Run: ``.venv/bin/python tests/benchmarks/pace.py`` (``--quick`` for a short
run). It starts a PostgreSQL cluster and a Redis server of its own on free
ports (it never touches the machine's), migrates, registers Watch reference
bots (random and greedy) under many owners and starts two seasons of very
different sizes: "Big" with ``--big`` versions and "Small" with ``--small``.
Then, for each matchmaker (``fixed``: the old rule, ``ARENA_MATCHMAKER_SLOTS``
new series per season at each beat, ``ARENA_MATCHMAKER_DEPTH_PER_PROCESS=0``;
``pace``: the series outstanding kept at twice the workers' capacity and
topped up after each recording) and each number of match worker processes
(``--processes``, 1, 2 and 4: one worker with one process, two with one,
two with two as docker-compose.yml runs them), it starts what production
runs, as separate ``celery`` processes (a platform worker with two
processes, the beat at the production interval of 10 s, the match workers),
lets the ladder warm up for ``--warm-up`` seconds, measures for
``--window`` seconds, then pauses the seasons, lets the queue drain and
stops the processes.

For each run it prints: series recorded a minute (in all, and per season);
the queue wait of the series recorded in the window (created, by the
matchmaker, to started, by the match worker: p50, p95, max); and the
recording side's headroom: the CPU time the platform worker's processes
(recording, the drains, the top-ups) used in the window, as a share of one
core and per series recorded, with the ceiling that implies (series a
minute the two platform processes could record at that cost, CPU bound);
and the machine's load average. ``--json FILE`` also writes the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.append(str(REPO / "platform"))  # appended: platform/ must never shadow the standard library's module

from tests.arena.services import OwnPostgres, OwnRedis, service_environment  # noqa: E402
from tests.benchmarks.chaos import Process  # noqa: E402

PACKAGES = REPO / "bots" / "watch" / "packages"
MODES = ("fixed", "pace")
#: Platform worker processes: the compose file's.
PLATFORM_PROCESSES = 2
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def match_workers(processes: int) -> list[int]:
    """Return the concurrency of each match worker for ``processes`` in all: 1 -> [1], 2 -> [1, 1], 4 -> [2, 2]."""
    if processes == 1:
        return [1]
    if processes % 2:
        raise ValueError(f"an odd number of processes above 1 is not a run of this benchmark: {processes}")
    return [processes // 2, processes // 2]


def tree_cpu_seconds(pid: int) -> float:
    """Return the user + system CPU seconds of process ``pid`` and its living descendants."""
    total = 0.0
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
            for task in Path(f"/proc/{current}/task").iterdir():
                pending += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return total


def set_up(big: int, small: int) -> list[Any]:
    """Migrate, register ``big`` + ``small`` versions of the reference bots and start the two seasons."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from arena.bots.submissions import mark_validation_result, submit_version
    from arena.seasons.models import Season, SeasonEntry

    call_command("migrate", verbosity=0, interactive=False)
    seasons = []
    for name, size in (("Big", big), ("Small", small)):
        season = Season.objects.create(name=name, game="watch", games_per_series=2, players_per_series=2)
        for number in range(size):
            package = ("random", "greedy")[number % 2]
            owner = get_user_model().objects.create_user(f"{name.lower()}-{package}-{number}")
            version = submit_version(owner, package, PACKAGES / package)
            # Marked valid here: the run is about the pace, not validation.
            version = mark_validation_result(version, True, "pace benchmark")
            SeasonEntry.objects.create(season=season, version=version)
        season.transition(Season.Status.RUNNING)
        seasons.append(season)
    return seasons


class Stack:
    """The servers of the whole benchmark and the Celery processes of one run."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.postgres = OwnPostgres()
        self.redis = OwnRedis()
        self.processes: dict[str, Process] = {}

    def environment(self, mode: str, interval_s: int) -> dict[str, str]:
        return service_environment(
            DJANGO_SETTINGS_MODULE="arena.settings",
            ARENA_DATABASE_URL=self.postgres.url,
            ARENA_BROKER_URL=self.redis.url,
            ARENA_VAR_DIR=str(self.work / "var"),
            ARENA_ARTIFACT_DIR=str(self.work / "artifacts"),
            ARENA_MATCHMAKER_INTERVAL_S=str(interval_s),
            ARENA_MATCHMAKER_SLOTS="4",
            ARENA_MATCHMAKER_DEPTH_PER_PROCESS="0" if mode == "fixed" else "2",
            ARENA_SERIES_TIME_LIMIT_S="300",
            ARENA_WORKER_PROBE_S="2",
        )

    def start(self, mode: str, processes: int, interval_s: int, run: str) -> None:
        env = self.environment(mode, interval_s)
        logs = self.work / "logs" / run
        logs.mkdir(parents=True, exist_ok=True)
        quiet = ["--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "info"]
        self.processes = {
            "platform-worker": Process(
                "platform-worker",
                ["-A", "arena.celeryconf", "worker", "-Q", "platform", "-c", str(PLATFORM_PROCESSES), *quiet],
                env,
                logs,
            ),
            "beat": Process(
                "beat", ["-A", "arena.celeryconf", "beat", "-s", str(logs / "beat-schedule"), "-l", "info"], env, logs
            ),
        }
        for number, concurrency in enumerate(match_workers(processes), 1):
            worker_env = {**env, "ARENA_WORKER_CACHE": str(self.work / f"cache-{number}")}
            worker_env.pop("ARENA_DATABASE_URL")  # match workers hold no database credentials
            name = f"match-worker-{number}"
            self.processes[name] = Process(
                name,
                ["-A", "workers.celery_app", "worker", "-Q", "matches", "-c", str(concurrency), "-n",
                 f"match{number}@%h", *quiet],
                worker_env,
                logs,
            )  # fmt: skip
        for process in self.processes.values():
            process.start()

    def stop_processes(self) -> None:
        for process in self.processes.values():
            process.stop()
        self.processes = {}

    def platform_cpu_s(self) -> float:
        popen = self.processes["platform-worker"].popen
        return tree_cpu_seconds(popen.pid) if popen is not None else 0.0


def outstanding() -> int:
    from arena.series.models import Series, SeriesState

    return Series.objects.filter(state__in=[SeriesState.QUEUED, SeriesState.RUNNING]).count()


def set_status(seasons: list[Any], status: str) -> None:
    from arena.seasons.models import Season

    Season.objects.filter(pk__in=[s.pk for s in seasons]).update(status=status)


def drain(timeout_s: float) -> None:
    """Wait until no series is queued or running and no result waits in an inbox."""
    from arena.series.models import PendingResult

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if not outstanding() and not PendingResult.objects.exists():
            return
        time.sleep(1)
    raise SystemExit(f"pace: the run did not drain within {timeout_s:.0f} s")


def figures(seasons: list[Any], start: datetime, end: datetime) -> dict[str, Any]:
    """Return the series recorded in [start, end): per minute, per season, and their queue waits."""
    from arena.series.models import Series, SeriesState

    rows = list(
        Series.objects.filter(state=SeriesState.DONE, finished_at__gte=start, finished_at__lt=end).values_list(
            "season_id", "created", "started_at"
        )
    )
    minutes = (end - start).total_seconds() / 60
    waits = sorted(max(0.0, (started - created).total_seconds()) for _, created, started in rows if started)

    def rank(quantile: float) -> float | None:
        return round(waits[max(0, math.ceil(quantile * len(waits)) - 1)], 2) if waits else None

    return {
        "series": len(rows),
        "per_minute": round(len(rows) / minutes, 1),
        "per_season_per_minute": {
            season.name: round(sum(1 for s, _, _ in rows if s == season.pk) / minutes, 1) for season in seasons
        },
        "wait_p50_s": rank(0.5),
        "wait_p95_s": rank(0.95),
        "wait_max_s": round(waits[-1], 2) if waits else None,
        "waits_known": len(waits),
    }


def run_one(stack: Stack, seasons: list[Any], mode: str, processes: int, args: argparse.Namespace) -> dict[str, Any]:
    """Start the processes for ``mode`` and ``processes``, warm up, measure, drain; return the figures."""
    from arena.seasons.models import Season

    run = f"{mode}-{processes}"
    print(f"pace: {run}: starting", flush=True)
    set_status(seasons, Season.Status.RUNNING)
    stack.start(mode, processes, args.interval, run)
    try:
        time.sleep(args.warm_up)
        start, cpu_before, load_before = datetime.now(UTC), stack.platform_cpu_s(), os.getloadavg()[0]
        time.sleep(args.window)
        end, cpu_after = datetime.now(UTC), stack.platform_cpu_s()
        load = (load_before + os.getloadavg()[0]) / 2
        set_status(seasons, Season.Status.PAUSED)
        drain(timeout_s=300)
    finally:
        stack.stop_processes()
    found = figures(seasons, start, end)
    cpu_s = cpu_after - cpu_before
    window_s = (end - start).total_seconds()
    per_series_ms = cpu_s / found["series"] * 1000 if found["series"] else None
    found.update(
        mode=mode,
        processes=processes,
        platform_cpu_share=round(cpu_s / window_s, 3),
        platform_cpu_ms_per_series=round(per_series_ms, 1) if per_series_ms else None,
        recording_ceiling_per_minute=round(PLATFORM_PROCESSES * 60_000 / per_series_ms) if per_series_ms else None,
        load_average=round(load, 2),
    )
    print(f"pace: {run}: {json.dumps(found)}", flush=True)
    return found


def report(results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    names = list(results[0]["per_season_per_minute"]) if results else []
    print(
        f"\n## The ladder's pace ({args.window:g} s measured after {args.warm_up:g} s of warm-up; "
        f"seasons: {args.big} and {args.small} versions; beat every {args.interval} s)\n"
    )
    print(
        "| matchmaker | match processes | series/min | "
        + " | ".join(f"{name} /min" for name in names)
        + " | wait p50 s | wait p95 s | wait max s | platform worker CPU (of one core) | CPU ms per series "
        "| recording ceiling /min | load average |"
    )
    print("|---" * (11 + len(names)) + "|")
    for r in results:
        seasons = " | ".join(f"{r['per_season_per_minute'][name]:.1f}" for name in names)
        print(
            f"| {r['mode']} | {r['processes']} | {r['per_minute']:.1f} | {seasons} | {r['wait_p50_s']} | "
            f"{r['wait_p95_s']} | {r['wait_max_s']} | {r['platform_cpu_share'] * 100:.0f} % | "
            f"{r['platform_cpu_ms_per_series']} | {r['recording_ceiling_per_minute']} | {r['load_average']} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="a short run: 15 s warm-up, 30 s window, 1 and 2 processes"
    )
    parser.add_argument("--processes", type=int, nargs="+", help="match worker processes per run (default 1 2 4)")
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES), help="matchmakers to run")
    parser.add_argument("--warm-up", type=float, help="seconds before measuring (default 20)")
    parser.add_argument("--window", type=float, help="seconds measured (default 90)")
    parser.add_argument("--big", type=int, default=16, help="versions in the big season (default 16)")
    parser.add_argument("--small", type=int, default=4, help="versions in the small season (default 4)")
    parser.add_argument("--interval", type=int, default=10, help="the beat's matchmaker interval, s (default 10)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    args.processes = args.processes or ([1, 2] if args.quick else [1, 2, 4])
    args.warm_up = args.warm_up if args.warm_up is not None else (15.0 if args.quick else 20.0)
    args.window = args.window if args.window is not None else (30.0 if args.quick else 90.0)
    for processes in args.processes:
        try:
            match_workers(processes)
        except ValueError as exc:
            parser.error(str(exc))
    if args.small < 2 or args.big < 2:
        parser.error("each season needs at least 2 versions")
    work = Path(tempfile.mkdtemp(prefix="arena-pace-"))
    stack = Stack(work)
    stack.postgres.start()
    stack.postgres.create_database()
    stack.redis.start()
    results = []
    try:
        os.environ.update(stack.environment("pace", args.interval))
        import django

        django.setup()
        seasons = set_up(args.big, args.small)
        for mode in args.modes:
            for processes in args.processes:
                results.append(run_one(stack, seasons, mode, processes, args))
    finally:
        stack.stop_processes()
        stack.redis.remove()
        stack.postgres.stop()
    report(results, args)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    print(f"logs: {work / 'logs'}")


if __name__ == "__main__":
    main()
