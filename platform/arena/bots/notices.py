"""Tell a bot's owner when a version fails validation or is disabled: a notice on the site and an e-mail.

The e-mail goes through Django's mail framework: the console backend by
default (the embedded default prints it), SMTP when ``ARENA_EMAIL_HOST`` is
set (docs/operations.md). An owner without an e-mail address gets the notice
only. Both are sent once the change that caused them commits; a mail server
that fails is logged, never the end of the recording or the request that
disabled the version.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse

from arena.bots.models import BotVersion, Notice

logger = logging.getLogger(__name__)


def notify_owner(version: BotVersion, subject: str, text: str, url: str = "") -> None:
    """Leave ``version``'s owner a notice and send them an e-mail, once the current transaction commits."""
    transaction.on_commit(lambda: _send(version.pk, subject, text, url))


def _send(version_id: int, subject: str, text: str, url: str) -> None:
    version = BotVersion.objects.select_related("bot__owner").get(pk=version_id)
    owner = version.bot.owner
    Notice.objects.create(user=owner, version=version, subject=subject[:200], text=text, url=url)
    if not owner.email:
        return
    link = f"\n\n{settings.ARENA_SITE_URL.rstrip('/')}{url}" if url else ""
    try:
        send_mail(subject, f"{text}{link}\n", None, [owner.email])
    except Exception:  # a mail server's failure must not undo or fail what caused the notice
        logger.exception("could not e-mail %s about %s", owner.get_username(), version)


def validation_failed(version: BotVersion, reason: str) -> None:
    """Tell the owner ``version`` failed its validation series, and why."""
    _tell(
        version,
        "failed its validation series",
        f"did not pass its validation series, so it plays in no season: {reason}",
        "bot-version-validation",
    )


def version_disabled(version: BotVersion, reason: str) -> None:
    """Tell the owner ``version`` was disabled, and why."""
    _tell(version, "was disabled", f"was disabled and plays no more series: {reason}", "bot-version-forfeits")


def _tell(version: BotVersion, subject: str, text: str, page: str) -> None:
    """Notify ``version``'s owner: "<bot> v<n> <subject>", "<bot> v<n> <text>", linking the version's ``page``."""
    name = f"{version.bot.name} v{version.number}"
    notify_owner(version, f"{name} {subject}", f"{name} {text}", reverse(page, args=[version.bot_id, version.number]))
