"""``manage.py demo``: the README's main job, a ladder season of each game's reference bots on the embedded default.

Migrates the database (SQLite in var/ unless ARENA_DATABASE_URL says
otherwise), registers every reference bot of every game as a demo user's bot
(each version validated in the sandbox), starts each game's demo season as
its declaration describes it (Watch: two-player series; the Watch race:
four-player series; a game with a ``solo_demo`` also a solo season, its
score ladder), plays rounds of series
through the same matchmaker, Celery tasks, sandbox and rating code as
production (tasks run in-process when no broker is configured), prints each
leaderboard and one series game by game, and serves the populated site at
http://127.0.0.1:8000/ until Ctrl-C or SIGTERM (both let the series being
played finish and be recorded).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone
from tqdm import tqdm

import engines
from arena.bots.models import BotVersion
from arena.bots.submissions import submit_version
from arena.embedded import serve, sigterm_as_ctrl_c
from arena.matchmaking.scheduling import schedule_round
from arena.ratings.models import Rating
from arena.ratings.team_boards import ROLE_BOARDS, builtin_gm, played_with_builtin_gm, team_board
from arena.seasons.models import Season, SeasonEntry
from arena.series.models import Series, SeriesState
from arena.series.score_ladder import ladder_rows
from bots.provided import reference
from engines import kinds
from engines.declaration import DemoSeason
from engines.result import SeriesResult
from engines.teams import GM, PLAYER
from engines.text import format_series
from workers.referee import reason_words


@dataclass(frozen=True)
class DemoLadder:
    """One season of the demo: a game, its series shape, and how many demo owners enter each reference bot."""

    game: str
    demo: DemoSeason

    @property
    def packages(self) -> list[Path]:
        # A team game's GM bots are entered beside its player bots (the roles come from their bot.toml).
        return reference(self.game).demo_packages()

    def bot_name(self, package: Path, suffix: str) -> str:
        return f"{self.demo.bot_prefix}{package.name}{suffix}" if self.demo.bot_prefix else package.name


def ladders() -> list[DemoLadder]:
    """Return a demo season for every registered game that declares one, the flagship first, then the solo ones."""
    names = sorted(engines.names(), key=lambda name: (name != engines.flagship(), name))
    declared = {name: engines.declaration(name) for name in names}
    rated = [DemoLadder(name, demo) for name in names if (demo := declared[name].demo)]
    solo = [DemoLadder(name, demo) for name in names if (demo := declared[name].solo_demo)]
    return rated + solo


def _name_width(versions: Iterable[BotVersion]) -> int:
    """Return the width of the bot column: "name vN" of the longest, at least 20."""
    return max([20, *(len(f"{version.bot.name} v{version.number}") for version in versions)])


def score_ladder_lines(season: Season) -> list[str]:
    """Return a solo season's score ladder as text lines, best mean score first."""
    rows = ladder_rows(season)
    width = _name_width(row.version for row in rows)
    lines = [f"{'#':>2}  {'bot':<{width}} {'owner':<16} {'games':>5} {'mean':>8} {'95 % interval':>17}  title"]
    for row in rows:
        version, found = row.version, row.standing
        interval = f"{found.low:.2f} to {found.high:.2f}"
        lines.append(
            f"{row.rank:>2}  {version.bot.name + ' v' + str(version.number):<{width}} {version.bot.owner.username:<16} "
            f"{found.games:>5} {found.mean:>8.2f} {interval:>17}  {found.title or '-'}"
        )
    return lines


def leaderboard_lines(season: Season) -> list[str]:
    """Return the season's leaderboard as text lines, best conservative rating first."""
    rows = list(Rating.objects.filter(season=season).select_related("version__bot__owner").order_by("-conservative"))
    width = _name_width(rating.version for rating in rows)
    lines = [
        f"{'#':>2}  {'bot':<{width}} {'owner':<16} {'μ−3σ':>7} {'μ':>6} {'σ':>5}  {'series':>6} {'W-D-L':>8} "
        f"{'points':>6} {'game wins':>9}"
    ]
    for rank, rating in enumerate(rows, 1):
        version = rating.version
        record = f"{rating.won}-{rating.drawn}-{rating.lost}"
        mark = " (provisional)" if rating.provisional else ""
        lines.append(
            f"{rank:>2}  {version.bot.name + ' v' + str(version.number):<{width}} {version.bot.owner.username:<16} "
            f"{rating.conservative:>7.2f} {rating.mu:>6.2f} {rating.sigma:>5.2f}  {rating.series_played:>6} "
            f"{record:>8} {float(rating.series_points):>6.1f} {rating.game_wins:>9}{mark}"
        )
    return lines


def team_board_lines(season: Season) -> list[str]:
    """Return a team game's season as text: its player bots' leaderboard, then its GM bots' (or the built-in GM)."""
    lines = []
    builtin = played_with_builtin_gm(season)
    for role, title in ROLE_BOARDS:
        rows = team_board(season, role)
        if role == GM and builtin:
            gm = builtin_gm(season)
            lines += [f"{title}: none; {gm['label']} played the GM at a fixed μ {gm['mu']:.2f}, σ {gm['sigma']:.2f}"]
            continue
        width = _name_width(row.rating.version for row in rows)
        rates = role == PLAYER and builtin
        extra = f" {'games':>5} {'win rate':>8} {'95 % interval':>15} {'turns to win':>12}" if rates else ""
        lines.append(f"{title}:")
        lines.append(
            f"{'#':>2}  {'bot':<{width}} {'owner':<16} {'μ−3σ':>7} {'μ':>6} {'σ':>5}  {'series':>6} {'W-D-L':>8} "
            f"{'game wins':>9}{extra}"
        )
        for row in rows:
            rating, version = row.rating, row.rating.version
            record = f"{rating.won}-{rating.drawn}-{rating.lost}"
            line = (
                f"{row.rank:>2}  {version.bot.name + ' v' + str(version.number):<{width}} "
                f"{version.bot.owner.username:<16} {rating.conservative:>7.2f} {rating.mu:>6.2f} {rating.sigma:>5.2f}  "
                f"{rating.series_played:>6} {record:>8} {rating.game_wins:>9}"
            )
            if rates and row.win_rate is not None:
                turns = "-" if row.turns_to_win is None else f"{row.turns_to_win:.2f}"
                interval = f"{row.low:.1%} to {row.high:.1%}"
                line += f" {rating.games_played:>5} {row.win_rate:>8.1%} {interval:>15} {turns:>12}"
            lines.append(line)
    return lines


#: The demo's table of the kinds of game, keyed by their ranking (engines/kinds.py): a season's board as text.
BOARD_LINES: dict[str, Callable[[Season], list[str]]] = {
    kinds.RATED: leaderboard_lines,
    kinds.RATED_PER_ROLE: team_board_lines,
    kinds.SCORE_LADDER: score_ladder_lines,
}


def series_lines(series: Series) -> list[str]:
    """Return one series game by game and its score, as its game writes a series (the CLI prints the same)."""
    names = [f"{seat.version.bot.name} v{seat.version.number}" for seat in series.seats.order_by("seat")]
    result = SeriesResult.from_json(series.result)
    formatter = engines.declaration(result.game).format_series or format_series
    return [f"Series {series.pk}: {' v '.join(names)}", *formatter(result, names, reason_words(result.game))]


def register_reference_bots(ladder: DemoLadder) -> list[BotVersion]:
    """Return an active version of every reference bot of ``ladder``'s game, per demo owner; submit the missing."""
    users = get_user_model().objects
    versions = []
    for package in ladder.packages:
        for number in range(1, ladder.demo.owners_per_bot + 1):
            suffix = f"-{number}" if ladder.demo.owners_per_bot > 1 else ""
            owner, _ = users.get_or_create(username=f"demo-{package.name}{suffix}")
            name = ladder.bot_name(package, suffix)
            version = BotVersion.objects.filter(bot__owner=owner, bot__name=name, status="active").first()
            if version is None:
                with transaction.atomic():
                    version = submit_version(owner, name, package)
                version.refresh_from_db()
                if version.status != BotVersion.Status.ACTIVE:
                    raise CommandError(f"reference bot {name} did not validate: {version.status_reason}")
            versions.append(version)
    return versions


def start_season(ladder: DemoLadder, versions: list[BotVersion]) -> Season:
    """Return the running demo season of ``ladder``'s game with ``versions`` entered; start one if there is none.

    Re-running the demo goes on with the season an earlier run started (and left
    running for the living ladder) rather than piling up running seasons.
    """
    season = (
        Season.objects.filter(game=ladder.game, name__startswith=f"{ladder.demo.title} ", status=Season.Status.RUNNING)
        .order_by("-pk")
        .first()
    )
    if season is None:
        number = Season.objects.filter(game=ladder.game, name__startswith=f"{ladder.demo.title} ").count() + 1
        stamp = timezone.now().strftime("%Y-%m-%d %H:%M")
        season = Season.objects.create(
            name=f"{ladder.demo.title} {number} ({stamp})",
            game=ladder.game,
            games_per_series=ladder.demo.games,
            players_per_series=ladder.demo.players,
        )
    entered = set(SeasonEntry.objects.filter(season=season).values_list("version_id", flat=True))
    for version in versions:
        if version.pk not in entered:
            SeasonEntry.objects.create(season=season, version=version)
    if season.status != Season.Status.RUNNING:
        season.transition(Season.Status.RUNNING)
    return season


class Command(BaseCommand):
    help = "Play a demo ladder season of the reference bots and print the leaderboard."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rounds", type=int, default=12, help="rounds of matchmaking (default 12)")
        parser.add_argument("--slots", type=int, default=1, help="series per round (default 1)")
        parser.add_argument("--seed", type=int, default=2001, help="matchmaking seed")
        parser.add_argument("--quiet", action="store_true", help="no progress bar")
        parser.add_argument("--no-serve", action="store_true", help="stop after printing, do not serve the site")
        parser.add_argument("--port", type=int, default=8000, help="port to serve the site on (default 8000)")
        parser.add_argument(
            "--workers", type=int, default=None, help="series played at a time while serving (default: one per core)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        with sigterm_as_ctrl_c():
            self.play_and_serve(options)

    def play_and_serve(self, options: dict[str, Any]) -> None:
        if options["rounds"] < 0 or options["slots"] <= 0:
            raise CommandError("--rounds must be 0 or more and --slots positive")
        check_port(options["port"])
        if options["workers"] is not None and options["workers"] <= 0:
            raise CommandError("--workers must be positive")
        call_command("migrate", verbosity=0, interactive=False)
        seasons = [start_season(ladder, register_reference_bots(ladder)) for ladder in ladders()]
        rng = random.Random(options["seed"])
        progress = tqdm(
            total=options["rounds"] * options["slots"] * len(seasons),
            desc="series",
            unit="series",
            disable=options["quiet"],
        )
        for _ in range(options["rounds"]):
            for season in seasons:
                played = schedule_round(season, options["slots"], rng=rng)  # runs in-process without a broker
                progress.update(len(played))
        progress.close()
        for season in seasons:
            done = Series.objects.filter(season=season, state=SeriesState.DONE).order_by("id")
            self.stdout.write(f"\n{season.name}: {done.count()} series played\n")
            for line in BOARD_LINES[season.kind.ranking](season):
                self.stdout.write(line)
            if done:
                self.stdout.write("\n" + "\n".join(series_lines(done.first())))
        password = self.demo_admin()
        url = f"http://127.0.0.1:{options['port']}/"
        self.stdout.write(f"\nThe site: {url} (staff: user admin, password {password}, admin at {url}admin/)")
        if not options["no_serve"]:
            serve(self.stdout.write, options["port"], options["workers"])

    def demo_admin(self) -> str:
        """Return the password of a fresh staff account ``admin`` for browsing the demo."""
        return reset_demo_admin()


def reset_demo_admin() -> str:
    """Give the staff account ``admin`` a fresh password (creating it if needed) and return it."""
    password = secrets.token_urlsafe(9)
    user, _ = get_user_model().objects.get_or_create(username="admin")
    user.is_staff = user.is_superuser = True
    user.set_password(password)
    user.save()
    return password


def check_port(port: int) -> None:
    """Refuse a port number that cannot be served on, before any work is done."""
    if not 1 <= port <= 65535:
        raise CommandError(f"--port {port}: give a port from 1 to 65535")
