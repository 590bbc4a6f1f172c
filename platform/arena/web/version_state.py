"""A version's state in words for its bot page: what it is doing now and what comes next."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.conf import settings
from django.db.models import Count

from arena.bots.models import BotVersion
from arena.seasons.models import Season, SeasonEntry
from arena.series.models import SeriesSeat, SeriesState

Status = BotVersion.Status
#: States whose sentence needs no series counted (see _sentences).
QUIET = (Status.VALIDATING, Status.FAILED_VALIDATION, Status.DISABLED, Status.RETIRED)


def version_states(versions: list[BotVersion]) -> dict[int, list[str]]:
    """Return, per version id, sentences saying what the version is doing: seasons, series queued, last played.

    Two queries for all the versions of a page, and one more for each that plays: none of them
    reads every series of a version, which a long ladder spreads over its whole table.
    """
    ids = [version.pk for version in versions]
    seasons: dict[int, list[str]] = defaultdict(list)
    for version_id, name in (
        SeasonEntry.objects.filter(version_id__in=ids, active=True, season__status=Season.Status.RUNNING)
        .order_by("season__name")
        .values_list("version_id", "season__name")
    ):
        seasons[version_id].append(name)
    # Only a version that plays has series to count: a retired one's (often most of them) are not read.
    playing = [version.pk for version in versions if version.status not in QUIET]
    load: dict[int, dict[str, Any]] = {version_id: {} for version_id in playing}
    # From the few queued and running series (their own index), not from the version's many.
    for version_id, waiting in (
        SeriesSeat.objects.filter(version_id__in=playing, series__state__in=[SeriesState.QUEUED, SeriesState.RUNNING])
        .values("version_id")
        .annotate(waiting=Count("pk"))
        .values_list("version_id", "waiting")
    ):
        load[version_id]["waiting"] = waiting
    for version_id in playing:
        # Its newest done series, walking its series newest first: series finish in about the order
        # they start, and the page shows the minute.
        load[version_id]["last"] = (
            SeriesSeat.objects.filter(version_id=version_id, series__state=SeriesState.DONE)
            .order_by("-series_id")
            .values_list("series__finished_at", flat=True)
            .first()
        )
    return {version.pk: _sentences(version, seasons[version.pk], load.get(version.pk, {})) for version in versions}


def _sentences(version: BotVersion, seasons: list[str], load: dict[str, Any]) -> list[str]:
    if version.status == Status.VALIDATING:
        return ["Playing its validation series against the reference bot; it enters seasons once it passes."]
    if version.status == Status.FAILED_VALIDATION:
        return ["Failed its validation series, so it plays in no season: the validation page shows why."]
    if version.status == Status.DISABLED:
        return [f"Disabled: {version.status_reason or 'by staff'}. It plays no more series."]
    if version.status == Status.RETIRED:
        return ["Retired: a newer version plays in its place."]
    lines = []
    if seasons:
        lines.append(f"Active in {_join(seasons)}.")
    else:
        lines.append("Active, but in no running season of its game yet.")
    waiting = load.get("waiting", 0)
    if waiting:
        lines.append(f"{waiting} series queued or being played now.")
    elif seasons:
        lines.append(
            f"Next series expected at the matchmaker's next round (every {settings.ARENA_MATCHMAKER_INTERVAL_S} s)."
        )
    last = load.get("last")
    lines.append(f"Last series finished {last:%Y-%m-%d %H:%M} UTC." if last else "No series finished yet.")
    return lines


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
