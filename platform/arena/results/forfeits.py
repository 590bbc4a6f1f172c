"""Disable a version that forfeits too many of its series in a season.

A series counts as forfeited by a version when the version forfeited at least
one of its games (in the result document, a game whose ``forfeit.player`` is
the version's seat). Recording counts them on the version's :class:`Rating`
row (``forfeits`` of ``series_played``) as it applies each result, and judges
the rate only when it can cross the limit: after a forfeit, and on the series
that brings the version to the minimum count. The decision itself is
:func:`should_disable`; a disabled version keeps its
ratings and history, loses its season entries (all of them: its code is the
same everywhere) and is paired no more. Only an ``active`` version is
disabled: a retired one no longer plays, and an operator's ``disabled`` stands.
"""

from __future__ import annotations

from arena.bots import notices
from arena.bots.models import BotVersion
from arena.seasons.models import SeasonEntry
from engines.result import GameRecord

#: Disabled above this share of forfeited series ...
FORFEIT_THRESHOLD = 0.25
#: ... once it has played at least this many series in the season.
FORFEIT_MIN_SERIES = 10


def forfeit_by(game: GameRecord) -> int | None:
    """Return the series player who forfeited ``game``, or None."""
    return None if game.forfeit is None else game.forfeit.player


def disable_for_forfeits(version_id: int, reason: str) -> bool:
    """Disable version ``version_id`` with ``reason`` if it is active; deactivate its entries; return whether it was."""
    updated = BotVersion.objects.filter(pk=version_id, status=BotVersion.Status.ACTIVE).update(
        status=BotVersion.Status.DISABLED, status_reason=reason
    )
    if updated:
        SeasonEntry.objects.filter(version_id=version_id, active=True).update(active=False)
        notices.version_disabled(BotVersion.objects.select_related("bot").get(pk=version_id), reason)
    return bool(updated)


def should_disable(forfeits: int, series: int, threshold: float, min_series: int) -> str | None:
    """Return the reason shown to the owner when a version forfeits too often, or None to keep it.

    A version is judged once it has ``min_series`` finished series, and disabled
    when the share of them it forfeited is above ``threshold``, a fraction
    (0.25 is 25%).
    """
    if series < 0 or forfeits < 0:
        raise ValueError(f"forfeits and series must be zero or more, got {forfeits} of {series}")
    if forfeits > series:
        raise ValueError(f"forfeits cannot exceed series, got {forfeits} of {series}")
    if not 0 <= threshold <= 1:
        raise ValueError(f"threshold must be a fraction from 0 to 1, got {threshold}")
    if min_series < 1:
        raise ValueError(f"min_series must be at least 1, got {min_series}")
    if series < min_series:
        return None
    rate = forfeits / series
    if rate <= threshold:
        return None
    # As many decimals as it takes for the rate not to read the same as the limit it passed.
    decimals = 0
    while decimals < 6 and _percent(rate, decimals) == _percent(threshold, decimals):
        decimals += 1
    return (
        f"disabled: forfeited {forfeits} of {series} series ({_percent(rate, decimals)}), "
        f"above the season's limit of {_percent(threshold, decimals)}"
    )


def _percent(fraction: float, decimals: int) -> str:
    text = f"{fraction * 100:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text + "%"
