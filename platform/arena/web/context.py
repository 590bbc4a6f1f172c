"""Template context for every page: how many unread notices the signed-in user has (asked only when shown)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject


def notices(request: HttpRequest) -> dict[str, Any]:
    """Return ``unread_notices``: a lazy count, so a page that does not show it costs no query."""

    def count() -> int:
        from arena.bots.models import Notice

        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return 0
        return Notice.objects.filter(user=user, read=False).count()

    return {"unread_notices": SimpleLazyObject(count)}
