"""Who may see what: a bot's private parts (archives, stderr, status reasons) and the public document."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser

from arena.bots.models import Bot

#: Keys of a result document that only a seat's owner and staff may see.
PRIVATE_KEYS = ("stderr",)


def owns_or_staff(user: AbstractBaseUser | AnonymousUser, bot: Bot) -> bool:
    """Return whether ``user`` may see ``bot``'s private parts: its owner or a staff member."""
    if not user.is_authenticated:
        return False
    return bool(user.is_staff) or bot.owner_id == user.pk


def public_document(document: dict[str, Any]) -> dict[str, Any]:
    """Return the result document without the bots' stderr, for anything public (pages, downloads)."""
    return {key: value for key, value in document.items() if key not in PRIVATE_KEYS}
