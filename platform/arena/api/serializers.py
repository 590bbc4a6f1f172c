"""What the API returns: plain, read-only representations of the platform's rows.

Nothing here writes a model: uploads go through arena.bots.submissions and
tokens through arena.api.tokens, which hold the rules. Private fields (a
version's status reason) are shown to the owner and staff only; the
serializer asks :func:`can_see_private` with the request in its context.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from arena.api.models import ApiToken
from arena.bots.models import BotVersion, VersionStatus
from arena.ratings.models import Rating
from arena.seasons.models import RECORD_FIELDS, Season, SeasonStatus
from arena.series.models import GameRecord, Series, SeriesSeat, SeriesState
from arena.web.access import owns_or_staff, public_forfeit
from engines.result import Forfeit, SeriesResult


def can_see_private(request: Any, owner_id: int) -> bool:
    """Return whether the user of ``request`` may see what only a bot's owner and staff see."""
    user = getattr(request, "user", None)
    return bool(user is not None and user.is_authenticated and (user.is_staff or user.pk == owner_id))


def status_field(choices: type[models.TextChoices], description: str, *, enum: bool = True) -> serializers.Field:
    """Return a read-only field for a status; its schema lists the choices as an enum, or in words.

    ``enum=False`` for version statuses: drf-spectacular names enum components
    after the field, and seasons and versions both call theirs ``status``; two
    components of one name are a schema warning until SPECTACULAR_SETTINGS
    gets ENUM_NAME_OVERRIDES.
    """
    if enum:
        return serializers.ChoiceField(choices=choices.choices, read_only=True, help_text=description)
    return serializers.CharField(read_only=True, help_text=f"{description} (one of: {', '.join(choices.values)})")


def _at(path: str, name: str) -> str | None:
    """Return the source of attribute ``name`` read at ``path`` of the row; None (the field's own name) at the row."""
    return f"{path}.{name}" if path else None


def version_fields(
    path: str,
) -> tuple[
    serializers.IntegerField,
    serializers.CharField,
    serializers.IntegerField,
    serializers.CharField,
    serializers.IntegerField,
]:
    """Return a standings row's fields naming its version, read at ``path`` of the row.

    In order: version, bot, bot_id, owner, version_number.
    """
    return (
        serializers.IntegerField(source=f"{path}.pk"),
        serializers.CharField(source=f"{path}.bot.name"),
        serializers.IntegerField(source=f"{path}.bot_id"),
        serializers.CharField(source=f"{path}.bot.owner.username"),
        serializers.IntegerField(source=f"{path}.number"),
    )


def skill_fields(
    path: str,
) -> tuple[
    serializers.FloatField,
    serializers.FloatField,
    serializers.FloatField,
    serializers.BooleanField,
    serializers.IntegerField,
]:
    """Return a rated row's skill fields, read at ``path`` of the row ("" for the row itself).

    In order: conservative, mu, sigma, provisional, series_played.
    """
    return (
        serializers.FloatField(source=_at(path, "conservative"), help_text="μ − 3σ, what the ranking sorts by"),
        serializers.FloatField(source=_at(path, "mu")),
        serializers.FloatField(source=_at(path, "sigma")),
        serializers.BooleanField(source=_at(path, "provisional")),
        serializers.IntegerField(source=_at(path, "series_played")),
    )


class GameSerializer(serializers.Serializer):
    """A registered game, as its engine declares it (engines.base.GameInfo)."""

    name = serializers.CharField()
    title = serializers.CharField()
    rules_version = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    has_chance = serializers.BooleanField()
    has_hidden_information = serializers.BooleanField()
    max_game_length = serializers.IntegerField()
    num_distinct_actions = serializers.IntegerField()


class SeasonSerializer(serializers.ModelSerializer):
    status = status_field(SeasonStatus, "created, running, paused or finished")

    class Meta:
        model = Season
        fields = (
            "id",
            "name",
            "game",
            "rules_version",
            "config",
            "status",
            "decision_ms",
            "bank_ms",
            "increment_ms",
            "games_per_series",
            "players_per_series",
            "starts_at",
            "ends_at",
            "created",
        )
        read_only_fields = fields


class LeaderboardRowSerializer(serializers.Serializer):
    """One leaderboard line: a version's rating and series record in the season."""

    rank = serializers.IntegerField(help_text="1 for the best conservative rating μ − 3σ")
    version, bot, bot_id, owner, version_number = version_fields("version")
    conservative, mu, sigma, provisional, series_played = skill_fields("")
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    series_points = serializers.FloatField(help_text="series points (Watch: in halves)")
    game_wins = serializers.IntegerField()


class TeamRowSerializer(serializers.Serializer):
    """One line of a team game's leaderboard of one role: a version's rating in that role, and against the
    built-in GM its win rate with the Wilson 95 % interval and its mean turns to win."""

    rank = serializers.IntegerField(help_text="1 for the best conservative rating μ − 3σ in this role")
    role = serializers.CharField(source="rating.role", help_text="player or gm")
    version, bot, bot_id, owner, version_number = version_fields("rating.version")
    conservative, mu, sigma, provisional, series_played = skill_fields("rating")
    won = serializers.IntegerField(source="rating.won", help_text="series its side won (more games than the other)")
    drawn = serializers.IntegerField(source="rating.drawn")
    lost = serializers.IntegerField(source="rating.lost")
    game_wins = serializers.IntegerField(source="rating.game_wins", help_text="games its side won")
    games_played = serializers.IntegerField(source="rating.games_played")
    win_rate = serializers.FloatField(
        allow_null=True, help_text="against the built-in GM (a season without GM bots): games won / played"
    )
    low = serializers.FloatField(allow_null=True, help_text="the win rate's Wilson 95 % interval, low end")
    high = serializers.FloatField(allow_null=True, help_text="the win rate's Wilson 95 % interval, high end")
    turns_to_win = serializers.FloatField(allow_null=True, help_text="mean turns of the games its team won")

    def to_representation(self, instance: Any) -> dict[str, Any]:
        data = super().to_representation(instance)
        if instance.win_rate is None:
            data["low"] = data["high"] = None
        return data


class ScoreLadderRowSerializer(serializers.Serializer):
    """One line of a solo season's score ladder: a version's mean score over the season's deals, and its title."""

    rank = serializers.IntegerField(help_text="1 for the best mean score; equal means share a rank")
    version, bot, bot_id, owner, version_number = version_fields("version")
    series = serializers.IntegerField(source="series_id", help_text="the version's solo series")
    games = serializers.IntegerField(source="standing.games", help_text="the deals scored")
    mean = serializers.FloatField(source="standing.mean", help_text="mean score over the deals, what ranks")
    low = serializers.FloatField(
        source="standing.low", help_text="95 % interval of the mean, low end: mean − t(0.975, n − 1) · s / √n"
    )
    high = serializers.FloatField(source="standing.high", help_text="95 % interval of the mean, high end")
    best = serializers.FloatField(source="standing.best", help_text="the best deal's score")
    worst = serializers.FloatField(source="standing.worst", help_text="the worst deal's score")
    forfeits = serializers.IntegerField(source="standing.forfeits", help_text="games lost to a forfeit")
    title = serializers.CharField(source="standing.title", help_text="the title the mean earns; empty below them all")


VERSION_STATUS_HELP = "validating, then active (or failed_validation); retired when replaced; disabled by an operator"


class VersionSummarySerializer(serializers.ModelSerializer):
    status = status_field(VersionStatus, VERSION_STATUS_HELP, enum=False)

    class Meta:
        model = BotVersion
        fields = ("id", "number", "status", "uploaded_at")
        read_only_fields = fields


class BotSerializer(serializers.Serializer):
    """A bot and a summary of its versions, oldest first."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.CharField(source="owner.username")
    created = serializers.DateTimeField()
    versions = VersionSummarySerializer(many=True)


class VersionRatingSerializer(serializers.ModelSerializer):
    """A version's rating in one season."""

    season_name = serializers.CharField(source="season.name")
    game = serializers.CharField(source="season.game")
    series_points = serializers.FloatField()

    class Meta:
        model = Rating
        fields = (
            "season",
            "season_name",
            "game",
            "mu",
            "sigma",
            "conservative",
            "provisional",
            *RECORD_FIELDS,
            "forfeits",
        )
        read_only_fields = fields


class VersionSerializer(serializers.ModelSerializer):
    """An uploaded, immutable bot version; ``status_reason`` is shown to its owner and staff only."""

    bot_name = serializers.CharField(source="bot.name")
    owner = serializers.CharField(source="bot.owner.username")
    status = status_field(VersionStatus, VERSION_STATUS_HELP, enum=False)
    status_reason = serializers.SerializerMethodField()
    ratings = VersionRatingSerializer(many=True)

    class Meta:
        model = BotVersion
        fields = (
            "id",
            "bot",
            "bot_name",
            "owner",
            "number",
            "status",
            "status_reason",
            "uploaded_at",
            *BotVersion.ARCHIVE_FIELDS,
            "predecessor",
            "ratings",
        )
        read_only_fields = fields

    @extend_schema_field(
        serializers.CharField(allow_null=True, help_text="why the version has its status; null unless yours")
    )
    def get_status_reason(self, version: BotVersion) -> str | None:
        if can_see_private(self.context.get("request"), version.bot.owner_id):
            return version.status_reason
        return None


class UploadSerializer(serializers.Serializer):
    """A new version: the bot's name (created on its first version) and the package archive."""

    bot = serializers.CharField(max_length=40, help_text="your bot's name: 1-40 letters, digits, '-' or '_'")
    archive = serializers.FileField(help_text="the bot package as .zip or .tar.gz (docs/bot-package.md)")


class SeatSerializer(serializers.ModelSerializer):
    """A seat of a series: who played as series player ``seat``, and (once recorded) how it went."""

    bot = serializers.CharField(source="version.bot.name")
    bot_id = serializers.IntegerField(source="version.bot_id")
    owner = serializers.CharField(source="version.bot.owner.username")
    version_number = serializers.IntegerField(source="version.number")
    points = serializers.FloatField(allow_null=True, help_text="series points; null until recorded")

    class Meta:
        model = SeriesSeat
        fields = ("seat", "version", "bot", "bot_id", "owner", "version_number", "points", "game_wins", "rank")
        read_only_fields = fields


class SeriesSerializer(serializers.ModelSerializer):
    season_name = serializers.CharField(source="season.name")
    game = serializers.CharField(source="season.game")
    state = status_field(SeriesState, "queued, running, done, failed or cancelled (failure_reason says why)")
    seats = SeatSerializer(many=True)

    class Meta:
        model = Series
        fields = (
            "id",
            "season",
            "season_name",
            "game",
            "state",
            "created",
            "started_at",
            "finished_at",
            "failure_reason",
            "seats",
        )
        read_only_fields = fields


class GameRecordSerializer(serializers.ModelSerializer):
    """One game of a series: who won, how, each player's moves, and a forfeit if there was one.

    A forfeit's list of the legal moves, in a game with hidden information, is for the forfeiting
    bot's owner and staff (arena.web.access.public_forfeit).
    """

    number = serializers.SerializerMethodField()

    class Meta:
        model = GameRecord
        fields = ("index", "number", "winner", "reason", "moves", "forfeit")
        read_only_fields = fields

    def to_representation(self, instance: GameRecord) -> dict[str, Any]:
        body: dict[str, Any] = super().to_representation(instance)
        forfeit = Forfeit.from_json(instance.forfeit, "forfeit") if instance.forfeit else None
        if forfeit is not None:
            game_name = instance.series.season.game
            user = getattr(self.context.get("request"), "user", None)
            seat = (
                SeriesSeat.objects.select_related("version__bot")
                .filter(series_id=instance.series_id, seat=forfeit.player)
                .first()
            )
            full = seat is not None and owns_or_staff(user, seat.version.bot)
            body |= {"forfeit": public_forfeit(game_name, forfeit, full=full).to_json()}
        return body

    @extend_schema_field(OpenApiTypes.INT)
    def get_number(self, game: GameRecord) -> int:
        """Return the game's number as people count (1 for the first)."""
        return game.index + 1


class SeriesDetailSerializer(SeriesSerializer):
    """A series with its games and, once recorded, its score as the game's scoring scheme worked it out."""

    games = GameRecordSerializer(many=True)
    score = serializers.SerializerMethodField()

    class Meta(SeriesSerializer.Meta):
        fields = (*SeriesSerializer.Meta.fields, "games", "score")
        read_only_fields = fields

    @extend_schema_field(
        serializers.DictField(
            allow_null=True,
            help_text="the result document's score (points, game_wins, winner, forfeits, steps with 'player N' "
            "meaning seat N, and any totals of the game's own); null until recorded",
        )
    )
    def get_score(self, series: Series) -> dict[str, Any] | None:
        document = series.result
        return None if document is None else SeriesResult.from_json(document).score.to_json()


class LogSerializer(serializers.Serializer):
    """What one player's bot wrote to stderr during a series (capped by the referee)."""

    series = serializers.IntegerField()
    player = serializers.IntegerField()
    version = serializers.IntegerField()
    text = serializers.CharField(allow_blank=True)
    truncated_bytes = serializers.IntegerField(help_text="bytes dropped beyond the cap")


class TokenSerializer(serializers.ModelSerializer):
    active = serializers.BooleanField(source="is_active")

    class Meta:
        model = ApiToken
        fields = ("id", "name", "prefix", "created", "last_used", "revoked_at", "active")
        read_only_fields = fields


class TokenCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100, help_text="what you use it for, e.g. 'laptop' or 'CI'")


class NewTokenSerializer(TokenSerializer):
    """A token just created, with its key: the only time the key is shown."""

    key = serializers.CharField(help_text="send as 'Authorization: Bearer <key>'; shown once, store it now")

    class Meta(TokenSerializer.Meta):
        fields = (*TokenSerializer.Meta.fields, "key")
        read_only_fields = fields


class MeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    is_staff = serializers.BooleanField()
