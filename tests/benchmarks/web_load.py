"""Benchmark: page and API latency of the site over a season of 10,000 versions and 1,000,000 series.

Run: ``.venv/bin/python tests/benchmarks/web_load.py`` (PostgreSQL at
127.0.0.1:5432 as a superuser, postgres by default; ``--server
postgres://user:password@host:port`` for another). It

1. drops and re-creates the scratch database ``arena_web_bench`` and migrates it
   (``--reuse`` keeps an already seeded one and skips to step 4);
2. plays ``--documents`` real Watch series between the reference bots
   (random and greedy packages) through the sandboxed referee, for result
   documents of exactly the real shape;
3. seeds with PostgreSQL COPY (psycopg's ``cursor.copy``, several connections
   at once, foreign-key triggers off while loading, which is why it needs a
   superuser): 10,000 bot versions (2,000 users, 6,000 bots, 4,000 of them
   with a retired first version), one running season with an entry and a
   rating for each, 1,000,000 done series over 90 days with their seats
   (points, game wins, rank), game records, result documents (one of the
   played documents each, with the series' own players and seed) and two
   rating-history rows each; then sums them into the bot pages' pair records
   (as the beat does) and runs VACUUM ANALYZE. The ratings are a random
   walk: realistic in shape, not a TrueSkill computation;
4. serves the site with gunicorn (``--workers``, DEBUG off, this database),
   and from a second process on the loopback requests each endpoint: the
   season leaderboard (first page and a deep one), bot pages, series pages
   (random ones, from all 1,000,000), and the API leaderboard (first page
   and a deep offset), first with one client at a time (latency), then with
   ``--clients`` at once (throughput);
5. loads each endpoint once more in this process with Django's test client,
   counting its queries and their time, and shows EXPLAIN ANALYZE of the
   slowest query of every endpoint that missed its goal.

The goal: p95 under 50 ms for the leaderboard, under 100 ms for the rest (one
client at a time). Prints Markdown tables. ``--keep`` leaves the database
(about 4.2 GB), otherwise it is dropped at the end.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO), str(REPO / "platform")]

import psycopg  # noqa: E402
from psycopg.copy import QueuedLibpqWriter  # noqa: E402

SCRATCH = "arena_web_bench"  # not recording_speed.py's arena_bench: the two may run side by side
USERS, BOTS, TWICE_UPLOADED = 2_000, 6_000, 4_000  # 4,000 bots x 2 versions + 2,000 x 1 = 10,000 versions
SEASON_DAYS = 90
LEADERBOARD_GOAL_MS, PAGE_GOAL_MS = 50.0, 100.0
#: Series summed into the pair records per transaction after loading.
FOLD_SEEDED = 50_000
#: Series per progress line, and per transaction of the per-series COPY streams.
PROGRESS_EVERY = 100_000


def admin(server: str, dbname: str = "postgres") -> psycopg.Connection:
    """Return an autocommit connection to ``dbname`` on ``server``."""
    parts = urlsplit(server)
    return psycopg.connect(
        host=parts.hostname or None,
        port=parts.port or None,
        user=parts.username or None,
        password=parts.password or None,
        dbname=dbname,
        autocommit=True,
        connect_timeout=5,
    )


# -- result documents ------------------------------------------------------------------------


def play_documents(count: int, seed: int, parallel: int = 2) -> list[dict[str, Any]]:
    """Return ``count`` result documents of real two-game Watch series between the random and greedy reference bots.

    ``parallel`` series at a time, as a match worker's pool runs them (each referee leases a slot of its own).
    """
    from workers.botpkg import load_bot_package
    from workers.referee import SeriesSpec, run_series

    packages = REPO / "bots" / "watch" / "packages"
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="web-load-") as work:
        bots = {name: load_bot_package(packages / name, Path(work) / name) for name in ("random", "greedy")}
        specs = [
            SeriesSpec(
                bots=[bots[rng.choice(("random", "random", "greedy"))] for _ in range(2)],
                seed=rng.getrandbits(31),
                sandbox="bwrap",
            )
            for i in range(count)
        ]
        with concurrent.futures.ThreadPoolExecutor(parallel) as pool:
            groups = [specs[k::parallel] for k in range(parallel)]
            played = list(pool.map(lambda group: [run_series(spec) for spec in group], groups))
    return [document for group in played for document in group]


@dataclass(frozen=True)
class DocumentTemplate:
    """A played document as JSON text with holes for the players and the seed, and what the seats need from it."""

    text: str
    points: tuple[float, float]
    game_wins: tuple[int, int]
    winner: int | None
    games: tuple[tuple[int, list[int], str, str | None, tuple[int, int]], ...]  # index, winners, reason, forfeit, moves

    PLAYERS = '"@@players@@"'
    SEED = '"@@seed@@"'

    @classmethod
    def of(cls, document: dict[str, Any]) -> DocumentTemplate:
        holed = {**document, "players": "@@players@@", "seed": "@@seed@@"}
        games = tuple(
            (
                game["index"],
                list(game["winners"]),
                game["reason"],
                None if game["forfeit"] is None else json.dumps(game["forfeit"]),
                (game["stats"].get("0", {}).get("moves", 0), game["stats"].get("1", {}).get("moves", 0)),
            )
            for game in document["games"]
        )
        score = document["score"]
        return cls(
            text=json.dumps(holed),
            points=(score["points"][0], score["points"][1]),
            game_wins=(score["game_wins"][0], score["game_wins"][1]),
            winner=score["winner"],
            games=games,
        )

    def fill(self, players: str, seed: int) -> str:
        return self.text.replace(self.PLAYERS, players, 1).replace(self.SEED, str(seed), 1)


# -- COPY ------------------------------------------------------------------------------------


class Table:
    """COPY rows of one Django model: its concrete columns (generated ones left to the database), with defaults."""

    def __init__(self, model: Any, now: datetime) -> None:
        fields = [f for f in model._meta.concrete_fields if not getattr(f, "generated", False)]
        self.model = model
        self.columns = [f.column for f in fields]
        self.position = {f.attname: i for i, f in enumerate(fields)}
        self.base: list[Any] = [self._default(f, now) for f in fields]

    @staticmethod
    def _default(f: Any, now: datetime) -> Any:
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
            return now
        value = f.get_default()  # "" for a text column without a default, as Django itself would store
        return json.dumps(value) if value is not None and f.get_internal_type() == "JSONField" else value

    def row(self, **values: Any) -> list[Any]:
        """Return one row: the defaults with ``values`` (by attname; JSON fields as JSON text) filled in."""
        row = self.base.copy()
        for name, value in values.items():
            row[self.position[name]] = value
        return row

    def sql(self) -> str:
        return f"COPY {self.model._meta.db_table} ({', '.join(self.columns)}) FROM STDIN"


class Loader:
    """One COPY stream per table, each on its own connection, fed through a queue so PostgreSQL works in parallel."""

    def __init__(self, database_url: str, tables: Sequence[Table]) -> None:
        self.stack = contextlib.ExitStack()
        self.connections: list[psycopg.Connection] = []
        self.copies: dict[Any, psycopg.Copy] = {}
        try:
            for table in tables:
                conn = self.stack.enter_context(psycopg.connect(database_url))
                # Bulk load: the generator keeps the references right, so the per-row FK triggers stay off.
                conn.execute("SET session_replication_role = replica")
                conn.execute("SET synchronous_commit = off")
                cursor = conn.cursor()
                self.copies[table.model] = self.stack.enter_context(
                    cursor.copy(table.sql(), writer=QueuedLibpqWriter(cursor))
                )
                self.connections.append(conn)
        except BaseException:
            self.stack.close()
            raise

    def write(self, model: Any, row: Sequence[Any]) -> None:
        self.copies[model].write_row(row)

    def __enter__(self) -> Loader:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        """Finish every COPY and commit (each connection commits on a clean exit), or roll all back."""
        self.stack.__exit__(*exc_info)


# -- seeding ---------------------------------------------------------------------------------


@dataclass
class Walk:
    """A version's rating walk and series record while the series are generated."""

    mu: float = 25.0
    sigma: float = 25.0 / 3
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points: float = 0.0
    game_wins: int = 0
    skill: float = 0.0


@dataclass(frozen=True)
class SeededVersion:
    id: int
    bot_id: int
    shown: str  # "bot-00001 v2", as a series spec names it
    sha256: str


class Seeder:
    """Writes the benchmark's rows, table by table, through :class:`Loader`."""

    SEASON = 1

    def __init__(self, database_url: str, args: argparse.Namespace) -> None:
        from django.contrib.auth import get_user_model

        from arena.bots.models import Bot, BotVersion
        from arena.ratings.models import Rating, RatingHistory
        from arena.seasons.models import Season, SeasonEntry
        from arena.series.models import GameRecord, Series, SeriesResultLog, SeriesSeat

        self.database_url, self.args = database_url, args
        self.rng = random.Random(args.seed)
        self.now = datetime.now(UTC).replace(microsecond=0)
        self.start = self.now - timedelta(days=SEASON_DAYS)
        models = (get_user_model(), Bot, BotVersion, Season, SeasonEntry, Rating, RatingHistory)
        models += (Series, SeriesSeat, GameRecord, SeriesResultLog)
        self.t = {m._meta.label: Table(m, self.now) for m in models}

    def loader(self, *labels: str) -> Loader:
        return Loader(self.database_url, [self.t[label] for label in labels])

    def row(self, label: str, **values: Any) -> tuple[Any, list[Any]]:
        return self.t[label].model, self.t[label].row(**values)

    def accounts(self) -> list[SeededVersion]:
        """Load users, bots, versions, the season and its entries; return the versions."""
        versions: list[SeededVersion] = []
        with self.loader("auth.User", "bots.Bot", "bots.BotVersion", "seasons.Season", "seasons.SeasonEntry") as load:
            for i in range(1, USERS + 1):
                load.write(
                    *self.row("auth.User", id=i, username=f"author-{i:04d}", password="!", date_joined=self.start)
                )
            for bot in range(1, BOTS + 1):
                name = f"bot-{bot:05d}"
                load.write(*self.row("bots.Bot", id=bot, owner_id=(bot - 1) % USERS + 1, name=name, created=self.start))
                numbers = (1, 2) if bot <= TWICE_UPLOADED else (1,)
                for number in numbers:
                    version = SeededVersion(
                        len(versions) + 1, bot, f"{name} v{number}", f"{self.rng.getrandbits(256):064x}"
                    )
                    load.write(*self.version_row(version, name, number, latest=number == numbers[-1]))
                    versions.append(version)
            load.write(
                *self.row(
                    "seasons.Season", id=self.SEASON, name="Benchmark season", game="watch", rules_version="1",
                    status="running", starts_at=self.start,
                )
            )  # fmt: skip
            for version in versions:
                load.write(
                    *self.row(
                        "seasons.SeasonEntry", id=version.id, season_id=self.SEASON, version_id=version.id,
                        joined_at=self.start,
                    )
                )  # fmt: skip
        return versions

    def version_row(self, version: SeededVersion, name: str, number: int, latest: bool) -> tuple[Any, list[Any]]:
        return self.row(
            "bots.BotVersion",
            id=version.id,
            bot_id=version.bot_id,
            number=number,
            archive_sha256=version.sha256,
            archive_size=self.rng.randint(900, 60_000),
            archive_format="tar.gz",
            manifest=json.dumps({"name": name, "entry": "main.py", "games": ["watch"]}),
            entry="main.py",
            games='["watch"]',
            uploaded_at=self.start + timedelta(days=number * 10),
            status="active" if latest else "retired",
            status_reason="passed the validation series" if latest else f"replaced by version {number + 1}",
            predecessor_id=version.id - 1 if number > 1 else None,
        )

    def series(self, versions: list[SeededVersion], templates: list[DocumentTemplate]) -> dict[int, Walk]:
        """Load the series with seats, game records, result documents and rating history; return the rating walks."""
        walks = {v.id: Walk(skill=self.rng.gauss(0, 1)) for v in versions}
        labels = ("series.Series", "series.SeriesSeat", "series.GameRecord", "series.SeriesResultLog")
        with self.loader(*labels, "ratings.RatingHistory") as load:
            history = Counter()
            for v in versions:
                load.write(
                    *self.row(
                        "ratings.RatingHistory", id=history.next(), season_id=self.SEASON, version_id=v.id,
                        series_id=None, mu=25.0, sigma=25.0 / 3, recorded_at=self.start,
                    )
                )  # fmt: skip
            step = timedelta(days=SEASON_DAYS) / self.args.series
            seats, games = Counter(), Counter()
            started = time.perf_counter()
            for series in range(1, self.args.series + 1):
                created = self.start + step * series
                template = templates[series % len(templates)]
                pair = self.rng.sample(versions, 2)
                finished = created + timedelta(seconds=self.rng.uniform(0.5, 4))
                seed = self.rng.getrandbits(31)
                load.write(
                    *self.row(
                        "series.Series", id=series, season_id=self.SEASON, seed=seed, state="done", attempts=1,
                        created=created, started_at=created, finished_at=finished,
                        deadline=created + timedelta(minutes=30),
                    )
                )  # fmt: skip
                players = json.dumps([{"name": v.shown, "sha256": v.sha256} for v in pair])
                load.write(
                    *self.row(
                        "series.SeriesResultLog", id=series, series_id=series, result=template.fill(players, seed),
                        recorded_at=finished,
                    )
                )  # fmt: skip
                for seat, version in enumerate(pair):
                    load.write(
                        *self.row(
                            "series.SeriesSeat", id=seats.next(), series_id=series, seat=seat, version_id=version.id,
                            points=template.points[seat], game_wins=template.game_wins[seat],
                            rank=0 if template.winner in (None, seat) else 1,
                        )
                    )  # fmt: skip
                for index, winners, reason, forfeit, moves in template.games:
                    load.write(
                        *self.row(
                            "series.GameRecord", id=games.next(), series_id=series, index=index,
                            winner_id=pair[winners[0]].id if len(winners) == 1 else None, reason=reason,
                            moves=f"[{moves[0]}, {moves[1]}]", forfeit=forfeit,
                        )
                    )  # fmt: skip
                for seat, version in enumerate(pair):
                    walk = walks[version.id]
                    _advance(walk, seat, template, self.rng)
                    load.write(
                        *self.row(
                            "ratings.RatingHistory", id=history.next(), season_id=self.SEASON, version_id=version.id,
                            series_id=series, mu=walk.mu, sigma=walk.sigma, recorded_at=finished,
                        )
                    )  # fmt: skip
                if series % PROGRESS_EVERY == 0:
                    print(f"  {series:,} series written ({time.perf_counter() - started:.0f} s)", flush=True)
        return walks

    def ratings(self, walks: dict[int, Walk]) -> None:
        """Load each version's rating: the end of its walk and its series record."""
        with self.loader("ratings.Rating") as load:
            for version_id, walk in walks.items():
                load.write(
                    *self.row(
                        "ratings.Rating", id=version_id, season_id=self.SEASON, version_id=version_id, mu=walk.mu,
                        sigma=walk.sigma, series_played=walk.played, won=walk.won, drawn=walk.drawn, lost=walk.lost,
                        series_points=round(walk.points, 1), game_wins=walk.game_wins, forfeits=0,
                        provisional=walk.played < 10, updated=self.now,
                    )
                )  # fmt: skip


class Counter:
    """Hands out ids 1, 2, 3 ..."""

    def __init__(self) -> None:
        self.last = 0

    def next(self) -> int:
        self.last += 1
        return self.last


def seed_database(database_url: str, args: argparse.Namespace, documents: list[dict[str, Any]]) -> dict[str, Any]:
    """Fill the migrated scratch database; return the ids the load needs (the season, sample bots and series)."""
    seeder = Seeder(database_url, args)
    versions = seeder.accounts()
    walks = seeder.series(versions, [DocumentTemplate.of(d) for d in documents])
    seeder.ratings(walks)
    rng = random.Random(args.seed + 1)
    return {
        "season": Seeder.SEASON,
        "bots": rng.sample(range(1, BOTS + 1), k=200),
        "series": rng.sample(range(1, args.series + 1), k=min(args.series, 500)),
    }


def _advance(walk: Walk, seat: int, template: DocumentTemplate, rng: random.Random) -> None:
    """Move a version's record and rating walk by one series."""
    walk.played += 1
    walk.points += template.points[seat]
    walk.game_wins += template.game_wins[seat]
    if template.winner is None:
        walk.drawn += 1
        delta = 0.0
    elif template.winner == seat:
        walk.won += 1
        delta = 1.0
    else:
        walk.lost += 1
        delta = -1.0
    walk.mu += walk.sigma * 0.1 * delta + 0.05 * walk.skill + rng.gauss(0, 0.05)
    walk.sigma = max(0.75, walk.sigma * 0.985)


def reset_sequences_and_analyze(database_url: str) -> None:
    """Point every identity sequence past the loaded ids and give the planner fresh statistics."""
    from django.apps import apps
    from django.core.management.color import no_style
    from django.db import connection

    statements = connection.ops.sequence_reset_sql(no_style(), apps.get_models())
    with psycopg.connect(database_url, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)
        conn.execute("VACUUM ANALYZE")


# -- load ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Endpoint:
    name: str
    paths: list[str]
    goal_ms: float


def endpoints(ids: dict[str, Any]) -> list[Endpoint]:
    season = ids["season"]
    return [
        Endpoint("leaderboard, page 1", [f"/seasons/{season}/"], LEADERBOARD_GOAL_MS),
        Endpoint("leaderboard, page 100", [f"/seasons/{season}/?page=100"], LEADERBOARD_GOAL_MS),
        Endpoint("bot page", [f"/bots/{bot}/" for bot in ids["bots"]], PAGE_GOAL_MS),
        Endpoint("series page", [f"/series/{series}/" for series in ids["series"]], PAGE_GOAL_MS),
        Endpoint("API leaderboard", [f"/api/seasons/{season}/leaderboard/"], PAGE_GOAL_MS),
        Endpoint("API leaderboard, offset 5000", [f"/api/seasons/{season}/leaderboard/?offset=5000"], PAGE_GOAL_MS),
    ]


def fetch(port: int, path: str) -> tuple[float, int]:
    """Return (seconds, status) of one GET on a fresh connection (gunicorn's sync workers close every one)."""
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path, headers={"Host": "127.0.0.1"})
        response = conn.getresponse()
        response.read()
    finally:
        conn.close()
    return time.perf_counter() - started, response.status


def client_main(plan_path: str) -> None:
    """The load generator's own process: read the plan, hit every endpoint, print the timings as JSON."""
    plan = json.loads(Path(plan_path).read_text())
    port, results = plan["port"], {}
    for endpoint in plan["endpoints"]:
        paths = endpoint["paths"]
        for i in range(plan["warmup"]):
            fetch(port, paths[i % len(paths)])
        measured = {}
        for clients in (1, plan["clients"]):
            jobs = [paths[i % len(paths)] for i in range(plan["requests"])]
            started = time.perf_counter()
            with concurrent.futures.ThreadPoolExecutor(clients) as pool:
                done = list(pool.map(lambda path: fetch(port, path), jobs))
            wall = time.perf_counter() - started
            measured[str(clients)] = {
                "ms": [s * 1000 for s, _ in done],
                "errors": sorted({status for _, status in done if status != 200}),
                "wall": wall,
            }
        results[endpoint["name"]] = measured
    print(json.dumps(results))


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int
    log: Path


def start_server(database_url: str, workers: int, log: Path) -> Server:
    """Start gunicorn on a free loopback port with DEBUG off; return once it answers."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {
        **os.environ,
        "ARENA_DATABASE_URL": database_url,
        "ARENA_DEBUG": "False",
        "ARENA_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SETTINGS_MODULE": "arena.settings",
    }
    command = [sys.executable, "-m", "gunicorn", "arena.wsgi:application", "--pythonpath", "platform",
               "--workers", str(workers), "--bind", f"127.0.0.1:{port}", "--log-level", "warning"]  # fmt: skip
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"gunicorn exited:\n{log.read_text()}")
        try:
            fetch(port, "/")
            return Server(process, port, log)
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise SystemExit(f"gunicorn did not answer within 60 s:\n{log.read_text()}")


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def print_load(results: dict[str, Any], points: list[Endpoint], clients: int) -> list[Endpoint]:
    """Print the latency table; return the endpoints that missed their goal."""
    print(
        f"| endpoint | goal p95 | p50 (1 client) | **p95 (1 client)** | req/s (1) | p50 ({clients}) | p95 ({clients}) "
        f"| req/s ({clients}) | errors |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    missed = []
    for endpoint in points:
        one, many = results[endpoint.name]["1"], results[endpoint.name][str(clients)]
        p95 = percentile(one["ms"], 0.95)
        ok = p95 < endpoint.goal_ms
        if not ok:
            missed.append(endpoint)
        errors = sorted(set(one["errors"]) | set(many["errors"]))
        print(
            f"| {endpoint.name} | {endpoint.goal_ms:.0f} ms | {statistics.median(one['ms']):.1f} ms "
            f"| **{p95:.1f} ms** {'✓' if ok else '✗'} | {len(one['ms']) / one['wall']:.0f} "
            f"| {statistics.median(many['ms']):.1f} ms | {percentile(many['ms'], 0.95):.1f} ms "
            f"| {len(many['ms']) / many['wall']:.0f} | {', '.join(map(str, errors)) or 'none'} |"
        )
    return missed


# -- why -------------------------------------------------------------------------------------


def profile(points: list[Endpoint], missed: list[Endpoint]) -> None:
    """Print, per endpoint, its queries and where its time goes; for each miss, EXPLAIN ANALYZE and a Python profile.

    In this process, with Django's test client on the same database: the
    wall time of one request (median of five), the time inside its queries
    (CaptureQueriesContext), and what is left: Python, mostly the template.
    """
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    client = Client()
    print("\n| endpoint (one request, in process) | status | queries | in queries | rest (Python) | slowest query |")
    print("|---|---|---:|---:|---:|---|")
    slowest: dict[str, str] = {}
    for endpoint in points:
        path = endpoint.paths[len(endpoint.paths) // 2]
        client.get(path)  # warm the connection and the template cache
        walls, db = [], []
        for _ in range(5):
            with CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                status = client.get(path).status_code
                walls.append(time.perf_counter() - started)
            db.append(sum(float(q["time"]) for q in captured.captured_queries))
        queries = captured.captured_queries
        worst = max(queries, key=lambda q: float(q["time"]), default={"sql": "", "time": "0"})
        slowest[endpoint.name] = worst["sql"]
        wall, in_db = statistics.median(walls) * 1000, statistics.median(db) * 1000
        sql = worst["sql"].replace("|", "\\|")[:100]
        print(
            f"| {endpoint.name} `{path}` | {status} | {len(queries)} | {in_db:.0f} ms | {wall - in_db:.0f} ms "
            f"| `{sql}…` ({float(worst['time']) * 1000:.0f} ms) |"
        )
    for endpoint in missed:
        explain(connection, endpoint.name, slowest[endpoint.name])
        python_profile(client, endpoint)


def explain(connection: Any, name: str, sql: str) -> None:
    if not sql.lstrip().upper().startswith("SELECT"):
        return
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    print(f"\nEXPLAIN ANALYZE of the slowest query of {name}:\n\n```\n{sql}\n\n{plan}\n```")


def python_profile(client: Any, endpoint: Endpoint, top: int = 12) -> None:
    """Print the project's functions (and template tags) one request spends the most time in, cumulative."""
    import cProfile
    import pstats

    path = endpoint.paths[len(endpoint.paths) // 2]
    profiler = cProfile.Profile()
    profiler.runcall(client.get, path)
    # (file, line, function) -> (calls, primitive calls, own time, cumulative time, callers)
    entries = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    ours = [
        (cumulative, calls, f"{file[file.index('arena/') :]}:{line} {function}")
        for (file, line, function), (calls, _, _, cumulative, _) in entries.items()
        if "arena/" in file and "site-packages" not in file
    ]
    ours += [
        (cumulative, calls, "django.shortcuts.render (the template, with the queries it runs)")
        for (file, _, function), (calls, _, _, cumulative, _) in entries.items()
        if file.endswith("django/shortcuts.py") and function == "render"
    ]
    print(f"\nWhere one request of {endpoint.name} ({path}) spends its time (cProfile, cumulative ms, calls):\n\n```")
    for cumulative, calls, where in sorted(ours, reverse=True)[:top]:
        print(f"{cumulative * 1000:8.1f} ms {calls:6d}  {where}")
    print("```")


# -- main ------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432", help="PostgreSQL server URL")
    parser.add_argument("--series", type=int, default=1_000_000)
    parser.add_argument("--documents", type=int, default=200, help="real series played for their documents")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    parser.add_argument("--clients", type=int, default=4, help="concurrent clients in the throughput run")
    parser.add_argument("--requests", type=int, default=200, help="requests per endpoint and run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reuse", action="store_true", help=f"use an already seeded {SCRATCH}, do not re-seed")
    parser.add_argument("--keep", action="store_true", help=f"leave the scratch database {SCRATCH}")
    parser.add_argument("--client-plan", help=argparse.SUPPRESS)  # the load generator's own process
    args = parser.parse_args()
    if args.client_plan:
        client_main(args.client_plan)
        return

    database_url = f"{args.server.rstrip('/')}/{SCRATCH}"
    os.environ["ARENA_DATABASE_URL"] = database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "arena.settings"
    os.environ.pop("ARENA_BROKER_URL", None)
    try:
        run(args, database_url)
    finally:
        from django.db import connections

        connections.close_all()
        if not args.keep:
            with admin(args.server) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {SCRATCH} WITH (FORCE)")


def run(args: argparse.Namespace, database_url: str) -> None:
    import django

    if not args.reuse:
        with admin(args.server) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {SCRATCH} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {SCRATCH}")
    django.setup()
    with admin(args.server) as conn:
        server_version = conn.execute("SHOW server_version").fetchone()[0]
    ids_file = Path(tempfile.gettempdir()) / f"{SCRATCH}-ids.json"
    if args.reuse:
        ids = json.loads(ids_file.read_text())
        print(f"Reusing {SCRATCH} (seeded earlier).")
    else:
        ids = seed(args, database_url)
        ids_file.write_text(json.dumps(ids))

    points = endpoints(ids)
    with tempfile.TemporaryDirectory(prefix="web-load-") as work:
        server = start_server(database_url, args.workers, Path(work) / "gunicorn.log")
        try:
            plan = Path(work) / "plan.json"
            plan.write_text(
                json.dumps(
                    {
                        "port": server.port,
                        "endpoints": [{"name": e.name, "paths": e.paths} for e in points],
                        "requests": args.requests,
                        "clients": args.clients,
                        "warmup": 10,
                    }
                )
            )
            client = subprocess.run(
                [sys.executable, __file__, "--client-plan", str(plan)], capture_output=True, text=True, check=False
            )
            if client.returncode:
                raise SystemExit(f"the load client failed:\n{client.stderr}")
            results = json.loads(client.stdout)
        finally:
            server.process.terminate()
            server.process.wait(timeout=30)
            errors = server.log.read_text()
    print(
        f"\nPostgreSQL {server_version} on 127.0.0.1, {os.cpu_count()} cores; gunicorn {args.workers} sync workers, "
        f"DEBUG off; {args.requests} requests per endpoint and run\n"
    )
    missed = print_load(results, points, args.clients)
    if errors.strip():
        print(f"\ngunicorn said:\n```\n{errors[-3000:]}\n```")
    profile(points, missed)


def seed(args: argparse.Namespace, database_url: str) -> dict[str, Any]:
    """Migrate, play the documents and load everything; print how long each step took; return the sampled ids."""
    from django.core.management import call_command

    from arena.series.head_to_head import fold_all

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    migrated = time.perf_counter()
    documents = play_documents(args.documents, args.seed)
    played = time.perf_counter()
    sizes = [len(json.dumps(d)) for d in documents]
    print(
        f"Played {len(documents)} real series for their documents in {played - migrated:.0f} s "
        f"(median {statistics.median(sizes) / 1000:.1f} kB). Loading {args.series:,} series ...",
        flush=True,
    )
    ids = seed_database(database_url, args, documents)
    loaded = time.perf_counter()
    # What the beat would have done as the series were recorded (arena/series/head_to_head.py).
    fold_all(limit=FOLD_SEEDED)
    folded = time.perf_counter()
    reset_sequences_and_analyze(database_url)
    done = time.perf_counter()
    with admin(args.server, SCRATCH) as conn:
        size = conn.execute("SELECT pg_size_pretty(pg_database_size(current_database()))").fetchone()[0]
    print(
        f"Seeded in {done - started:.0f} s: migrate {migrated - started:.0f} s, play {played - migrated:.0f} s, "
        f"COPY {loaded - played:.0f} s, pair records {folded - loaded:.0f} s, VACUUM ANALYZE {done - folded:.0f} s; "
        f"database {size}."
    )
    return ids


if __name__ == "__main__":
    main()
