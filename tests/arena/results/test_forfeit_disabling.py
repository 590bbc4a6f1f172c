"""A version that forfeits more than a quarter of its series, once it has played ten, is disabled."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from arena.bots.models import BotVersion
from arena.ratings.models import Rating
from arena.results.recording import record_series_result
from arena.seasons.models import Season, SeasonEntry
from arena.series.models import Series, SeriesState
from tests.results import result_document

Status = BotVersion.Status

pytestmark = pytest.mark.django_db


def result(versions: list[BotVersion], forfeit_by: int | None) -> dict[str, Any]:
    """A Watch result document: seat 0 wins both games, or ``forfeit_by`` forfeits the first."""
    games = []
    for index in range(2 if forfeit_by is None else 1):
        forfeit = None
        winners = [0]
        reason = "checkmate"
        if forfeit_by is not None:
            forfeit = {"player": forfeit_by, "seat": 0, "reason": "illegal_action", "detail": "not legal"}
            winners, reason = [1 - forfeit_by], "illegal_action"
        games.append(
            {
                "index": index,
                "seats": [index % 2, 1 - index % 2],
                "winners": winners,
                "reason": reason,
                "forfeit": forfeit,
                "stats": {"0": {"moves": 10}, "1": {"moves": 10}},
            }
        )
    winner = 0 if forfeit_by is None else 1 - forfeit_by
    points = [2.0, 0.0] if winner == 0 else [0.0, 2.0]
    return result_document(
        players=[{"name": v.bot.name, "sha256": v.archive_sha256} for v in versions],
        games=games,
        score={"winner": winner, "points": points, "game_wins": [int(p) for p in points]},
    )


@pytest.fixture
def pair(season: Season, make_version: Callable[..., Any]) -> list[BotVersion]:
    season.transition(Season.Status.RUNNING)
    versions = [make_version("alpha"), make_version("beta")]
    for version in versions:
        SeasonEntry.objects.create(season=season, version=version)
    return versions


def forfeit_counts(season: Season, version: BotVersion) -> tuple[int, int]:
    """(forfeited, played) series of ``version`` in ``season``, as its rating row counts them."""
    return Rating.objects.values_list("forfeits", "series_played").get(season=season, version=version)


def play(season: Season, versions: list[BotVersion], forfeit_by: int | None, swap: bool = False) -> None:
    """Record one series; with ``swap`` the versions sit the other way round (forfeit_by is a seat)."""
    seated = versions[::-1] if swap else versions
    series = Series.objects.create(season=season, seed=1, state=SeriesState.RUNNING)
    for seat, version in enumerate(seated):
        series.seats.create(seat=seat, version=version)
    assert record_series_result(series.pk, result(seated, forfeit_by))


def test_below_the_minimum_series_nothing_happens(season: Season, pair: list[BotVersion]) -> None:
    alpha, _ = pair
    for _ in range(9):
        play(season, pair, forfeit_by=0)  # alpha forfeits every one
    assert forfeit_counts(season, alpha) == (9, 9)
    alpha.refresh_from_db()
    assert alpha.status == Status.ACTIVE


def test_it_counts_forfeits_by_the_versions_own_seat(season: Season, pair: list[BotVersion]) -> None:
    alpha, beta = pair
    play(season, pair, forfeit_by=0)  # alpha in seat 0 forfeits
    play(season, pair, forfeit_by=1)  # beta in seat 1 forfeits
    play(season, pair, forfeit_by=0, swap=True)  # beta in seat 0 forfeits
    play(season, pair, forfeit_by=None, swap=True)
    assert forfeit_counts(season, alpha) == (1, 4)
    assert forfeit_counts(season, beta) == (2, 4)


def test_above_the_threshold_the_version_is_disabled_and_its_entries_deactivated(
    season: Season, pair: list[BotVersion]
) -> None:
    alpha, beta = pair
    other = Season.objects.create(name="Other", game="watch")
    SeasonEntry.objects.create(season=other, version=alpha)
    for _ in range(7):
        play(season, pair, forfeit_by=None)
    for _ in range(2):
        play(season, pair, forfeit_by=0)
    alpha.refresh_from_db()
    assert alpha.status == Status.ACTIVE  # 2 of 9: still too few series to judge
    play(season, pair, forfeit_by=0)  # 3 of 10: 30%

    alpha.refresh_from_db()
    assert alpha.status == Status.DISABLED
    assert alpha.status_reason.startswith("disabled: forfeited 3 of 10 series (30%), above the season's limit of 25%")
    assert not SeasonEntry.objects.filter(version=alpha, active=True).exists()
    beta.refresh_from_db()
    assert beta.status == Status.ACTIVE
    assert SeasonEntry.objects.get(season=season, version=beta).active


def test_reaching_the_minimum_with_a_clean_series_still_disables_a_frequent_forfeiter(
    season: Season, pair: list[BotVersion]
) -> None:
    # The check runs after a forfeit, and on the series that reaches the minimum count.
    alpha, _ = pair
    for forfeit_by in [0] * 5 + [None] * 4:
        play(season, pair, forfeit_by=forfeit_by)
    alpha.refresh_from_db()
    assert alpha.status == Status.ACTIVE  # 5 of 9: too few series to judge
    play(season, pair, forfeit_by=None)  # 5 of 10, with no forfeit in this one
    alpha.refresh_from_db()
    assert alpha.status == Status.DISABLED
    assert alpha.status_reason.startswith("disabled: forfeited 5 of 10 series (50%)")


def test_at_the_threshold_it_is_kept(season: Season, pair: list[BotVersion]) -> None:
    alpha, _ = pair
    for forfeit_by in [None] * 9 + [0] * 3:
        play(season, pair, forfeit_by=forfeit_by)  # at most 25% once judged: 1 of 10 ... 3 of 12
    alpha.refresh_from_db()
    assert alpha.status == Status.ACTIVE


def test_a_retired_or_operator_disabled_version_is_left_alone(season: Season, pair: list[BotVersion]) -> None:
    alpha, _ = pair
    for _ in range(10):
        play(season, pair, forfeit_by=0)
    alpha.refresh_from_db()
    assert alpha.status == Status.DISABLED
    alpha.status_reason = "operator: disabled by hand"
    alpha.save(update_fields=["status_reason"])
    play(season, pair, forfeit_by=0)  # a series already queued still records, and forfeits again
    alpha.refresh_from_db()
    assert alpha.status_reason == "operator: disabled by hand"


def test_the_count_matches_the_result_documents(season: Season, pair: list[BotVersion]) -> None:
    from arena.series.models import SeriesResultLog

    play(season, pair, forfeit_by=0)
    play(season, pair, forfeit_by=1)
    play(season, pair, forfeit_by=0, swap=True)
    play(season, pair, forfeit_by=None)
    from_documents = []
    for version in pair:
        forfeited = 0
        for log in SeriesResultLog.objects.filter(series__season=season, series__seats__version=version):
            seat = log.series.seats.get(version=version).seat
            forfeited += any(game["forfeit"] and game["forfeit"]["player"] == seat for game in log.result["games"])
        from_documents.append((forfeited, 4))
    assert [forfeit_counts(season, version) for version in pair] == from_documents == [(1, 4), (2, 4)]
