"""``manage.py demo``: the README's main job, a ladder season of the reference bots on the embedded default.

Migrates the database (SQLite in var/ unless ARENA_DATABASE_URL says
otherwise), registers every reference bot as a demo user's bot (each
version validated in the sandbox), starts a season, plays rounds of series
through the same matchmaker, Celery tasks, sandbox and rating code as
production (tasks run in-process when no broker is configured), prints the
leaderboard and one series game by game, and serves the populated site (the
Django admin, for now) at http://127.0.0.1:8000/ until Ctrl-C.
"""

from __future__ import annotations

import random
import secrets
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone
from tqdm import tqdm

from arena.bots.models import BotVersion
from arena.bots.submissions import submit_version
from arena.matchmaking.scheduling import schedule_round
from arena.ratings.models import Rating
from arena.seasons.models import Season, SeasonEntry
from arena.series.models import Series, SeriesState
from engines.watch import format_points, name_players

REFERENCE_PACKAGES = Path(__file__).resolve().parents[5] / "bots" / "watch" / "packages"


def leaderboard_lines(season: Season) -> list[str]:
    """Return the season's leaderboard as text lines, best conservative rating first."""
    rows = Rating.objects.filter(season=season).select_related("version__bot__owner").order_by("-conservative")
    lines = [
        f"{'#':>2}  {'bot':<14} {'owner':<12} {'μ−3σ':>7} {'μ':>6} {'σ':>5}  {'series':>6} {'W-D-L':>8} "
        f"{'points':>6} {'game wins':>9}"
    ]
    for rank, rating in enumerate(rows, 1):
        version = rating.version
        record = f"{rating.won}-{rating.drawn}-{rating.lost}"
        mark = " (provisional)" if rating.provisional else ""
        lines.append(
            f"{rank:>2}  {version.bot.name + ' v' + str(version.number):<14} {version.bot.owner.username:<12} "
            f"{rating.mu - 3 * rating.sigma:>7.2f} {rating.mu:>6.2f} {rating.sigma:>5.2f}  {rating.series_played:>6} "
            f"{record:>8} {float(rating.series_points):>6.1f} {rating.game_wins:>9}{mark}"
        )
    return lines


def series_lines(series: Series) -> list[str]:
    """Return one series game by game and its score worked out the rulebook's way."""
    names = [f"{seat.version.bot.name} v{seat.version.number}" for seat in series.seats.order_by("seat")]
    result = series.result
    lines = [f"Series {series.pk}: {names[0]} v {names[1]}"]
    for game in result["games"]:
        white, black = (names[p] for p in game["seats"])
        moves = [game["stats"][str(p)]["moves"] for p in game["seats"]]
        winner = ", ".join(names[p] for p in game["winners"]) or "nobody"
        lines.append(
            f"  game {game['index'] + 1}: {white} (White) v {black} (Black): {winner} wins ({game['reason']}); "
            f"moves White {moves[0]}, Black {moves[1]}"
        )
        lines.append("    " + " ".join(action["notation"] for action in game["actions"][27:]))
    score = result["score"]
    lines += [f"  - {name_players(step, names)}" for step in score["steps"]]
    points = score["points"]
    lines.append(f"  {names[0]} {format_points(points[0])} – {format_points(points[1])} {names[1]}")
    return lines


class Command(BaseCommand):
    help = "Play a demo ladder season of the reference bots and print the leaderboard."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rounds", type=int, default=12, help="rounds of matchmaking (default 12)")
        parser.add_argument("--slots", type=int, default=1, help="series per round (default 1)")
        parser.add_argument("--seed", type=int, default=2001, help="matchmaking seed")
        parser.add_argument("--quiet", action="store_true", help="no progress bar")
        parser.add_argument("--no-serve", action="store_true", help="stop after printing, do not serve the site")
        parser.add_argument("--port", type=int, default=8000, help="port to serve the site on (default 8000)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["rounds"] <= 0 or options["slots"] <= 0:
            raise CommandError("--rounds and --slots must be positive")
        call_command("migrate", verbosity=0, interactive=False)
        versions = self.register_reference_bots()
        season = self.start_season(versions)
        rng = random.Random(options["seed"])
        progress = tqdm(
            total=options["rounds"] * options["slots"], desc="series", unit="series", disable=options["quiet"]
        )
        for _ in range(options["rounds"]):
            played = schedule_round(season, options["slots"], rng=rng)  # runs in-process without a broker
            progress.update(len(played))
        progress.close()
        done = Series.objects.filter(season=season, state=SeriesState.DONE).order_by("id")
        self.stdout.write(f"\n{season.name}: {done.count()} series played\n")
        for line in leaderboard_lines(season):
            self.stdout.write(line)
        if done:
            self.stdout.write("\n" + "\n".join(series_lines(done.first())))
        password = self.demo_admin()
        url = f"http://127.0.0.1:{options['port']}/admin/"
        self.stdout.write(f"\nThe site: {url} (user admin, password {password})")
        if not options["no_serve"]:
            self.stdout.write("Serving it until Ctrl-C.")
            # insecure_serving: the admin's own CSS and scripts, on this local address only.
            call_command("runserver", f"127.0.0.1:{options['port']}", use_reloader=False, insecure_serving=True)

    def demo_admin(self) -> str:
        """Return the password of a fresh staff account ``admin`` for browsing the demo."""
        password = secrets.token_urlsafe(9)
        user, _ = get_user_model().objects.get_or_create(username="admin")
        user.is_staff = user.is_superuser = True
        user.set_password(password)
        user.save()
        return password

    def register_reference_bots(self) -> list[BotVersion]:
        users = get_user_model().objects
        versions = []
        for package in sorted(REFERENCE_PACKAGES.iterdir()):
            owner, _ = users.get_or_create(username=f"demo-{package.name}")
            version = BotVersion.objects.filter(bot__owner=owner, bot__name=package.name, status="active").first()
            if version is None:
                with transaction.atomic():
                    version = submit_version(owner, package.name, package)
                version.refresh_from_db()
                if version.status != BotVersion.Status.ACTIVE:
                    raise CommandError(f"reference bot {package.name} did not validate: {version.status_reason}")
            versions.append(version)
        return versions

    def start_season(self, versions: list[BotVersion]) -> Season:
        number = Season.objects.filter(name__startswith="Demo season ").count() + 1
        stamp = timezone.now().strftime("%Y-%m-%d %H:%M")
        season = Season.objects.create(name=f"Demo season {number} ({stamp})", game="watch", games_per_series=2)
        for version in versions:
            SeasonEntry.objects.create(season=season, version=version)
        season.transition(Season.Status.RUNNING)
        return season
