"""Disable a version that forfeits too many of its series in a season.

A series counts as forfeited by a version when the version forfeited at least
one of its games: in the series' :class:`SeriesResultLog` document, a game
whose ``forfeit.player`` is the version's seat. The decision itself is
:func:`arena.matchmaking.pairing.should_disable`; a disabled version keeps its
ratings and history, loses its season entries (all of them: its code is the
same everywhere) and is paired no more. Only an ``active`` version is
disabled: a retired one no longer plays, and an operator's ``disabled`` stands.
"""

from __future__ import annotations

from typing import Any

from django.db import connection

from arena.bots.models import BotVersion
from arena.matchmaking.pairing import should_disable
from arena.seasons.models import Season, SeasonEntry
from arena.series.models import SeriesSeat

#: Disabled above this share of forfeited series ...
FORFEIT_THRESHOLD = 0.25
#: ... once it has played at least this many series in the season.
FORFEIT_MIN_SERIES = 10


def forfeit_counts(season: Season, version: BotVersion) -> tuple[int, int]:
    """Return (forfeited, recorded) series of ``version`` in ``season``, from the series' result logs."""
    seats = SeriesSeat.objects.filter(series__season=season, version=version, series__result_log__isnull=False)
    recorded = seats.count()
    if connection.vendor != "postgresql":  # SQLite (the embedded demo) has no jsonb containment: read the documents
        documents = seats.values_list("seat", "series__result_log__result")
        forfeited = sum(any(forfeit_by(game) == seat for game in result["games"]) for seat, result in documents)
        return forfeited, recorded
    forfeited = 0
    for seat in seats.values_list("seat", flat=True).distinct().order_by():
        # jsonb containment, in the database: some game of the document has a forfeit by this seat.
        forfeited += seats.filter(
            seat=seat, series__result_log__result__games__contains=[{"forfeit": {"player": seat}}]
        ).count()
    return forfeited, recorded


def forfeit_by(game: dict[str, Any]) -> int | None:
    """Return the player who forfeited ``game`` (a game of a result document), or None."""
    forfeit = game.get("forfeit")
    return None if forfeit is None else forfeit.get("player")


def check_forfeit_rate(
    season: Season,
    version: BotVersion,
    threshold: float = FORFEIT_THRESHOLD,
    min_series: int = FORFEIT_MIN_SERIES,
) -> str | None:
    """Disable ``version`` if it forfeits too often in ``season``; return the reason when it did, else None.

    Call it inside the transaction that recorded the version's latest series.
    """
    forfeited, recorded = forfeit_counts(season, version)
    reason = should_disable(forfeited, recorded, threshold=threshold, min_series=min_series)
    if reason is None:
        return None
    current = BotVersion.objects.select_for_update().get(pk=version.pk)
    if current.status != BotVersion.Status.ACTIVE:
        return None
    current.status = BotVersion.Status.DISABLED
    current.status_reason = f"{reason} in {season.name}"
    current.save(update_fields=["status", "status_reason"])
    version.status, version.status_reason = current.status, current.status_reason
    SeasonEntry.objects.filter(version=current, active=True).update(active=False)
    return current.status_reason
