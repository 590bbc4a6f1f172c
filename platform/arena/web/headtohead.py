"""A bot's record against each opponent bot, per season, and how sure that record is.

Read from SeriesSeat (rank and points are filled in when a series is
recorded), never from result documents, so a bot with thousands of series
costs one query. Who did better in a series is decided by rank (0 is best,
ties share a rank), or by points when no rank was recorded; with more than two
players every other seat counts as one pairing.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from arena.bots.models import Bot
from arena.ratings.models import Rating
from arena.ratings.recording import season_parameters
from arena.seasons.models import Season
from arena.series.models import SeriesSeat, SeriesState
from arena.web.stats import wilson_interval, win_probability


@dataclass
class Record:
    """The bot's series against one opponent bot in one season."""

    season_id: int
    opponent_id: int
    opponent: str
    owner: str
    won: int = 0
    drawn: int = 0
    lost: int = 0
    # Two-player series only: the Wilson interval is about one opponent at a time.
    duel_won: int = 0
    duel_drawn: int = 0
    duel_series: int = 0
    win_probability: float | None = None
    interval: tuple[float, float] | None = None
    rated_as: str = ""
    rated_against: str = ""

    @property
    def series(self) -> int:
        return self.won + self.drawn + self.lost

    @property
    def score_share(self) -> float | None:
        """Return (won + drawn/2) / series over the two-player series, or None without any."""
        if not self.duel_series:
            return None
        return (self.duel_won + self.duel_drawn / 2) / self.duel_series


@dataclass
class SeasonRecords:
    season: Season
    beta: float
    records: list[Record] = field(default_factory=list)
    hidden: int = 0  # opponents left out of ``records`` (the least played)


def compare(mine: dict[str, Any], theirs: dict[str, Any]) -> int | None:
    """Return 1 if my seat did better, 0 level, -1 worse, or None when the series has no ranks or points yet."""
    if mine["rank"] is not None and theirs["rank"] is not None:
        a, b = -mine["rank"], -theirs["rank"]
    elif mine["points"] is not None and theirs["points"] is not None:
        a, b = Decimal(mine["points"]), Decimal(theirs["points"])
    else:
        return None
    return (a > b) - (a < b)


def head_to_head(bot: Bot, limit: int | None = None) -> list[SeasonRecords]:
    """Return the bot's records against its opponent bots, grouped by season, newest season first.

    With ``limit``, each season keeps its ``limit`` most played opponents (by name
    among equals) and counts the others in ``hidden``: a long season meets hundreds.
    """
    seats = (
        SeriesSeat.objects.filter(
            series__in=SeriesSeat.objects.filter(version__bot=bot).values("series_id"), series__state=SeriesState.DONE
        )
        .values(
            "series_id",
            "series__season_id",
            "version__bot_id",
            "version__bot__name",
            "version__bot__owner__username",
            "points",
            "rank",
        )
        .order_by("series_id", "seat")
    )
    by_series: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for seat in seats:
        by_series[seat["series_id"]].append(seat)
    records: dict[tuple[int, int], Record] = {}
    for series_seats in by_series.values():
        mine = [s for s in series_seats if s["version__bot_id"] == bot.pk]
        if len(mine) != 1:
            continue  # a bot never plays itself; two versions of one bot in a series would be
        duel = len(series_seats) == 2
        for theirs in series_seats:
            if theirs is mine[0]:
                continue
            result = compare(mine[0], theirs)
            if result is None:
                continue
            key = (theirs["series__season_id"], theirs["version__bot_id"])
            record = records.get(key)
            if record is None:
                record = records[key] = Record(
                    season_id=key[0],
                    opponent_id=key[1],
                    opponent=theirs["version__bot__name"],
                    owner=theirs["version__bot__owner__username"],
                )
            if result > 0:
                record.won += 1
            elif result == 0:
                record.drawn += 1
            else:
                record.lost += 1
            if duel:
                record.duel_series += 1
                record.duel_won += result > 0
                record.duel_drawn += result == 0
    hidden: dict[int, int] = defaultdict(int)
    if limit is not None:
        by_season: dict[int, list[tuple[int, int]]] = defaultdict(list)
        for key in records:
            by_season[key[0]].append(key)
        for season_id, keys in by_season.items():
            keys.sort(key=lambda k: (-records[k].series, records[k].opponent.lower()))
            for key in keys[limit:]:
                del records[key]
                hidden[season_id] += 1
    groups = _with_ratings(bot, records)
    for group in groups:
        group.hidden = hidden[group.season.pk]
    return groups


def _with_ratings(bot: Bot, records: dict[tuple[int, int], Record]) -> list[SeasonRecords]:
    """Attach the win probability from current ratings (each bot's newest rated version) and the Wilson interval."""
    if not records:
        return []
    season_ids = {season_id for season_id, _ in records}
    bot_ids = {opponent for _, opponent in records} | {bot.pk}
    current: dict[tuple[int, int], dict[str, Any]] = {}
    for rating in (
        Rating.objects.filter(season_id__in=season_ids, version__bot_id__in=bot_ids)
        .values("season_id", "version__bot_id", "version__number", "mu", "sigma")
        .order_by("version__number")
    ):
        current[(rating["season_id"], rating["version__bot_id"])] = rating  # the newest version wins
    grouped = {
        season.pk: SeasonRecords(season=season, beta=season_parameters(season).beta)
        for season in Season.objects.filter(pk__in=season_ids).order_by("-created")
    }
    for (season_id, opponent_id), record in sorted(records.items(), key=lambda item: item[1].opponent.lower()):
        group = grouped[season_id]
        mine, theirs = current.get((season_id, bot.pk)), current.get((season_id, opponent_id))
        if mine is not None and theirs is not None:
            record.win_probability = win_probability(
                mine["mu"], mine["sigma"], theirs["mu"], theirs["sigma"], group.beta
            )
            record.rated_as = f"v{mine['version__number']}"
            record.rated_against = f"v{theirs['version__number']}"
        if record.duel_series:
            record.interval = wilson_interval(record.duel_won + record.duel_drawn / 2, record.duel_series)
        group.records.append(record)
    return list(grouped.values())
