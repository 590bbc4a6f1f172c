"""Benchmark: series results recorded per second into PostgreSQL, with their rating updates.

Run: ``.venv/bin/python tests/benchmarks/recording_speed.py`` (``--series 5000
--versions 200`` by default; PostgreSQL at 127.0.0.1:5432 as postgres, or
``--server postgres://user:password@host:port``). It creates a scratch
database (``arena_bench_recording``), migrates it, and drops it at the end
(``--keep`` leaves it). In it: one running Watch season of ``--versions``
active versions and ``--series`` queued two-seat series between random
versions. For each series it fabricates a result document shaped like a match
worker's (two games with their actions, stats, winners and reasons; the Watch
score with points, winner, game_wins, white and black totals; the players'
sha256), then records them in five ways, a fifth each: delivered one after
another by one process (:func:`arena.results.recording.record_series_result`,
each delivery applying its own result), as a backlog (inbox inserts, then one
:func:`arena.results.recording.apply_pending` in batches), delivered by
``--processes`` forked processes at once; then through Redis to real Celery
platform workers (``--processes`` processes), first as one
``record_series_result`` task per result, then the production path: a match
worker's ``publish`` appends each result to the results stream, which the
platform drains in batches (arena/results/inflow.py), while the beat's
pair-record fold is sent to the same workers every ``--fold-every`` seconds
(0.25 by default, 10 in production), as it competes with recording in a
long run. Then it times
:func:`arena.results.recording.recompute_season` over the
whole log and says whether it lands exactly on the stored ratings.

Prints Markdown tables; the target, the figures (PostgreSQL on the same
machine, sharing its cores) and the command are recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO), str(REPO / "platform")]

import psycopg  # noqa: E402

GOAL_PER_S = 1_000
SCRATCH = "arena_bench_recording"
REASONS = ("colour", "totals", "blocked", "colour", "colour")
COLOURS = ("orange", "blue", "purple", "pink", "yellow", "red", "green", "brown", "dark-purple")


def admin(server: str) -> psycopg.Connection:
    parts = urlsplit(server)
    return psycopg.connect(
        host=parts.hostname or None,
        port=parts.port or None,
        user=parts.username or None,
        password=parts.password or None,
        dbname="postgres",
        autocommit=True,
        connect_timeout=5,
    )


def make_document(rng: random.Random, shas: tuple[str, str], names: tuple[str, str], seed: int) -> dict[str, Any]:
    """Return a result document shaped like a match worker's for a two-game Watch series."""
    games = []
    for index in range(2):
        seats = [0, 1] if index == 0 else [1, 0]
        plies = rng.randint(16, 60)
        actions = [
            {
                "seat": ply % 2,
                "action": rng.randrange(200),
                "notation": f"{rng.choice(COLOURS)}@{'abcdefgh'[rng.randrange(8)]}{rng.randint(1, 8)}",
                "ms": round(rng.uniform(0.01, 120.0), 3),
            }
            for ply in range(plies)
        ]
        winner = rng.choice((0, 1, 0, 1, None))
        games.append(
            {
                "index": index,
                "seats": seats,
                "actions": actions,
                "forfeit": None,
                "winners": [] if winner is None else [winner],
                "reason": rng.choice(REASONS) if winner is not None else "draw",
                "stats": {
                    str(seats[0]): {"pawn": "white", "moves": (plies + 1) // 2},
                    str(seats[1]): {"pawn": "black", "moves": plies // 2},
                },
                "bank_ms_left": [round(rng.uniform(50_000, 60_000), 1) for _ in range(2)],
            }
        )
    outcome = rng.choices((0, 1, None), weights=(45, 45, 10))[0]
    points = [1.0, 1.0] if outcome is None else ([2.0, 0.0] if outcome == 0 else [0.0, 2.0])
    game_wins = [sum(1 for g in games if g["winners"] == [p]) for p in (0, 1)]
    white_totals = [rng.randint(0, 5), rng.randint(0, 5)]
    black_totals = [rng.randint(0, 5), rng.randint(0, 5)]
    return {
        "protocol": 1,
        "game": "watch",
        "rules_version": "1",
        "config": {},
        "seed": seed,
        "games_planned": 2,
        "time_control": {"decision_ms": 2000, "bank_ms": 60000, "increment_ms": 0},
        "limits": {"memory_mb": 512, "pids": 64, "cpu_cores": 1.0, "cpu_seconds": 3600, "tmp_mb": 64},
        "sandbox": "bwrap",
        "players": [{"name": names[p], "sha256": shas[p]} for p in (0, 1)],
        "games": games,
        "score": {
            "points": points,
            "white_totals": white_totals,
            "black_totals": black_totals,
            "game_wins": game_wins,
            "games": 2,
            "winner": outcome,
            "forfeits": [],
            "steps": [
                f"White totals {white_totals[0]}-{white_totals[1]}: one point",
                f"Black totals {black_totals[0]}-{black_totals[1]}: one point",
            ],
        },
        "stderr": [{"player": p, "text": "", "truncated_bytes": 0} for p in (0, 1)],
        "wall_seconds": round(rng.uniform(0.2, 3.0), 3),
    }


def populate(versions: int, series: int, rng: random.Random) -> tuple[Any, list[tuple[int, dict[str, Any]]]]:
    """Create the season, its versions and queued series; return (season, [(series id, document)])."""
    from django.contrib.auth import get_user_model

    from arena.bots.models import Bot, BotVersion
    from arena.seasons.models import Season, SeasonEntry
    from arena.series.models import Series, SeriesSeat

    owners = [get_user_model().objects.create_user(f"owner{i}") for i in range(max(1, versions // 10))]
    bots = Bot.objects.bulk_create(Bot(owner=owners[i % len(owners)], name=f"bot{i}") for i in range(versions))
    made = BotVersion.objects.bulk_create(
        BotVersion(
            bot=bot,
            number=1,
            archive_sha256=f"{rng.getrandbits(256):064x}",
            archive_size=4096,
            archive_format="tar.gz",
            manifest={"name": bot.name, "entry": "main.py", "games": ["watch"]},
            entry="main.py",
            games=["watch"],
            status=BotVersion.Status.ACTIVE,
        )
        for bot in bots
    )
    season = Season.objects.create(name="Bench", game="watch", games_per_series=2)
    SeasonEntry.objects.bulk_create(SeasonEntry(season=season, version=v) for v in made)
    season.transition(Season.Status.RUNNING)
    pairs = [rng.sample(made, 2) for _ in range(series)]
    created = Series.objects.bulk_create(Series(season=season, seed=rng.getrandbits(31)) for _ in pairs)
    SeriesSeat.objects.bulk_create(
        SeriesSeat(series=s, seat=seat, version=v)
        for s, pair in zip(created, pairs, strict=True)
        for seat, v in enumerate(pair)
    )
    work = [
        (s.pk, make_document(rng, (a.archive_sha256, b.archive_sha256), (a.bot.name, b.bot.name), s.seed))
        for s, (a, b) in zip(created, pairs, strict=True)
    ]
    return season, work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--series", type=int, default=5000)
    parser.add_argument("--versions", type=int, default=200)
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432", help="PostgreSQL server URL")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2, help="delivering processes (parts 3 and 4)")
    parser.add_argument("--workers", type=int, default=1, help="platform worker processes started (part 4)")
    parser.add_argument("--pool", default="prefork", help="the platform worker's pool (prefork, threads)")
    parser.add_argument("--concurrency", type=int, default=None, help="the platform worker's -c (default --processes)")
    parser.add_argument("--prefetch", type=int, default=1, help="the platform worker's --prefetch-multiplier")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/11", help="Redis database for part 4 (flushed)")
    parser.add_argument("--keep", action="store_true", help=f"leave the scratch database {SCRATCH}")
    parser.add_argument(
        "--fold-every",
        type=float,
        default=0.25,
        help="seconds between the beat's pair-record folds sent while the stream is timed (0: none)",
    )
    args = parser.parse_args()

    with admin(args.server) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {SCRATCH}")
        conn.execute(f"CREATE DATABASE {SCRATCH}")
        server_version = conn.execute("SHOW server_version").fetchone()[0]
    os.environ["ARENA_DATABASE_URL"] = f"{args.server.rstrip('/')}/{SCRATCH}"
    os.environ["DJANGO_SETTINGS_MODULE"] = "arena.settings"
    os.environ.pop("ARENA_BROKER_URL", None)  # nothing here sends a task; keep the app eager regardless
    try:
        run(args, server_version)
    finally:
        from django.db import connections

        connections.close_all()
        if not args.keep:
            with admin(args.server) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {SCRATCH}")


def deliver_all(work: list[tuple[int, dict[str, Any]]]) -> list[float]:
    """Deliver every result in turn, as one platform worker does; return each delivery's seconds."""
    from arena.results.recording import record_series_result

    times = []
    for series_id, document in work:
        t0 = time.perf_counter()
        assert record_series_result(series_id, document)
        times.append(time.perf_counter() - t0)
    return times


def deliver_in_processes(work: list[tuple[int, dict[str, Any]]], processes: int) -> float:
    """Deliver ``work`` from ``processes`` forked workers at once; return the wall seconds."""
    import multiprocessing

    from django.db import connections

    connections.close_all()  # each child opens its own
    shares = [work[i::processes] for i in range(processes)]
    context = multiprocessing.get_context("fork")
    started = time.perf_counter()
    children = [context.Process(target=deliver_all, args=(share,)) for share in shares]
    for child in children:
        child.start()
    for child in children:
        child.join()
        assert child.exitcode == 0, f"a delivering process failed (exit {child.exitcode})"
    return time.perf_counter() - started


def through_broker(
    tasks: list[tuple[int, dict[str, Any]]], streamed: list[tuple[int, dict[str, Any]]], args: argparse.Namespace
) -> tuple[float, float]:
    """Send results through Redis to real platform workers two ways; return the seconds until each set is recorded.

    ``tasks`` go as one ``arena.record_series_result`` task each (a result with a
    broker that is not Redis); ``streamed`` as a match worker publishes them with
    Redis (workers/delivery.py: one stream entry each, and a drain woken at most
    once per batch), which the platform drains in batches (arena/results/inflow.py).
    """
    import subprocess

    import redis
    from celery import Celery
    from django.conf import settings

    from arena.series.models import Series, SeriesState
    from workers import delivery
    from workers.celery_app import configure

    broker = args.redis
    redis.Redis.from_url(broker).flushdb()
    database = settings.DATABASES["default"]
    env = {
        **os.environ,
        "ARENA_NO_BOOTSTRAP": "1",
        "ARENA_DATABASE_URL": os.environ["ARENA_DATABASE_URL"],
        "ARENA_BROKER_URL": broker,
        "ARENA_CACHE_URL": broker,
        "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "platform")]),
    }
    assert database["NAME"] == SCRATCH
    command = [sys.executable, "-m", "celery", "-A", "arena.celeryconf", "worker", "-Q", "platform"]
    command += ["-c", str(args.concurrency or args.processes), "-P", args.pool]
    command += ["--prefetch-multiplier", str(args.prefetch), "--without-gossip", "--without-mingle"]
    command += ["-l", os.environ.get("BENCH_CELERY_LOG", "warning")]
    workers = [subprocess.Popen([*command, "-n", f"bench{i}@%h"], env=env, cwd=REPO) for i in range(args.workers)]
    sender = configure(Celery("bench-match-worker"), broker)  # what a match worker publishes with
    try:

        def as_tasks(items: list[tuple[int, dict[str, Any]]]) -> None:
            for series_id, document in items:
                outcome = {"series_id": series_id, "result": document}
                sender.send_task("arena.record_series_result", args=[outcome], queue="platform")

        def to_stream(items: list[tuple[int, dict[str, Any]]]) -> None:
            for series_id, document in items:
                delivery.publish(sender, {"series_id": series_id, "result": document})

        def wait(wanted: list[int], timeout: float) -> None:
            deadline = time.monotonic() + timeout
            while Series.objects.filter(pk__in=wanted, state=SeriesState.DONE).count() < len(wanted):
                assert all(w.poll() is None for w in workers), "a platform worker died"
                assert time.monotonic() < deadline, "the platform worker did not record everything in time"
                time.sleep(0.05)

        def folding(stop: threading.Event) -> None:
            # What the beat sends in production (every ARENA_FOLD_INTERVAL_S, 10 s): here more
            # often, so that the fold's work on the series just recorded falls inside the short
            # timed window and competes with recording as it would in a long run.
            while not stop.wait(args.fold_every):
                sender.send_task("arena.fold_pair_records", queue="platform")

        seconds = []
        for send, work in ((as_tasks, tasks), (to_stream, streamed)):
            ids = [series_id for series_id, _ in work]
            send(work[:1])  # the workers are up and warm once this one is recorded
            wait(ids[:1], 120)
            stop = threading.Event()
            folder = threading.Thread(target=folding, args=(stop,))
            if send is to_stream and args.fold_every > 0:
                folder.start()
            started = time.perf_counter()
            send(work[1:])
            print(f"({send.__name__}: sent {len(work) - 1} in {time.perf_counter() - started:.2f} s)", file=sys.stderr)
            wait(ids[1:], 600)
            seconds.append(time.perf_counter() - started)
            stop.set()
            if folder.is_alive():
                folder.join()
                folded = Series.objects.filter(pk__in=ids, folded=True).count()
                print(f"({send.__name__}: {folded} of them folded into pair records meanwhile)", file=sys.stderr)
        return seconds[0], seconds[1]
    finally:
        for w in workers:
            w.terminate()
        for w in workers:
            w.wait(30)


def run(args: argparse.Namespace, server_version: str) -> None:
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)

    from arena.ratings.models import Rating, RatingHistory
    from arena.results.recording import _deliver, apply_pending, recompute_season, record_series_result
    from arena.series.models import PendingResult, SeriesResultLog

    rng = random.Random(args.seed)
    started = time.perf_counter()
    season, work = populate(args.versions, args.series, rng)
    setup_s = time.perf_counter() - started
    fifth = len(work) // 5
    alone, backlog, together, tasks = (work[i * fifth : (i + 1) * fifth] for i in range(4))
    streamed = work[4 * fifth :]

    # 1. One platform worker, one delivery after another: each applies its own result.
    started = time.perf_counter()
    cpu_started = time.process_time()
    times = deliver_all(alone)
    alone_s = time.perf_counter() - started
    cpu = time.process_time() - cpu_started

    # 2. A backlog (deliveries that arrived while a batch held the lock, or a worker that was
    #    down): the inbox inserts, then one apply_pending in batches of BATCH_SIZE.
    started = time.perf_counter()
    for series_id, document in backlog:
        assert _deliver(series_id, document) == season.pk  # a delivery's own insert
    inserted_s = time.perf_counter() - started
    started = time.perf_counter()
    assert apply_pending(season.pk) == len(backlog)
    applied_s = time.perf_counter() - started

    # 3. Two platform worker processes delivering at once: batches form by themselves.
    together_s = deliver_in_processes(together, args.processes)

    # 4. Through Redis to real platform workers (--processes processes): one Celery task per
    #    result, then the production path, the results stream drained in batches.
    tasks_s, stream_s = through_broker(tasks, streamed, args)

    # A second delivery of results already recorded: the duplicate path.
    started = time.perf_counter()
    for series_id, document in work[:500]:
        assert not record_series_result(series_id, document)
    duplicate_s = (time.perf_counter() - started) / min(500, len(work))

    started = time.perf_counter()
    recomputed = recompute_season(season)
    recompute_s = time.perf_counter() - started
    stored = {r.version_id: (r.mu, r.sigma) for r in Rating.objects.filter(season=season)}
    exact = recomputed == stored
    worst = max(max(abs(recomputed[v][0] - mu), abs(recomputed[v][1] - sigma)) for v, (mu, sigma) in stored.items())
    assert SeriesResultLog.objects.filter(series__season=season).count() == len(work)
    assert RatingHistory.objects.filter(season=season).count() == len(stored) + 2 * len(work)
    assert not PendingResult.objects.exists()

    def verdict(rate: float) -> str:
        return f"**{rate:,.0f}** {'✓' if rate >= GOAL_PER_S else '✗'}"

    ms = sorted(t * 1000 for t in times)
    print(
        f"PostgreSQL {server_version} on 127.0.0.1, {os.cpu_count()} cores; {args.versions} versions, "
        f"{len(work)} series (setup {setup_s:.1f} s); documents about "
        f"{sum(len(str(d)) for _, d in work[:100]) // 100 / 1000:.1f} kB; goal {GOAL_PER_S:,} results/s\n"
    )
    print("| how the results arrive | results | seconds | results/s |")
    print("|---|---:|---:|---:|")
    print(
        f"| one worker, one delivery after another | {len(alone)} | {alone_s:.2f} | {verdict(len(alone) / alone_s)} |"
    )
    backlog_s = inserted_s + applied_s
    print(
        f"| a backlog: inbox inserts ({inserted_s:.2f} s), then batches of 500 ({applied_s:.2f} s) "
        f"| {len(backlog)} | {backlog_s:.2f} | {verdict(len(backlog) / backlog_s)} |"
    )
    print(
        f"| {args.processes} worker processes delivering at once | {len(together)} | {together_s:.2f} "
        f"| {verdict(len(together) / together_s)} |"
    )
    platform = f"{args.workers} Celery platform worker(s) ({args.pool}, -c {args.concurrency or args.processes})"
    print(
        f"| through Redis, one task per result, to {platform} "
        f"| {len(tasks) - 1} | {tasks_s:.2f} | {verdict((len(tasks) - 1) / tasks_s)} |"
    )
    print(
        f"| **through Redis, the results stream drained in batches by {platform}** "
        f"| {len(streamed) - 1} | {stream_s:.2f} | {verdict((len(streamed) - 1) / stream_s)} |"
    )
    ratio = ((len(streamed) - 1) / stream_s) / ((len(tasks) - 1) / tasks_s)
    print(f"| the stream against one task per result | | | {ratio:.1f}x |")
    print(f"| applying the backlog alone | {len(backlog)} | {applied_s:.2f} | {len(backlog) / applied_s:,.0f} |")
    print()
    print("| measure | value |")
    print("|---|---|")
    print(f"| CPU of the one worker per delivery | {cpu / len(alone) * 1000:.2f} ms ({cpu / alone_s:.0%} of wall) |")
    spread = f"{statistics.median(ms):.2f} / {ms[int(len(ms) * 0.95)]:.2f} / {ms[-1]:.2f} ms"
    print(f"| per delivery, one worker: median / p95 / max | {spread} |")
    print(f"| duplicate delivery (already done) | {duplicate_s * 1000:.2f} ms |")
    print(f"| `recompute_season` over {len(work)} results | {recompute_s * 1000:.0f} ms |")
    print(f"| recompute equals stored (μ, σ) exactly | {'yes' if exact else 'NO'} (largest difference {worst:.3g}) |")


if __name__ == "__main__":
    main()
