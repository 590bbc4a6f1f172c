"""Bots and their versions: a version is one uploaded archive, immutable once stored.

A new upload is a new :class:`BotVersion`, so a rating always belongs to
exactly the code that earned it. Only the status fields change after a
version is created; ``save()`` refuses anything else.
"""

from __future__ import annotations

import string
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import F, Func, Q, Value
from django.db.models.functions import Length
from django.db.models.lookups import Exact, Range

from arena.bots.artifacts import ARCHIVE_FORMATS, archive_key

#: A bot's name, as bot.toml's ``name`` (workers/botpkg.py NAME_PATTERN).
BOT_NAME_REGEX = r"^[A-Za-z0-9_-]{1,40}\Z"
SHA256_REGEX = r"^[0-9a-f]{64}\Z"
#: The characters of those two, for the database's CHECK constraints (:func:`only_characters`).
BOT_NAME_CHARACTERS = string.ascii_letters + string.digits + "_-"
SHA256_CHARACTERS = string.digits + "abcdef"


def only_characters(field: str, characters: str, shortest: int, longest: int) -> Q:
    """Return a CHECK condition: ``field`` holds ``shortest`` to ``longest`` characters, each one of ``characters``.

    The same meaning as a regular expression ``^[characters]{shortest,longest}$``,
    written with TRIM and LENGTH, which PostgreSQL and SQLite both have built in:
    Django's ``__regex`` needs a REGEXP function that only Django's own SQLite
    connections define, so the stock ``sqlite3`` tools could not check the
    embedded database (``PRAGMA integrity_check``). ``TRIM(x, chars)`` strips
    every character of ``chars`` from both ends of ``x`` (PostgreSQL's
    ``btrim``): nothing is left exactly when ``x`` holds only those characters,
    a NUL or a line break included in what is left.
    """
    stripped = Func(F(field), Value(characters), function="TRIM", output_field=models.CharField())
    return Q(Exact(stripped, Value(""))) & Q(Range(Length(field), (shortest, longest)))


class ImmutableVersionError(ValueError):
    """Something other than the status of a stored bot version was changed."""


class VersionStatus(models.TextChoices):
    VALIDATING = "validating", "validating"
    ACTIVE = "active", "active"
    FAILED_VALIDATION = "failed_validation", "failed validation"
    RETIRED = "retired", "retired"
    DISABLED = "disabled", "disabled"


class Bot(models.Model):
    """A named bot of one owner; its code lives in its versions."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="bots")
    name = models.CharField(
        max_length=40,
        validators=[RegexValidator(BOT_NAME_REGEX, "1-40 letters, digits, '-' or '_'")],
        help_text="1-40 letters, digits, '-' or '_'; unique among the owner's bots",
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("owner", "name")
        constraints = (
            models.UniqueConstraint(fields=["owner", "name"], name="bot_name_unique_per_owner"),
            models.CheckConstraint(condition=only_characters("name", BOT_NAME_CHARACTERS, 1, 40), name="bot_name_form"),
        )

    def __str__(self) -> str:
        return f"{self.owner.get_username()}/{self.name}"


class BotVersion(models.Model):
    """One uploaded archive of a bot: the entity that plays and is rated."""

    Status = VersionStatus

    #: The only fields that may change once a version is stored.
    MUTABLE_FIELDS = frozenset({"status", "status_reason"})
    #: The fields the uploaded archive fixes: its file and what its manifest says.
    ARCHIVE_FIELDS = ("archive_sha256", "archive_size", "archive_format", "manifest", "entry", "games")

    bot = models.ForeignKey(Bot, models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField(help_text="1 for the first upload of the bot, then 2, 3 ...")
    archive_sha256 = models.CharField(max_length=64, help_text="sha256 of the stored archive file")
    archive_size = models.PositiveBigIntegerField(help_text="bytes")
    archive_format = models.CharField(max_length=8, choices=[(f, f) for f in ARCHIVE_FORMATS])
    manifest = models.JSONField(help_text="bot.toml as validated: name, entry, games")
    entry = models.CharField(max_length=1024)
    games = models.JSONField(default=list, blank=True, help_text="games the manifest lists; empty: not stated")
    roles = models.JSONField(
        default=list, blank=True, help_text="roles the manifest lists for its team games; empty: every role"
    )
    uploaded_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.VALIDATING)
    status_reason = models.TextField(blank=True, help_text="shown to the owner")
    predecessor = models.ForeignKey(
        "self", models.PROTECT, null=True, blank=True, related_name="successors", help_text="the previous version"
    )

    class Meta:
        ordering = ("bot", "number")
        constraints = (
            models.UniqueConstraint(fields=["bot", "number"], name="bot_version_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="bot_version_number_positive"),
            models.CheckConstraint(
                condition=only_characters("archive_sha256", SHA256_CHARACTERS, 64, 64), name="bot_version_sha256_hex"
            ),
            models.CheckConstraint(condition=Q(archive_format__in=ARCHIVE_FORMATS), name="bot_version_archive_format"),
            models.CheckConstraint(condition=Q(status__in=VersionStatus.values), name="bot_version_status"),
        )
        indexes = (
            models.Index(fields=["archive_sha256"], name="bot_version_sha256"),
            models.Index(fields=["status", "bot"], name="bot_version_status_bot"),
        )

    def __str__(self) -> str:
        return f"{self.bot} v{self.number}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        update_fields = kwargs.get("update_fields")
        if not self._state.adding and (update_fields is None or not set(update_fields) <= self.MUTABLE_FIELDS):
            self._refuse_changes()
        super().save(*args, **kwargs)

    @property
    def archive_key(self) -> str:
        """Return where the archive sits in the artifact store: ``bots/<sha[:2]>/<sha>.<format>``."""
        return archive_key(self.archive_sha256, self.archive_format)

    def plays_role(self, role: str) -> bool:
        """Return True when this version plays ``role`` in its team games (its bot.toml lists none: every role)."""
        return not self.roles or role in self.roles

    def earlier_versions(self) -> Iterator[BotVersion]:
        """Yield the predecessor, its predecessor and so on, newest first (one query each)."""
        version = self.predecessor
        while version is not None:
            yield version
            version = version.predecessor

    def _refuse_changes(self) -> None:
        names = [
            f.attname for f in self._meta.concrete_fields if not f.primary_key and f.name not in self.MUTABLE_FIELDS
        ]
        stored = type(self).objects.filter(pk=self.pk).values(*names).first()
        if stored is None:
            return  # deleted meanwhile: saving inserts it again, as Django always does
        changed = [name for name in names if getattr(self, name) != stored[name]]
        if changed:
            raise ImmutableVersionError(
                f"{self.bot} v{stored['number']}: {', '.join(changed)} cannot change, "
                f"a stored bot version is immutable (only {', '.join(sorted(self.MUTABLE_FIELDS))} can); "
                "submit a new version instead"
            )


class ValidationRun(models.Model):
    """One validation series of a version in one game, kept whole so its owner can debug a failure.

    The result document as the referee wrote it (games, moves, forfeits, the
    bots' stderr); its page shows the games with their replays, and the
    version's stderr to its owner and staff only.
    """

    version = models.ForeignKey(BotVersion, models.CASCADE, related_name="validation_runs")
    game = models.CharField(max_length=40)
    role = models.CharField(max_length=20, blank=True, default="", help_text="a team game's role; empty: other games")
    passed = models.BooleanField()
    reason = models.TextField(help_text="the verdict in words, as the version's status reason gives it")
    result = models.JSONField(help_text="the validation series' result document")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("id",)

    def __str__(self) -> str:
        where = f"{self.game} as {self.role}" if self.role else self.game
        return f"validation of {self.version} in {where}: {'passed' if self.passed else 'failed'}"


class Notice(models.Model):
    """A message to a bot's owner about one of their versions (failed validation, disabled), shown on the site."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="notices")
    version = models.ForeignKey(BotVersion, models.CASCADE, related_name="notices", null=True, blank=True)
    subject = models.CharField(max_length=200)
    text = models.TextField()
    url = models.CharField(max_length=300, blank=True, help_text="the page that shows more, on this site")
    created = models.DateTimeField(auto_now_add=True)
    read = models.BooleanField(default=False)

    class Meta:
        ordering = ("-created", "-id")
        indexes = (models.Index(fields=["user", "read"], name="notice_user_read"),)

    def __str__(self) -> str:
        return f"to {self.user}: {self.subject}"
