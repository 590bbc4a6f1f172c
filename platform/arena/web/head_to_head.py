"""A bot's record against each opponent bot, per season, and how sure that record is: the bot page's head-to-head.

The sums are arena.series.head_to_head's (the seats of done series, summed
per season, bot and opponent, with the series not summed yet counted from
their seats); this module adds the win probability from the current ratings
and the Wilson interval. Never read from result documents, so a bot with
thousands of series costs one query over a few rows. Who did better in a
series is decided by rank (0 is best, ties share a rank), or by points when
no rank was recorded; with more than two players every other seat counts as
one pairing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arena.bots.models import Bot
from arena.ratings.models import Rating
from arena.results.recording import season_parameters
from arena.seasons.models import Season
from arena.series.head_to_head import records_of
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


def head_to_head(bot: Bot, limit: int | None = None) -> list[SeasonRecords]:
    """Return the bot's records against its opponent bots, grouped by season, newest season first.

    With ``limit``, each season keeps its ``limit`` most played opponents (the
    longest registered among equals) and counts the others in ``hidden``: a long
    season meets hundreds.
    A series with two versions of the bot in it counts for neither.
    """
    records: dict[tuple[int, int], Record] = {}
    hidden: dict[int, int] = {}
    for row in records_of(bot.pk, limit):
        sums = row._asdict()
        opponents = sums.pop("opponents")
        records[(row.season_id, row.opponent_id)] = Record(**sums)
        hidden[row.season_id] = opponents - (limit if limit is not None else opponents)
    groups = _with_ratings(bot, records)
    for group in groups:
        group.hidden = max(hidden[group.season.pk], 0)
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
