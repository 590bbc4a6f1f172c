"""``manage.py recompute_ratings SEASON``: replay a season's result log and compare with the stored ratings."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from arena.ratings.models import Rating
from arena.results.recording import recompute_ratings
from arena.seasons.models import Season


class Command(BaseCommand):
    help = "Recompute a season's ratings from its result log; exit 1 if they differ from the stored ones."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("season", help="the season's name or id")

    def handle(self, *args: Any, **options: Any) -> None:
        key = options["season"]
        season = Season.objects.filter(name=key).first() or (
            Season.objects.filter(pk=int(key)).first() if key.isdigit() else None
        )
        if season is None:
            raise CommandError(f"no season named {key!r} (nor with that id)")
        recomputed = recompute_ratings(season)  # per (version, role): a team game's season is rated per role
        stored = {
            (r.version_id, r.role): r for r in Rating.objects.filter(season=season).select_related("version__bot")
        }
        differing = 0
        for key, rating in sorted(stored.items()):
            mu, sigma = recomputed.get(key, (None, None))
            same = (mu, sigma) == (rating.mu, rating.sigma)
            differing += not same
            label = f"{rating.version.bot.name} v{rating.version.number}" + (
                f" as {rating.role}" if rating.role else ""
            )
            self.stdout.write(
                f"{label:<20} stored μ {rating.mu:.12f} σ {rating.sigma:.12f}  "
                + ("same" if same else f"recomputed μ {mu} σ {sigma}")
            )
        missing = set(recomputed) - set(stored)
        if missing:
            versions = [version if not role else f"{version} as {role}" for version, role in sorted(missing)]
            raise CommandError(f"the log rates versions with no stored rating: {versions}")
        if differing:
            raise CommandError(f"{differing} of {len(stored)} ratings differ from the recompute")
        self.stdout.write(f"{season.name}: all {len(stored)} ratings equal the recompute of the result log")
