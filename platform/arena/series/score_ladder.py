"""A solo season's score ladder: each version's standing, computed from its recorded solo series.

A solo season (one player a series) keeps no ratings. A version's standing is
its done series' deal scores, which the referee wrote into the result
document's score (engines/score_ladder.py), summed up again here with the
game's current declaration: its mean, 95 % interval, best and worst deal,
forfeits and title. Only that part of each document is read. Versions rank by
mean score, best first; equal means share a rank.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.bots.models import BotVersion
from arena.seasons.models import Season
from arena.series.models import SeriesResultLog, SeriesSeat, SeriesState
from engines.result import Score, SeriesResult
from engines.score_ladder import ScoreLadder, Standing, standing


@dataclass(frozen=True)
class LadderRow:
    """One line of a score ladder: a version, its rank (1 for the best mean) and its standing."""

    rank: int
    version: BotVersion
    series_id: int
    standing: Standing


def ladder_of(season: Season) -> ScoreLadder:
    """Return the score ladder of a solo season's game; raise ValueError for a season that is not solo."""
    ladder = season.kind.ladder
    if ladder is None:
        raise ValueError(f"{season} is not a solo season of a game with a score ladder")
    return ladder


def ladder_rows(season: Season) -> list[LadderRow]:
    """Return the score ladder of solo ``season``: every version with a done series, best mean first.

    A version with more than one done series (a result that arrived after its
    series was played again) keeps its first.
    """
    ladder = ladder_of(season)
    scores = dict(
        SeriesResultLog.objects.filter(series__season=season, series__state=SeriesState.DONE).values_list(
            "series_id", "result__score"
        )
    )
    seats = (
        SeriesSeat.objects.filter(series_id__in=list(scores))
        .select_related("version__bot__owner")
        .order_by("series_id")
    )
    standings: dict[int, tuple[BotVersion, int, Standing]] = {}
    for seat in seats:
        stored = scores[seat.series_id]
        if seat.version_id in standings or not stored:
            continue
        found = standing_of_score(Score.from_json(stored), ladder)
        if found is not None:
            standings[seat.version_id] = (seat.version, seat.series_id, found)
    ordered = sorted(standings.values(), key=lambda row: (-row[2].mean, row[0].bot.name, row[0].number))
    rows: list[LadderRow] = []
    for place, (version, series_id, found) in enumerate(ordered, 1):
        rank = rows[-1].rank if rows and rows[-1].standing.mean == found.mean else place
        rows.append(LadderRow(rank=rank, version=version, series_id=series_id, standing=found))
    return rows


def standing_of_series(season: Season, result: SeriesResult) -> Standing | None:
    """Return the standing a solo series' result gives its player, or None when it has no deal scores."""
    return standing_of_score(result.score, ladder_of(season))


def standing_of_score(score: Score, ladder: ScoreLadder) -> Standing | None:
    """Return the standing a solo series' score gives on ``ladder``, or None when it has no deal scores."""
    deal_scores = score.detail("deal_scores")
    if not deal_scores:
        return None
    return standing([float(s) for s in deal_scores], ladder, int(score.detail("forfeits", 0)))
