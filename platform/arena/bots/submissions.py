"""Submitting a bot version, and recording the outcome of its validation.

:func:`submit_version` checks the package with the same code a match worker
uses (workers.botpkg) before anything is stored: a refused package leaves no
row and no file. An accepted one is stored in the artifact store under its
sha256 and becomes the bot's next version, in status ``validating``, until
the task pipeline reports its validation series through
:func:`mark_validation_result`.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from datetime import timedelta
from pathlib import Path

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from arena.bots import notices, signals
from arena.bots.artifacts import pack_directory, store_archive
from arena.bots.models import BOT_NAME_REGEX, Bot, BotVersion
from workers.bot_text import quote
from workers.botpkg import MAX_ARCHIVE_BYTES, BotPackage, BotPackageError, archive_kind, load_bot_package

Status = BotVersion.Status


class SubmissionError(ValueError):
    """A submission that was refused; the message says what is wrong and how to fix it."""


class ValidationResultError(ValueError):
    """A validation result that contradicts the one already recorded for the version."""


def submit_version(owner: AbstractBaseUser, bot_name: str, archive_path: Path | str) -> BotVersion:
    """Validate and store the bot package at ``archive_path`` as the next version of ``owner``'s bot ``bot_name``.

    ``archive_path`` is a bot directory, .zip or .tar.gz (docs/bot-package.md);
    a directory is stored as a deterministic .tar.gz of its contents. The bot
    is created on its first version. Raises :class:`SubmissionError`, having
    stored nothing, when the package or the names are unusable.
    """
    if not re.fullmatch(BOT_NAME_REGEX, bot_name):
        raise SubmissionError(
            f"bot name {quote(bot_name)} is not 1-40 letters, digits, '-' or '_'; choose one like my-bot"
        )
    if not owner.is_active:
        raise SubmissionError(f"user {owner.get_username()!r} is inactive and cannot submit bots")
    source = Path(archive_path)
    with tempfile.TemporaryDirectory(prefix="arena-submission-") as scratch_name:
        scratch = Path(scratch_name)
        try:
            archive, package = _checked_archive(source, scratch)
        except BotPackageError as exc:
            raise SubmissionError(str(exc)) from exc
        with transaction.atomic():
            bot, _ = Bot.objects.get_or_create(owner=owner, name=bot_name)
            bot = Bot.objects.select_for_update().get(pk=bot.pk)  # numbers versions one at a time
            previous = bot.versions.order_by("-number").first()
            version = BotVersion.objects.create(
                bot=bot,
                number=previous.number + 1 if previous else 1,
                archive_sha256=package.sha256,
                archive_size=archive.stat().st_size,
                archive_format=archive_kind(archive),
                manifest={
                    "name": package.name,
                    "entry": package.entry,
                    "games": list(package.games),
                    **({"roles": list(package.roles)} if package.roles else {}),
                },
                entry=package.entry,
                games=list(package.games),
                roles=list(package.roles),
                status=Status.VALIDATING,
                predecessor=previous,
            )
            # Last inside the transaction: a failure here rolls the rows back, and a
            # file stored by a transaction that then fails is only an unreferenced copy.
            try:
                store_archive(archive, package.sha256, version.archive_format)
            except BotPackageError as exc:
                raise SubmissionError(str(exc)) from exc
            transaction.on_commit(lambda: signals.version_submitted.send(sender=BotVersion, version=version))
    return version


def _checked_archive(source: Path, scratch: Path) -> tuple[Path, BotPackage]:
    """Return a private copy of the archive to store, and its package as a match worker would load it."""
    if source.is_file() and source.stat().st_size <= MAX_ARCHIVE_BYTES:
        # Checked and stored from one private copy: the bytes stored are the bytes checked.
        archive = scratch / "upload" / source.name
        archive.parent.mkdir()
        shutil.copyfile(source, archive)
        return archive, load_bot_package(archive, scratch / "unpacked")
    # A directory, or something refused with a message naming what the user gave.
    package = load_bot_package(source, scratch / "unpacked")
    if not source.is_dir():
        raise BotPackageError(f"{source.name} changed while it was being checked; submit it again")
    archive = pack_directory(source, scratch / f"{package.name}.tar.gz")
    return archive, load_bot_package(archive, scratch / "unpacked")


def versions_awaiting_validation(uploaded_before: timedelta = timedelta(0)) -> QuerySet[BotVersion]:
    """Return the versions still in ``validating`` that were uploaded at least ``uploaded_before`` ago, oldest first.

    The ``version_submitted`` signal starts a validation once; a periodic sweep
    over this catches a version whose start was lost (a broker that was down).
    """
    cutoff = timezone.now() - uploaded_before
    return BotVersion.objects.filter(status=Status.VALIDATING, uploaded_at__lte=cutoff).order_by("uploaded_at", "pk")


def mark_validation_result(version: BotVersion, ok: bool, reason: str) -> BotVersion:
    """Record the outcome of ``version``'s validation series and return the version as stored.

    Passed: the version becomes ``active`` and the bot's earlier active version
    (its predecessor, normally) ``retired``; a version that passes after a newer
    one became active is retired at once. Failed: ``failed_validation`` with
    ``reason``, which the owner sees. Safe to call twice with the same verdict
    (a repeated task changes nothing); an operator's ``disabled`` stands.
    Raises :class:`ValidationResultError` for a verdict that contradicts the
    recorded one.
    """
    if not ok and not reason.strip():
        raise ValueError("a failed validation needs a reason the owner can act on")
    retired: list[BotVersion] = []
    with transaction.atomic():
        Bot.objects.select_for_update().get(pk=version.bot_id)  # serialises the activations of one bot
        current = BotVersion.objects.select_for_update().get(pk=version.pk)
        if current.status != Status.VALIDATING:
            repeat = Status.ACTIVE, Status.RETIRED, Status.DISABLED
            if (ok and current.status in repeat) or (
                not ok and current.status in (Status.FAILED_VALIDATION, Status.DISABLED)
            ):
                return current
            raise ValidationResultError(
                f"{current} is {current.get_status_display()}, so it cannot be marked "
                f"{'active' if ok else 'failed validation'}: its validation result is already recorded"
            )
        if not ok:
            current.status, current.status_reason = Status.FAILED_VALIDATION, reason
            notices.validation_failed(current, reason)
        elif current.bot.versions.filter(number__gt=current.number, status=Status.ACTIVE).exists():
            current.status = Status.RETIRED
            current.status_reason = f"passed validation after a newer version became active ({reason})"
        else:
            current.status, current.status_reason = Status.ACTIVE, reason
            for earlier in current.bot.versions.filter(number__lt=current.number, status=Status.ACTIVE):
                earlier.status, earlier.status_reason = Status.RETIRED, f"replaced by version {current.number}"
                earlier.save(update_fields=["status", "status_reason"])
                retired.append(earlier)
        current.save(update_fields=["status", "status_reason"])
        if current.status == Status.ACTIVE:
            transaction.on_commit(
                lambda: signals.version_activated.send(sender=BotVersion, version=current, retired=retired)
            )
    return current
