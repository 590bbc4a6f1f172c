"""Series: one match of a season between seated bot versions, its games, and the result log.

A series is queued by the matchmaker, run by a match worker and recorded
once. Its result document (workers/referee.py) is appended to
:class:`SeriesResultLog`, unique per series, so a repeated delivery cannot
record it twice, and a recompute of a season replays exactly that log.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q

from arena.bots.models import BotVersion
from arena.seasons.models import Season
from workers import chance


class AppendOnlyError(ValueError):
    """A row of an append-only table was changed or deleted."""


class SeriesState(models.TextChoices):
    QUEUED = "queued", "queued"
    RUNNING = "running", "running"
    DONE = "done", "done"
    FAILED = "failed", "failed"
    CANCELLED = "cancelled", "cancelled"


class Series(models.Model):
    """A match of several games between the versions in its seats."""

    State = SeriesState

    season = models.ForeignKey(Season, models.PROTECT, related_name="series")
    seed = models.BigIntegerField(
        help_text="the series' nonce: with the server key it makes the series' chance secret (chance_secret)"
    )
    state = models.CharField(max_length=10, choices=SeriesState.choices, default=SeriesState.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0, help_text="times a worker has started it")
    resends = models.PositiveSmallIntegerField(
        default=0, help_text="times the inventory sent it again, lost on the way (arena/matchmaking/inventory.py)"
    )
    deadline = models.DateTimeField(null=True, blank=True, help_text="requeue or fail it when not done by then")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    failure_reason = models.TextField(blank=True, help_text="why it failed or was cancelled")
    replay_location = models.TextField(blank=True, help_text="where the replay sits in the artifact store")
    created = models.DateTimeField(auto_now_add=True)
    folded = models.BooleanField(
        default=False, help_text="done and counted in the PairRecord summaries (arena/series/head_to_head.py)"
    )

    class Meta:
        verbose_name_plural = "series"
        ordering = ("-created",)
        constraints = (models.CheckConstraint(condition=Q(state__in=SeriesState.values), name="series_state"),)
        indexes = (
            models.Index(fields=["season", "state", "created"], name="series_season_state_created"),
            # A season's latest results (its page's live part): without it, a sort of every series.
            models.Index(
                fields=["season", "-finished_at", "-id"],
                name="series_season_latest_finished",
                condition=Q(state__in=[SeriesState.DONE, SeriesState.FAILED]),
            ),
            # Queued and running series: few, whatever the size of the ladder (a bot page's versions).
            models.Index(
                fields=["id"],
                name="series_active",
                condition=Q(state__in=[SeriesState.QUEUED, SeriesState.RUNNING]),
            ),
            # Done series not yet in the pair summaries: few, whatever the size of the ladder.
            models.Index(fields=["id"], name="series_done_unfolded", condition=Q(state=SeriesState.DONE, folded=False)),
        )

    def __str__(self) -> str:
        return f"series {self.pk}"

    def chance_secret(self) -> str:
        """Return the secret the series' chance is drawn from (workers/chance.py), as 64 hexadecimal digits.

        An HMAC of the series' id and nonce under the server key (settings.ARENA_CHANCE_KEY), so
        no bot and no visitor can derive it: it goes to the match worker in the series spec and
        nowhere else. A solo season's series all use the season's own stored secret, so every
        version plays the same deals.
        """
        season = self.season
        if season.kind.same_deals:
            return season.deal_secret
        return chance.derive(settings.ARENA_CHANCE_KEY, f"series {self.pk} nonce {self.seed}").hex()

    @property
    def result(self) -> dict[str, Any] | None:
        """Return the recorded result document (stored once, in the result log), or None."""
        try:
            return self.result_log.result
        except SeriesResultLog.DoesNotExist:
            return None


class PairRecord(models.Model):
    """How a bot's done series in a season went against one opponent bot, summed (arena/series/head_to_head.py).

    One row per season, bot and opponent, for each of the two: a bot page reads
    its few rows instead of every seat of its series, which lie all over a long
    ladder's tables. Folded in by a beat task after the series are recorded,
    never by the recorder itself; a series done but not yet folded is counted
    from its seats, so what a page shows is exact at any moment.
    """

    season = models.ForeignKey(Season, models.CASCADE, related_name="+")
    bot = models.ForeignKey("bots.Bot", models.CASCADE, related_name="+")
    opponent = models.ForeignKey("bots.Bot", models.CASCADE, related_name="+")
    won = models.PositiveIntegerField(default=0)
    drawn = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    # Series of exactly two seats: the Wilson interval is about one opponent at a time.
    duel_series = models.PositiveIntegerField(default=0)
    duel_won = models.PositiveIntegerField(default=0)
    duel_drawn = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = (models.UniqueConstraint(fields=["bot", "season", "opponent"], name="pair_record_unique"),)

    def __str__(self) -> str:
        return f"bot {self.bot_id} against bot {self.opponent_id} in season {self.season_id}"


class SeriesSeat(models.Model):
    """The version playing in seat ``seat`` (player index in the result document) of a series."""

    series = models.ForeignKey(Series, models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    version = models.ForeignKey(BotVersion, models.PROTECT, related_name="series_seats")
    # Filled in when the series is recorded, so lists and head-to-head records need no document.
    points = models.DecimalField(
        max_digits=5, decimal_places=1, null=True, blank=True, help_text="series points (Watch: in halves)"
    )
    game_wins = models.PositiveSmallIntegerField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True, help_text="0 for the best; ties share a rank")

    class Meta:
        ordering = ("series", "seat")
        constraints = (
            models.UniqueConstraint(fields=["series", "seat"], name="series_seat_unique"),
            # A version never plays itself: its rating could not move, and TrueSkill refuses it.
            models.UniqueConstraint(fields=["series", "version"], name="series_seat_version_once"),
        )
        # A version's series, newest first, for its page and for the matchmaker's history.
        indexes = (models.Index(fields=["version", "series"], name="series_seat_version_series"),)

    def __str__(self) -> str:
        return f"seat {self.seat} of series {self.series_id}: {self.version}"


class GameRecord(models.Model):
    """One game of a series, as the referee recorded it."""

    series = models.ForeignKey(Series, models.CASCADE, related_name="games")
    index = models.PositiveSmallIntegerField(help_text="0 for the first game")
    winner = models.ForeignKey(
        BotVersion, models.PROTECT, null=True, blank=True, related_name="+", help_text="empty: a draw"
    )
    reason = models.CharField(max_length=40, help_text="how the game ended, or the forfeit reason")
    moves = models.JSONField(default=list, help_text="per series seat: moves made")
    forfeit = models.JSONField(null=True, blank=True, help_text="player, seat, reason, detail of a forfeit")

    class Meta:
        ordering = ("series", "index")
        constraints = (models.UniqueConstraint(fields=["series", "index"], name="game_record_unique"),)

    def __str__(self) -> str:
        return f"game {self.index + 1} of series {self.series_id}"


class PendingResult(models.Model):
    """A result delivered by a match worker and not yet applied: the recorder's inbox.

    Inserting it is the one thing a delivery does before it returns; whoever
    holds the season's lock next applies every pending result of the season in
    one batch (arena.results.recording) and deletes them.
    """

    series = models.OneToOneField(Series, models.CASCADE, related_name="pending_result")
    season = models.ForeignKey(Season, models.CASCADE, related_name="+")
    result = models.JSONField()
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("id",)
        indexes = (models.Index(fields=["season", "id"], name="pending_result_season"),)

    def __str__(self) -> str:
        return f"pending result of series {self.series_id}"


class SeriesResultLog(models.Model):
    """The append-only log of recorded results: one row per series, never changed."""

    series = models.OneToOneField(Series, models.PROTECT, related_name="result_log")
    result = models.JSONField()
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("recorded_at", "id")

    def __str__(self) -> str:
        return f"result of series {self.series_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError(f"{self} is in the append-only result log and cannot change")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError(f"{self} is in the append-only result log and cannot be deleted")
