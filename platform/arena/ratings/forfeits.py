"""Disable a version that forfeits too many of its series in a season.

A series counts as forfeited by a version when the version forfeited at least
one of its games (in the result document, a game whose ``forfeit.player`` is
the version's seat). Recording counts them on the version's :class:`Rating`
row (``forfeits`` of ``series_played``) as it applies each result, and judges
the rate only when it can cross the limit: after a forfeit, and on the series
that brings the version to the minimum count. The decision itself is
:func:`arena.matchmaking.pairing.should_disable`; a disabled version keeps its
ratings and history, loses its season entries (all of them: its code is the
same everywhere) and is paired no more. Only an ``active`` version is
disabled: a retired one no longer plays, and an operator's ``disabled`` stands.
"""

from __future__ import annotations

from typing import Any

from arena.bots import notices
from arena.bots.models import BotVersion
from arena.seasons.models import SeasonEntry

#: Disabled above this share of forfeited series ...
FORFEIT_THRESHOLD = 0.25
#: ... once it has played at least this many series in the season.
FORFEIT_MIN_SERIES = 10


def forfeit_by(game: dict[str, Any]) -> int | None:
    """Return the player who forfeited ``game`` (a game of a result document), or None."""
    forfeit = game.get("forfeit")
    return None if forfeit is None else forfeit.get("player")


def disable_for_forfeits(version_id: int, reason: str) -> bool:
    """Disable version ``version_id`` with ``reason`` if it is active; deactivate its entries; return whether it was."""
    updated = BotVersion.objects.filter(pk=version_id, status=BotVersion.Status.ACTIVE).update(
        status=BotVersion.Status.DISABLED, status_reason=reason
    )
    if updated:
        SeasonEntry.objects.filter(version_id=version_id, active=True).update(active=False)
        notices.version_disabled(BotVersion.objects.select_related("bot").get(pk=version_id), reason)
    return bool(updated)
