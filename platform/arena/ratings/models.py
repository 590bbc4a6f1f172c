"""Ratings: each version's TrueSkill rating and series record in a season, and their history.

A version of a team game (engines/teams.py) keeps one rating per role it
plays (``role``, "player" or "gm"; "" in every other game), so a version that
plays both sits on both leaderboards of the season.

The leaderboard sorts by the conservative rating μ − 3σ. The database
computes it (a stored generated column), so it can never disagree with μ and
σ however a row is written, and an index serves the leaderboard.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models import F, Q

from arena.bots.models import BotVersion
from arena.seasons.models import Season
from arena.series.models import AppendOnlyError, Series


def conservative_field() -> models.GeneratedField:
    return models.GeneratedField(
        expression=F("mu") - 3 * F("sigma"),
        output_field=models.FloatField(),
        db_persist=True,
        help_text="μ − 3σ, what the leaderboard sorts by",
    )


class Rating(models.Model):
    """A version's current rating and series record in one season."""

    season = models.ForeignKey(Season, models.CASCADE, related_name="ratings")
    version = models.ForeignKey(BotVersion, models.PROTECT, related_name="ratings")
    role = models.CharField(max_length=20, blank=True, default="", help_text="a team game's role; empty: other games")
    mu = models.FloatField()
    sigma = models.FloatField()
    conservative = conservative_field()
    series_played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    drawn = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    series_points = models.DecimalField(
        max_digits=10, decimal_places=1, default=0, help_text="Watch series points, in halves"
    )
    game_wins = models.PositiveIntegerField(default=0)
    forfeits = models.PositiveIntegerField(default=0, help_text="series in which this version forfeited a game")
    provisional = models.BooleanField(default=True, help_text="too few series yet for the rating to mean much")
    games_played = models.PositiveIntegerField(default=0, help_text="games of its series (counted in team games)")
    win_turns = models.PositiveIntegerField(
        default=0, help_text="a team game's player: the turns of the games its team won, summed"
    )
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("season", "-conservative")
        constraints = (
            models.UniqueConstraint(fields=["season", "version", "role"], name="rating_unique_per_season_role"),
            models.CheckConstraint(condition=Q(sigma__gt=0), name="rating_sigma_positive"),
        )
        indexes = (models.Index(fields=["season", "-conservative"], name="rating_leaderboard"),)

    def __str__(self) -> str:
        role = f" as {self.role}" if self.role else ""
        return f"{self.version}{role} in {self.season}: μ {self.mu:.2f}, σ {self.sigma:.2f}"


class RatingHistory(models.Model):
    """A version's rating after a series (or, with no series, as seeded): append-only."""

    season = models.ForeignKey(Season, models.CASCADE, related_name="rating_history")
    version = models.ForeignKey(BotVersion, models.PROTECT, related_name="rating_history")
    role = models.CharField(max_length=20, blank=True, default="", help_text="a team game's role; empty: other games")
    series = models.ForeignKey(
        Series, models.PROTECT, null=True, blank=True, related_name="rating_history", help_text="empty: the seed"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    conservative = conservative_field()
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "rating history"
        ordering = ("season", "version", "recorded_at", "id")
        constraints = (
            # A series moves a version's rating once.
            models.UniqueConstraint(fields=["version", "series"], name="rating_history_once_per_series"),
            models.CheckConstraint(condition=Q(sigma__gt=0), name="rating_history_sigma_positive"),
        )
        indexes = (models.Index(fields=["season", "version", "recorded_at"], name="rating_history_chart"),)

    def __str__(self) -> str:
        return f"{self.version} after series {self.series_id}: μ {self.mu:.2f}, σ {self.sigma:.2f}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError(f"rating history row {self.pk} is append-only and cannot change")
        super().save(*args, **kwargs)
