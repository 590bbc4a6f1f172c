"""Seasons: a ladder of one game under fixed rules and time control, and the versions taking part.

A season of one player a series is a solo season: a score ladder
(engines/score_ladder.py) that plays every version once on the same deals,
drawn from :attr:`Season.deal_secret` (a secret: nobody can foresee them), and
ranks them by mean score, without ratings.

A season of a team game (engines/teams.py) counts its player seats in
``players_per_series``; each series adds the GM seat for a GM bot, or, when
the season has none, is played with the engine's built-in GM
(:meth:`Season.series_config`).

A season moves through created → running ⇄ paused → finished, and only along
those arrows (a running season may also finish directly). :meth:`Season.transition`
is the way to move it; ``save()`` refuses any other change of status.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import F, Q
from django.db.models.functions import Mod
from django.db.models.lookups import Exact
from django.utils import timezone

import engines
from arena.bots.models import BotVersion


class SeasonStatus(models.TextChoices):
    CREATED = "created", "created"
    RUNNING = "running", "running"
    PAUSED = "paused", "paused"
    FINISHED = "finished", "finished"


#: The moves a season's status can make; finished is final.
SEASON_TRANSITIONS: dict[str, tuple[str, ...]] = {
    SeasonStatus.CREATED: (SeasonStatus.RUNNING,),
    SeasonStatus.RUNNING: (SeasonStatus.PAUSED, SeasonStatus.FINISHED),
    SeasonStatus.PAUSED: (SeasonStatus.RUNNING, SeasonStatus.FINISHED),
    SeasonStatus.FINISHED: (),
}


class SeasonTransitionError(ValueError):
    """A change of season status that the lifecycle does not allow."""


def new_deal_secret() -> str:
    """Return a fresh chance secret (workers/chance.py) for a season's deals, as 64 hexadecimal digits."""
    return secrets.token_hex(32)


class Season(models.Model):
    """A ladder of one game: its rules version, configuration, time control and series format."""

    Status = SeasonStatus

    name = models.CharField(max_length=100, unique=True)
    game = models.CharField(max_length=40, help_text="engine name, as engines.names() lists it")
    rules_version = models.CharField(max_length=20, blank=True, help_text="left blank: the engine's current one")
    config = models.JSONField(
        default=dict, blank=True, help_text="the game's configuration (engines.get(game, config))"
    )
    decision_ms = models.PositiveIntegerField(default=2000, help_text="longest single decision")
    bank_ms = models.PositiveIntegerField(default=60000, help_text="time bank per game and seat")
    increment_ms = models.PositiveIntegerField(default=0, help_text="added to the bank after each decision")
    games_per_series = models.PositiveSmallIntegerField(
        default=2, help_text="even for two-player games; a solo season's deals, at least 20"
    )
    players_per_series = models.PositiveSmallIntegerField(
        default=2, help_text="1: a solo season, a score ladder (for a game that declares one)"
    )
    status = models.CharField(max_length=10, choices=SeasonStatus.choices, default=SeasonStatus.CREATED)
    starts_at = models.DateTimeField(null=True, blank=True, help_text="planned start; the actual one once running")
    ends_at = models.DateTimeField(null=True, blank=True, help_text="planned end; the actual one once finished")
    created = models.DateTimeField(auto_now_add=True)
    deal_secret = models.CharField(
        max_length=64,
        default=new_deal_secret,
        editable=False,
        help_text="a solo season's chance secret: every version plays the same deals, which nobody can foresee",
    )

    class Meta:
        ordering = ("-created",)
        constraints = (
            models.CheckConstraint(condition=Q(status__in=SeasonStatus.values), name="season_status"),
            models.CheckConstraint(condition=Q(decision_ms__gte=1, bank_ms__gte=1), name="season_time_control"),
            models.CheckConstraint(condition=Q(players_per_series__gte=1), name="season_players"),
            models.CheckConstraint(condition=Q(games_per_series__gte=1), name="season_games_positive"),
            # Each player takes every seat equally often: two players need an even number of games.
            models.CheckConstraint(
                condition=Q(players_per_series__gt=2) | Exact(Mod(F("games_per_series"), 2), 0),
                name="season_games_even_for_two",
            ),
            models.CheckConstraint(
                condition=Q(starts_at__isnull=True) | Q(ends_at__isnull=True) | Q(ends_at__gte=F("starts_at")),
                name="season_ends_after_start",
            ),
        )
        indexes = (models.Index(fields=["status", "game"], name="season_status_game"),)

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.check_game()
        if not self._state.adding:
            update_fields = kwargs.get("update_fields")
            if update_fields is None or "status" in update_fields:
                stored = type(self).objects.filter(pk=self.pk).values_list("status", flat=True).first()
                if stored is not None:
                    self.check_transition(stored, self.status)
        super().save(*args, **kwargs)

    def clean(self) -> None:
        try:
            self.check_game()
            if not self._state.adding:
                stored = type(self).objects.filter(pk=self.pk).values_list("status", flat=True).first()
                if stored is not None:
                    self.check_transition(stored, self.status)
        except SeasonTransitionError as exc:
            raise ValidationError({"status": str(exc)}) from None

    def check_game(self) -> None:
        """Fill in the engine's rules version if blank; raise ValidationError if the game cannot be played so."""
        if self.game not in engines.names():
            raise ValidationError({"game": f"no game {self.game!r}; this arena runs {', '.join(engines.names())}"})
        try:
            info = engines.get(self.game, self.config).info
        except engines.ConfigError as exc:
            raise ValidationError({"config": f"{self.game}: {exc}"}) from None
        if not self.rules_version:
            self.rules_version = info.rules_version
        elif self._state.adding and self.rules_version != info.rules_version:
            # An existing season keeps its rules version; a new one must be playable now.
            raise ValidationError(
                {"rules_version": f"{info.name} is at rules version {info.rules_version}, not {self.rules_version}"}
            )
        if self.players_per_series is None or self.games_per_series is None:
            return  # a form reports the missing field
        problem = self.kind.check_season(self.players_per_series, self.games_per_series, self.config)
        if problem:
            field_name, message = problem
            raise ValidationError({field_name: message})

    @property
    def kind(self) -> engines.Kind:
        """Return the kind of this season's series (engines/kinds.py): how they are seated, scored and ranked."""
        return engines.declaration(self.game).kind(self.players_per_series or 0)

    def series_config(self, with_gm_bot: bool) -> dict[str, Any]:
        """Return the config a series of this season is played with: a team game without a GM bot leaves the GM
        to the engine (its built-in config merged in)."""
        if self.game not in engines.names():
            return dict(self.config)
        return self.kind.series_config(self.config, with_gm_bot)

    def check_transition(self, current: str, to: str) -> None:
        """Raise :class:`SeasonTransitionError` unless the status may go from ``current`` to ``to``."""
        if to == current:
            return
        allowed = SEASON_TRANSITIONS.get(current, ())
        if to not in allowed:
            choices = ", ".join(allowed) if allowed else "nothing, finished is final"
            raise SeasonTransitionError(
                f"season {self.name!r} cannot go from {current} to {to}; from {current} it can go to {choices}"
            )

    def transition(self, to: str) -> None:
        """Move the season to status ``to``, stamping starts_at or ends_at; raise SeasonTransitionError if not allowed.

        The row is locked and its stored status checked, so two operators (or
        an operator and the scheduler) cannot both move it from the same state.
        """
        with transaction.atomic():
            current = type(self).objects.select_for_update().values_list("status", flat=True).get(pk=self.pk)
            self.check_transition(current, to)
            if to == current:
                self.status = current
                return
            now = timezone.now()
            if to == SeasonStatus.RUNNING and (self.starts_at is None or self.starts_at > now):
                self.starts_at = now
            if to == SeasonStatus.FINISHED and (self.ends_at is None or self.ends_at > now):
                self.ends_at = now
            self.status = to
            self.save(update_fields=["status", "starts_at", "ends_at"])

    @property
    def time_control(self) -> dict[str, int]:
        """Return the time control as workers.referee.TimeControl takes it."""
        return {"decision_ms": self.decision_ms, "bank_ms": self.bank_ms, "increment_ms": self.increment_ms}


class SeasonEntry(models.Model):
    """A bot version taking part in a season; inactive entries are no longer paired."""

    season = models.ForeignKey(Season, models.CASCADE, related_name="entries")
    version = models.ForeignKey(BotVersion, models.PROTECT, related_name="season_entries")
    joined_at = models.DateTimeField(auto_now_add=True)
    active = models.BooleanField(default=True)

    class Meta:
        verbose_name_plural = "season entries"
        ordering = ("season", "joined_at")
        constraints = (models.UniqueConstraint(fields=["season", "version"], name="season_entry_unique"),)
        indexes = (models.Index(fields=["season", "active"], name="season_entry_active"),)

    def __str__(self) -> str:
        return f"{self.version} in {self.season}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.check_game()
        super().save(*args, **kwargs)

    def clean(self) -> None:
        if self.version_id is not None and self.season_id is not None:  # else the form reports the missing field
            self.check_game()

    def check_game(self) -> None:
        """Raise ValidationError when the version's bot.toml lists games and the season's is not among them."""
        games = self.version.games
        if games and self.season.game not in games:
            raise ValidationError(
                {"version": f"{self.version} plays {', '.join(games)} (its bot.toml says), not {self.season.game}"}
            )


class FrozenStandingError(ValueError):
    """A final standing of a finished season was changed or deleted."""


#: A version's record in a season, the same columns on its rating (arena.ratings) and its final standing:
#: the admin, the API, the leaderboards and recording all list these.
RECORD_FIELDS = ("series_played", "won", "drawn", "lost", "series_points", "game_wins")


class FinalStanding(models.Model):
    """A version's place in a finished season: the leaderboard as it stood when the season finished.

    Written once, in the transaction that finishes the season
    (:func:`arena.ops.operations.finish_season`), from the season's rating
    rows best conservative rating first, and never changed afterwards: a late
    result that still reached the ratings cannot move a season's final table.
    ``rank`` is 1 for the champion.
    """

    season = models.ForeignKey(Season, models.CASCADE, related_name="final_standings")
    rank = models.PositiveIntegerField(help_text="1 for the best conservative rating (of its role, in a team game)")
    version = models.ForeignKey(BotVersion, models.PROTECT, related_name="final_standings")
    role = models.CharField(max_length=20, blank=True, default="", help_text="a team game's role; empty: other games")
    mu = models.FloatField()
    sigma = models.FloatField()
    # The same expression as Rating.conservative, computed by the database so it always matches μ and σ.
    conservative = models.GeneratedField(
        expression=F("mu") - 3 * F("sigma"), output_field=models.FloatField(), db_persist=True, help_text="μ − 3σ"
    )
    series_played = models.PositiveIntegerField()
    won = models.PositiveIntegerField()
    drawn = models.PositiveIntegerField()
    lost = models.PositiveIntegerField()
    series_points = models.DecimalField(max_digits=10, decimal_places=1, help_text="Watch series points, in halves")
    game_wins = models.PositiveIntegerField()
    provisional = models.BooleanField(help_text="had played too few series for its rating to mean much")

    class Meta:
        ordering = ("season", "rank")
        constraints = (
            models.UniqueConstraint(fields=["season", "role", "rank"], name="final_standing_role_rank_unique"),
            models.UniqueConstraint(fields=["season", "version", "role"], name="final_standing_version_role_unique"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="final_standing_rank_positive"),
            models.CheckConstraint(condition=Q(sigma__gt=0), name="final_standing_sigma_positive"),
        )

    def __str__(self) -> str:
        return f"#{self.rank} in {self.season}: {self.version}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise FrozenStandingError(f"{self} is a final standing of a finished season and cannot change")
        super().save(*args, **kwargs)
