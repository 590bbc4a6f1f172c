"""``manage.py demo_season``: a ladder season of the reference bots, played on the embedded default.

Migrates the database (SQLite in var/ unless ARENA_DATABASE_URL says
otherwise), registers every reference bot as a demo user's bot (each
version validated in the sandbox), starts a season, plays rounds of series
through the same matchmaker, Celery tasks, sandbox and rating code as
production (tasks run in-process when no broker is configured), and prints
the leaderboard.
"""

from __future__ import annotations

import random
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


class Command(BaseCommand):
    help = "Play a demo ladder season of the reference bots and print the leaderboard."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rounds", type=int, default=12, help="rounds of matchmaking (default 12)")
        parser.add_argument("--slots", type=int, default=1, help="series per round (default 1)")
        parser.add_argument("--seed", type=int, default=2001, help="matchmaking seed")
        parser.add_argument("--quiet", action="store_true", help="no progress bar")

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
        done = Series.objects.filter(season=season, state=SeriesState.DONE).count()
        self.stdout.write(f"\n{season.name}: {done} series played\n")
        for line in leaderboard_lines(season):
            self.stdout.write(line)
        self.stdout.write(
            "\nBrowse it in the Django admin: `python3 manage.py createsuperuser`, then "
            "`python3 manage.py runserver` and open http://127.0.0.1:8000/admin/"
        )

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
        stamp = timezone.now().strftime("%Y-%m-%d %H:%M:%S")
        season = Season.objects.create(name=f"Demo season {stamp}", game="watch", games_per_series=2)
        for version in versions:
            SeasonEntry.objects.create(season=season, version=version)
        season.transition(Season.Status.RUNNING)
        return season
