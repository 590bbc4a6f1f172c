"""Chaos run: the production processes on their own PostgreSQL and Redis, with faults on a seeded schedule.

Run: ``.venv/bin/python tests/benchmarks/chaos.py`` (``--series 1000`` by
default; ``--fault-every 20`` seconds; ``--seed 1``). It starts a PostgreSQL
cluster and a Redis server of its own on free ports (it never touches the
machine's), migrates, registers six versions of the Watch reference bots and
starts a season, then runs what production runs: a platform worker, the beat
and two match workers, as separate ``celery`` processes. The first fifth of
the series is played without faults (the baseline throughput); then, every
``--fault-every`` seconds, the next fault of a seeded cycle over every kind:

* ``kill-match-child``: SIGKILL of a match worker's pool process mid-series;
* ``kill-match-worker``: SIGKILL of a whole match worker, started again 1 s later;
* ``kill-platform-worker``: SIGKILL of the platform worker, started again 1 s later;
* ``restart-redis``: Redis (append-only file, fsync always) killed and started
  again: it comes back with what it held;
* ``restart-redis-wiped``: Redis killed, its files deleted, started again: every
  queued message is lost, as with a server without persistence;
* ``restart-postgres-fast`` and ``restart-postgres-immediate``: PostgreSQL
  restarted, its clients told to go, or as after a crash;
* ``hang-postgres``: every PostgreSQL process stopped (SIGSTOP) for
  ``--hang-s`` seconds, then let go on: it neither answers nor drops a
  connection, as a stalled host would. Meanwhile ``/ops/metrics`` is read as
  a scraper reads it; its answer (and how long it took) is in the fault's line;
* ``full-disk``: a match worker restarted with its cache on a file system
  that is full (a tmpfs of the run's own), freed ``--sick-s`` seconds later: it
  must take itself out (workers/health.py) and come back when freed, the
  other worker playing on;
* ``freeze-match-worker``: a match worker's processes (its main process and
  its pool process, not the bots) stopped with SIGSTOP for ``--freeze-s``
  seconds (20), shorter than the production lease (45 s), as a host that
  stalls: nothing should be lost, and no bot should be blamed for the stall.

``--production-timing`` runs with the production lease and grace (45 s and
30 s, the inventory every 20 s, the workers' probe every 10 s) instead of the
run's short ones.

Once ``--series`` are recorded and ``--min-faults`` injected (27 by default:
every kind three times), the season is paused and the run drains. Then
it checks: every series in a terminal state and none failed; one result log
row per recorded series and two rating-history rows (no series recorded
twice); the stored ratings equal ``recompute_season`` exactly; no result left
in a match worker's outbox. It prints the time from each fault to the next
recorded series, the series recorded with a forfeit after each fault (the
reference bots never forfeit, so each one is a bot blamed for a fault that was
not its own: reported, not a failed check), how long a worker on a full disk
took to take itself out and to come back, and the throughput without and
with faults, as Markdown (``--json FILE`` also writes them). Exit status 0
only if every check holds.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.append(str(REPO / "platform"))  # appended: platform/ must never shadow the standard library's module

from tests.arena.services import OwnPostgres, OwnRedis, service_environment  # noqa: E402

FAULTS = (
    "kill-match-child",
    "kill-match-worker",
    "kill-platform-worker",
    "restart-redis",
    "restart-redis-wiped",
    "restart-postgres-fast",
    "restart-postgres-immediate",
    "hang-postgres",
    "full-disk",
    "freeze-match-worker",
)
#: A series recorded this long after a held fault ended may still have been in it.
HELD_AFTER = timedelta(seconds=15)
#: The match workers' disks for the full-disk fault: small, and each worker needs only this much free.
SICK_DISK_SIZE = "32m"
SICK_DISK_MIN_FREE_MB = "8"
PACKAGES = REPO / "bots" / "watch" / "packages"
OWNERS_PER_BOT = 3  # random and greedy, three owners each: six versions


class Process:
    """A Celery process of the stack, in its own process group, output appended to a log file."""

    def __init__(self, name: str, args: list[str], env: dict[str, str], logs: Path) -> None:
        self.name, self.args, self.env, self.log = name, args, env, logs / f"{name}.log"
        self.popen: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "celery", *self.args],
            cwd=REPO,
            env=self.env,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def kill(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGKILL)
            self.popen.wait()

    def stop(self) -> None:
        if self.popen is None or self.popen.poll() is not None:
            return
        os.killpg(self.popen.pid, signal.SIGTERM)
        try:
            self.popen.wait(30)
        except subprocess.TimeoutExpired:
            self.kill()

    def children(self) -> list[int]:
        if self.popen is None or self.popen.poll() is not None:
            return []
        try:
            with open(f"/proc/{self.popen.pid}/task/{self.popen.pid}/children") as handle:
                return [int(pid) for pid in handle.read().split()]
        except OSError:
            return []


class Stack:
    """The servers and processes of one chaos run."""

    def __init__(self, work: Path, args: argparse.Namespace) -> None:
        self.work = work
        self.postgres = OwnPostgres()
        self.redis = OwnRedis(persistent=True)
        self.processes: dict[str, Process] = {}
        self.args = args
        #: What a fault undoes later (a disk freed, a frozen worker resumed): (when, what, in words).
        self.later: list[tuple[float, Callable[[], None], str]] = []
        self.disks: list[Path] = []

    def run_due(self, everything: bool = False) -> None:
        """Run what faults left to undo once its time has come (all of it with ``everything``)."""
        now = time.monotonic()
        for entry in [e for e in self.later if everything or e[0] <= now]:
            self.later.remove(entry)
            entry[1]()
            print(f"chaos: {entry[2]}", flush=True)

    def environment(self) -> dict[str, str]:
        return service_environment(
            DJANGO_SETTINGS_MODULE="arena.settings",
            ARENA_DATABASE_URL=self.postgres.url,
            ARENA_BROKER_URL=self.redis.url,
            ARENA_VAR_DIR=str(self.work / "var"),
            ARENA_ARTIFACT_DIR=str(self.work / "artifacts"),
            ARENA_MATCHMAKER_INTERVAL_S="2",
            ARENA_MATCHMAKER_SLOTS="4",
            ARENA_LOST_GRACE_S=str(self.args.lost_grace),
            ARENA_RESEND_INTERVAL_S="20" if self.args.production_timing else str(max(1, self.args.lost_grace // 2)),
            ARENA_LEASE_TTL_S=str(self.args.lease_ttl),
            ARENA_SERIES_TIME_LIMIT_S="300",
            ARENA_WORKER_MIN_FREE_MB=SICK_DISK_MIN_FREE_MB,
            # The workers' production probe is every 10 s, their cool-down 60 s.
            **({} if self.args.production_timing else {"ARENA_WORKER_PROBE_S": "2", "ARENA_WORKER_COOLDOWN_S": "10"}),
        )

    def start_servers(self) -> None:
        self.postgres.start()
        self.postgres.create_database()
        self.redis.start()

    def start_processes(self) -> None:
        env = self.environment()
        logs = self.work / "logs"
        logs.mkdir(exist_ok=True)
        quiet = ["--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "info"]
        self.processes["platform-worker"] = Process(
            "platform-worker", ["-A", "arena.celeryconf", "worker", "-Q", "platform", "-c", "2", *quiet], env, logs
        )
        self.processes["beat"] = Process(
            "beat", ["-A", "arena.celeryconf", "beat", "-s", str(self.work / "beat-schedule"), "-l", "info"], env, logs
        )
        for number in (1, 2):
            worker_env = {**env, "ARENA_WORKER_CACHE": str(self.work / f"cache-{number}")}
            worker_env.pop("ARENA_DATABASE_URL")  # match workers hold no database credentials
            self.processes[f"match-worker-{number}"] = Process(
                f"match-worker-{number}",
                ["-A", "workers.celery_app", "worker", "-Q", "matches", "-c", "1", "-n", f"match{number}@%h", *quiet],
                worker_env,
                logs,
            )
        for process in self.processes.values():
            process.start()

    def stop(self) -> None:
        self.run_due(everything=True)
        for process in self.processes.values():
            process.stop()
        self.redis.remove()
        self.postgres.stop()
        for disk in self.disks:
            subprocess.run(["umount", "-l", str(disk)], check=False)

    def inject(self, kind: str, rng: random.Random) -> str:
        """Apply one fault; return what was done, in words."""
        if kind == "hang-postgres":
            return hang_postgres(self, self.args.hang_s)
        if kind == "kill-match-child":
            worker = self.processes[f"match-worker-{rng.choice((1, 2))}"]
            children = worker.children()
            if not children:
                return f"{worker.name} had no pool process to kill"
            os.kill(children[0], signal.SIGKILL)
            return f"SIGKILL to {worker.name}'s pool process {children[0]}"
        if kind in ("kill-match-worker", "kill-platform-worker"):
            name = f"match-worker-{rng.choice((1, 2))}" if kind == "kill-match-worker" else "platform-worker"
            self.processes[name].kill()
            time.sleep(1)
            self.processes[name].start()
            return f"SIGKILL to {name}, started again 1 s later"
        if kind == "restart-redis":
            self.redis.restart(down_s=1, wipe=False)
            return "Redis killed and started again 1 s later from its append-only file"
        if kind == "restart-redis-wiped":
            self.redis.restart(down_s=1, wipe=True)
            return "Redis killed, its files deleted (everything in it lost), started again 1 s later"
        if kind in WORKER_FAULTS:
            return WORKER_FAULTS[kind](self, rng)
        mode = kind.rsplit("-", 1)[1]
        self.postgres.restart(mode)
        return f"PostgreSQL restarted ({mode} shutdown)"


def hang_postgres(stack: Stack, hang_s: float) -> str:
    """Stop every PostgreSQL process for ``hang_s``, reading /ops/metrics meanwhile; return what it said."""
    from arena.ops.views import prometheus_text

    stack.postgres.freeze()
    frozen = time.monotonic()
    try:
        text = prometheus_text()  # what the page answers a scraper, from this process's own (now hung) connection
        took = time.monotonic() - frozen
        time.sleep(max(0.0, hang_s - took))
    finally:
        stack.postgres.thaw()
    said = next((line[2:] for line in text.splitlines() if line.startswith("# database ")), "database up?!")
    broker = "broker up" if "arena_broker_up 1" in text else "broker down"
    return f"PostgreSQL stopped (SIGSTOP) for {hang_s:g} s; /ops/metrics answered in {took:.1f} s: {said}; {broker}"


def fill_disk(disk: Path) -> None:
    """Write to ``disk`` until it is full (the file ``filler`` on it; delete it to free the disk)."""
    with (disk / "filler").open("ab") as out:
        try:
            while True:
                out.write(b"\0" * 1048576)
                out.flush()
        except OSError:
            pass


def full_disk(stack: Stack, rng: random.Random) -> str:
    """Restart a match worker with its cache on a full file system; free it ``--sick-s`` seconds later."""
    number = rng.choice((1, 2))
    process = stack.processes[f"match-worker-{number}"]
    disk = stack.work / f"disk-{number}"
    if disk not in stack.disks:
        disk.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={SICK_DISK_SIZE}", "chaos-disk", str(disk)], check=True)
        stack.disks.append(disk)
    process.kill()
    fill_disk(disk)
    process.env = {**process.env, "ARENA_WORKER_CACHE": str(disk / "cache")}
    process.start()
    stack.later.append(
        (time.monotonic() + stack.args.sick_s, lambda: (disk / "filler").unlink(missing_ok=True), f"{disk} freed")
    )
    return f"{process.name} started again with its cache on a full file system, freed after {stack.args.sick_s:g} s"


def freeze_match_worker(stack: Stack, rng: random.Random) -> str:
    """Stop a match worker's own processes (not its bots) with SIGSTOP; resume them ``--freeze-s`` seconds later.

    It waits (up to 10 s) for the worker to be in a series, its bots started, so that the stall falls
    inside the series, where a referee could blame it on the bot on move.
    """
    process = stack.processes[f"match-worker-{rng.choice((1, 2))}"]
    if process.popen is None or process.popen.poll() is not None:
        return f"{process.name} was not running"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not any(playing(pool) for pool in process.children()):
        time.sleep(0.05)
    frozen = [process.popen.pid, *process.children()]
    for pid in frozen:
        os.kill(pid, signal.SIGSTOP)

    def resume() -> None:
        for pid in frozen:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

    stack.later.append((time.monotonic() + stack.args.freeze_s, resume, f"{process.name} resumed"))
    return f"SIGSTOP to {process.name} and its pool process for {stack.args.freeze_s:g} s"


def playing(pool_pid: int) -> bool:
    """True if a match worker's pool process has started bots (its sandboxes are its children)."""
    try:
        with open(f"/proc/{pool_pid}/task/{pool_pid}/children") as handle:
            return bool(handle.read().split())
    except OSError:
        return False


#: Faults of a match worker's host, each in a function of its own.
WORKER_FAULTS: dict[str, Callable[[Stack, random.Random], str]] = {
    "full-disk": full_disk,
    "freeze-match-worker": freeze_match_worker,
}


def worker_states(stack: Stack) -> dict[str, str]:
    """Each match worker's state in its own health record (workers/health.py): ``ok`` or ``out``."""
    import redis

    try:
        client = redis.Redis.from_url(stack.redis.url, socket_timeout=2, socket_connect_timeout=2)
        found = {}
        for key in client.scan_iter(match="arena:worker:*"):
            state = client.hget(key, "state")
            found[key.decode().removeprefix("arena:worker:").split("@")[0]] = (state or b"").decode()
        return found
    except redis.RedisError:
        return {}


def sick_worker(fault: dict[str, Any]) -> str:
    """The name of the match worker a full-disk fault restarted (``match1``), as in its health record."""
    return fault["what"].split(" ", 1)[0].replace("match-worker-", "match")


def watch_sick_workers(stack: Stack, faults: list[dict[str, Any]]) -> None:
    """Note when a full-disk fault's worker took itself out, and when it came back after its disk was freed.

    Only the latest full-disk fault of each worker is watched: a later one fills the same disk again.
    """
    latest = {sick_worker(f): f for f in faults if f["kind"] == "full-disk"}
    watched = [f for f in latest.values() if f.get("back_s") is None]
    if not watched:
        return
    states = worker_states(stack)
    for fault in watched:
        state = states.get(sick_worker(fault))
        elapsed = round(time.monotonic() - fault["started"], 1)
        if fault.get("out_s") is None and state == "out":
            fault["out_s"] = elapsed
        elif fault.get("out_s") is not None and state == "ok" and elapsed > stack.args.sick_s:
            fault["back_s"] = round(elapsed - stack.args.sick_s, 1)


def coming_back(faults: list[dict[str, Any]]) -> bool:
    """True while a worker that took itself out for a full disk has not been seen back."""
    latest = {sick_worker(f): f for f in faults if f["kind"] == "full-disk"}
    return any(f.get("out_s") is not None and f.get("back_s") is None for f in latest.values())


def ended(undo: Callable[[], None], fault: dict[str, Any]) -> None:
    """Undo a held fault (free a disk, resume a worker) and note when it ended."""
    undo()
    fault["until"] = datetime.now(UTC)


def forfeits_after(season: Any, faults: list[dict[str, Any]]) -> None:
    """Count, for each fault, the series recorded with a forfeit that it may have caused.

    A series recorded while a held fault (a frozen worker, a full disk) lasted, or up to
    :data:`HELD_AFTER` after it ended (a frozen series finishes after it), is put down to that fault;
    any other to the latest fault before it was recorded.
    """
    from arena.series.models import GameRecord

    games = GameRecord.objects.filter(series__season=season).values_list("series_id", "series__finished_at", "forfeit")
    forfeited = {series: (at, forfeit) for series, at, forfeit in games if forfeit}  # SQL NULL or JSON null: none
    for fault in faults:
        fault["forfeits"], fault["forfeit_reasons"] = 0, []
    for at, forfeit in forfeited.values():
        held = [f for f in faults if "until" in f and f["at"] <= at <= f["until"] + HELD_AFTER]
        acted = held or [f for f in faults if f["at"] <= at]
        if acted:
            fault = max(acted, key=lambda f: f["at"])
            fault["forfeits"] += 1
            fault["forfeit_reasons"] = sorted({*fault["forfeit_reasons"], forfeit["reason"]})


def retrying(read: Callable[[], Any]) -> Any:
    """Run a database read of this process, reconnecting while PostgreSQL restarts."""
    from django.db import OperationalError, close_old_connections, connections

    for _ in range(60):
        close_old_connections()
        try:
            return read()
        except OperationalError:
            connections.close_all()
            time.sleep(0.5)
    return read()


def set_up_season() -> Any:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from arena.bots.submissions import mark_validation_result, submit_version
    from arena.seasons.models import Season, SeasonEntry

    call_command("migrate", verbosity=0, interactive=False)
    season = Season.objects.create(name="Chaos", game="watch", games_per_series=2, players_per_series=2)
    for package in ("random", "greedy"):
        for number in range(1, OWNERS_PER_BOT + 1):
            owner = get_user_model().objects.create_user(f"chaos-{package}-{number}")
            version = submit_version(owner, package, PACKAGES / package)
            # Marked valid here: the run is about the pipeline, not validation (which also runs, and finds it decided).
            version = mark_validation_result(version, True, "chaos run")
            SeasonEntry.objects.get_or_create(season=season, version=version)
    season.transition(Season.Status.RUNNING)
    return season


def done_count(season: Any) -> int:
    from arena.series.models import Series, SeriesState

    return retrying(lambda: Series.objects.filter(season=season, state=SeriesState.DONE).count())


def recorded_after(season: Any, moment: datetime) -> bool:
    from arena.series.models import Series, SeriesState

    return retrying(
        lambda: Series.objects.filter(season=season, state=SeriesState.DONE, finished_at__gt=moment).exists()
    )


def play(stack: Stack, season: Any, args: argparse.Namespace) -> dict[str, Any]:
    """Play until ``args.series`` are recorded, faults after the baseline; return the timings."""
    rng = random.Random(args.seed)
    cycle: list[str] = []
    baseline_target = max(1, args.series // 5)
    started = time.monotonic()
    baseline_s = None
    faults: list[dict[str, Any]] = []
    next_fault = None
    deadline = started + args.timeout
    # Play on until every fault has been followed by a recorded series (its recovery measured),
    # not only until the last one was injected: two faults can come before the next series.
    while (
        done_count(season) < args.series
        or len(faults) < args.min_faults
        or any(fault["recovery_s"] is None for fault in faults)
    ):
        now = time.monotonic()
        if now > deadline:
            waiting = [fault["kind"] for fault in faults if fault["recovery_s"] is None]
            raise SystemExit(
                f"chaos: {done_count(season)} of {args.series} series, {len(faults)} of {args.min_faults} faults "
                f"after {args.timeout} s; no series recorded since: {', '.join(waiting) or 'none'}"
            )
        if baseline_s is None and done_count(season) >= baseline_target:
            baseline_s = now - started
            next_fault = now
        for fault in faults:
            if fault["recovery_s"] is None and recorded_after(season, fault["at"]):
                fault["recovery_s"] = round(time.monotonic() - fault["started"], 1)
        stack.run_due()
        watch_sick_workers(stack, faults)
        injecting = done_count(season) < args.series or len(faults) < args.min_faults
        if injecting and next_fault is not None and now >= next_fault:
            if not cycle:
                cycle = list(FAULTS)
                rng.shuffle(cycle)
            kind = cycle.pop()
            at, fault_started = datetime.now(UTC), time.monotonic()
            undone = len(stack.later)
            what = stack.inject(kind, rng)
            fault = {"kind": kind, "what": what, "at": at, "started": fault_started, "recovery_s": None}
            faults.append(fault)
            for index in range(undone, len(stack.later)):  # a held fault ends when it is undone
                when, undo, words = stack.later[index]
                stack.later[index] = (when, lambda undo=undo, fault=fault: ended(undo, fault), words)
            print(f"chaos: {done_count(season)} series done; {kind}: {what}", flush=True)
            next_fault = time.monotonic() + args.fault_every
        time.sleep(0.5)
    total_s = time.monotonic() - started
    # Disks freed and workers resumed before the run drains; a worker taken out is watched until it is back.
    watch_until = time.monotonic() + 120
    while stack.later or (coming_back(faults) and time.monotonic() < watch_until):
        time.sleep(0.5)
        stack.run_due()
        watch_sick_workers(stack, faults)
    return {"baseline_s": baseline_s, "baseline_series": baseline_target, "total_s": total_s, "faults": faults}


def drain(season: Any, timeout_s: float) -> None:
    """Pause the season and wait until no series is queued or running and no result waits in an inbox."""
    from arena.seasons.models import Season
    from arena.series.models import PendingResult, Series, SeriesState

    retrying(lambda: Season.objects.filter(pk=season.pk).update(status=Season.Status.PAUSED))
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        open_series = retrying(
            lambda: Series.objects.filter(season=season, state__in=[SeriesState.QUEUED, SeriesState.RUNNING]).count()
        )
        if not open_series and not retrying(lambda: PendingResult.objects.exists()):
            return
        time.sleep(1)
    raise SystemExit(f"chaos: the run did not drain within {timeout_s:.0f} s")


def check(season: Any, work: Path) -> list[str]:
    """Return what is wrong after the run (empty: nothing)."""
    from django.db.models import Count

    from arena.ratings.models import Rating, RatingHistory
    from arena.results.recording import recompute_season
    from arena.series.models import Series, SeriesResultLog, SeriesState

    problems = []
    states = dict(Series.objects.filter(season=season).values_list("state").annotate(n=Count("pk")))
    done = states.get(SeriesState.DONE, 0)
    if set(states) - {SeriesState.DONE, SeriesState.CANCELLED}:
        problems.append(f"series not done: {states}")
    logs = SeriesResultLog.objects.filter(series__season=season).count()
    if logs != done:
        problems.append(f"{logs} result log rows for {done} recorded series")
    history = RatingHistory.objects.filter(season=season, series__isnull=False).count()
    if history != 2 * done:
        problems.append(f"{history} rating history rows for {done} two-seat series")
    stored = {r.version_id: (r.mu, r.sigma) for r in Rating.objects.filter(season=season)}
    if recompute_season(season) != stored:
        problems.append("the stored ratings differ from recompute_season")
    kept = sorted(str(path) for pattern in ("cache-*/outbox/*", "disk-*/cache/outbox/*") for path in work.glob(pattern))
    if kept:
        problems.append(f"results left in outboxes: {kept}")
    return problems


def report(timings: dict[str, Any], done: int, problems: list[str], args: argparse.Namespace) -> dict[str, Any]:
    faults = timings["faults"]
    baseline_rate = timings["baseline_series"] / timings["baseline_s"] * 60 if timings["baseline_s"] else None
    faulted_s = timings["total_s"] - (timings["baseline_s"] or 0)
    faulted_rate = (done - timings["baseline_series"]) / faulted_s * 60 if faulted_s > 0 else None
    recoveries = [f["recovery_s"] for f in faults if f["recovery_s"] is not None]
    print(f"\n## Chaos run: {done} series, {len(faults)} faults (seed {args.seed}, one every {args.fault_every} s)\n")
    print("| fault | count | recovery: median s | slowest s | series with a forfeit put down to it |")
    print("|---|---|---|---|---|")
    for kind in FAULTS:
        times = [f["recovery_s"] for f in faults if f["kind"] == kind and f["recovery_s"] is not None]
        count = sum(f["kind"] == kind for f in faults)
        median = f"{statistics.median(times):.1f}" if times else "–"
        slowest = f"{max(times):.1f}" if times else "–"
        forfeits = sum(f.get("forfeits", 0) for f in faults if f["kind"] == kind)
        reasons = sorted({r for f in faults if f["kind"] == kind for r in f.get("forfeit_reasons", [])})
        why = f" ({', '.join(reasons)})" if reasons else ""
        print(f"| {kind} | {count} | {median} | {slowest} | {forfeits}{why} |")
    sick = [f for f in faults if f["kind"] == "full-disk"]
    if sick:
        outs = [f["out_s"] for f in sick if f.get("out_s") is not None]
        backs = [f["back_s"] for f in sick if f.get("back_s") is not None]
        print(
            f"\nFull disk: the worker took itself out {len(outs)} times of {len(sick)} (slowest "
            f"{max(outs, default=0):.1f} s after its restart) and came back {len(backs)} times (slowest "
            f"{max(backs, default=0):.1f} s after its disk was freed)."
        )
    print(
        f"\nThroughput: {baseline_rate or 0:.1f} series/min without faults, {faulted_rate or 0:.1f} with them; "
        f"slowest recovery {max(recoveries, default=0):.1f} s."
    )
    print("Checks: " + ("all hold" if not problems else "; ".join(problems)))
    return {
        "series": done,
        "faults": [{k: v for k, v in f.items() if k not in ("at", "started", "until")} for f in faults],
        "production_timing": args.production_timing,
        "baseline_series_per_min": baseline_rate,
        "faulted_series_per_min": faulted_rate,
        "slowest_recovery_s": max(recoveries, default=None),
        "problems": problems,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--series", type=int, default=1000, help="series to record (default 1000)")
    parser.add_argument("--fault-every", type=float, default=20.0, help="seconds between faults (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--min-faults",
        type=int,
        default=3 * len(FAULTS),
        help=f"play on until this many faults (default {3 * len(FAULTS)}: every kind 3 times)",
    )
    parser.add_argument("--lost-grace", type=int, default=10, help="ARENA_LOST_GRACE_S for the run (default 10)")
    parser.add_argument("--lease-ttl", type=int, default=9, help="ARENA_LEASE_TTL_S for the run (default 9)")
    parser.add_argument("--hang-s", type=float, default=15.0, help="how long hang-postgres stops it (default 15)")
    parser.add_argument(
        "--production-timing",
        action="store_true",
        help="the production lease and grace (45 s, 30 s), inventory every 20 s, probe every 10 s",
    )
    parser.add_argument("--sick-s", type=float, default=20.0, help="how long a full disk stays full (default 20)")
    parser.add_argument(
        "--freeze-s", type=float, default=20.0, help="how long a frozen match worker stays stopped (default 20)"
    )
    parser.add_argument("--timeout", type=float, default=7200.0, help="give up after this many seconds")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    if args.series < 5 or args.fault_every <= 0:
        parser.error("--series must be at least 5 and --fault-every positive")
    if args.production_timing:
        args.lost_grace, args.lease_ttl = 30, 45
    work = Path(tempfile.mkdtemp(prefix="arena-chaos-"))
    stack = Stack(work, args)
    stack.start_servers()
    try:
        os.environ.update(stack.environment())
        import django

        django.setup()
        season = set_up_season()
        stack.start_processes()
        timings = play(stack, season, args)
        drain(season, timeout_s=600)
        forfeits_after(season, timings["faults"])
        problems = check(season, work)
        figures = report(timings, done_count(season), problems, args)
    finally:
        stack.stop()
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
    print(f"logs: {work / 'logs'}")
    sys.exit(1 if figures["problems"] else 0)


if __name__ == "__main__":
    main()
