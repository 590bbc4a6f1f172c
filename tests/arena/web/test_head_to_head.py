"""The bot page's head-to-head table: how each series counts against each opponent bot, read from the seats."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from arena.series import head_to_head as sums
from arena.series.models import PairRecord, Series, SeriesSeat, SeriesState
from arena.web.head_to_head import head_to_head

pytestmark = pytest.mark.django_db


def series_of(season: Any, *seats: tuple[Any, int | None, str | None], state: str = SeriesState.DONE) -> Series:
    """A series of ``season`` whose seats are (version, rank, points)."""
    series = Series.objects.create(season=season, seed=1, state=state)
    for number, (version, rank, points) in enumerate(seats):
        SeriesSeat.objects.create(
            series=series, seat=number, version=version, rank=rank, points=None if points is None else Decimal(points)
        )
    return series


def read(bot: Any, limit: int | None = None) -> dict[str, tuple[int, ...]]:
    found = {}
    for group in head_to_head(bot, limit=limit):
        for record in group.records:
            found[record.opponent] = (
                record.won, record.drawn, record.lost, record.duel_series, record.duel_won, record.duel_drawn,
            )  # fmt: skip
    return found


def table(bot: Any, limit: int | None = None) -> dict[str, tuple[int, ...]]:
    """Opponent name -> (won, drawn, lost, duel series, duel won, duel drawn), over every season.

    The same before the series are folded into the pair records, after one of them is, and
    after all are: the page is exact whatever the beat has done.
    """
    before = read(bot, limit)
    sums.fold(limit=1)
    assert read(bot, limit) == before
    sums.fold_all()
    assert read(bot, limit) == before
    assert not Series.objects.filter(state=SeriesState.DONE, folded=False).exists()
    return before


def test_ranks_decide_and_points_count_when_a_series_has_no_ranks(field: list[Any], running: Any) -> None:
    ann, bob, cy, _ = field
    series_of(running, (ann, 0, "2"), (bob, 1, "0"))  # won on rank
    series_of(running, (bob, 0, "2"), (ann, 1, "0"))  # lost on rank
    series_of(running, (ann, 0, "1"), (bob, 0, "1"))  # drawn: a shared rank
    series_of(running, (ann, None, "1.5"), (bob, None, "0.5"))  # no ranks: points decide, won
    series_of(running, (ann, None, "1"), (cy, None, "1"))  # no ranks, equal points: drawn
    series_of(running, (ann, None, None), (cy, None, None))  # neither: not counted
    assert table(ann.bot) == {"bob": (2, 1, 1, 4, 2, 1), "cy": (0, 1, 0, 1, 0, 1)}
    assert table(bob.bot) == {"ann": (1, 1, 2, 4, 1, 1)}


def test_only_done_series_count(field: list[Any], running: Any) -> None:
    ann, bob, _, _ = field
    for state in (SeriesState.QUEUED, SeriesState.RUNNING, SeriesState.FAILED):
        series_of(running, (ann, 0, "2"), (bob, 1, "0"), state=state)
    assert table(ann.bot) == {}
    series_of(running, (ann, 0, "2"), (bob, 1, "0"))
    assert table(ann.bot) == {"bob": (1, 0, 0, 1, 1, 0)}


def test_in_a_series_of_more_players_every_other_seat_is_a_pairing_but_not_a_duel(
    field: list[Any], running: Any
) -> None:
    ann, bob, cy, dee = field
    series_of(running, (bob, 0, "3"), (ann, 1, "2"), (cy, 1, "2"), (dee, 3, "0"))
    assert table(ann.bot) == {"bob": (0, 0, 1, 0, 0, 0), "cy": (0, 1, 0, 0, 0, 0), "dee": (1, 0, 0, 0, 0, 0)}


def test_every_version_of_a_bot_counts_as_the_bot_and_a_series_of_two_of_its_versions_does_not(
    field: list[Any], running: Any, make_version: Any
) -> None:
    ann, bob, _, _ = field
    ann2 = make_version("ann", owner=ann.bot.owner)
    bob2 = make_version("bob", owner=bob.bot.owner)
    series_of(running, (ann, 0, "2"), (bob, 1, "0"))
    series_of(running, (ann2, 1, "0"), (bob2, 0, "2"))
    series_of(running, (ann, 0, "2"), (ann2, 1, "0"))  # a bot against itself: no opponent
    series_of(running, (ann, 0, "2"), (ann2, 1, "1"), (bob, 2, "0"))  # two of its versions in one series
    assert table(ann.bot) == {"bob": (1, 0, 1, 2, 1, 0)}


def test_seasons_are_kept_apart_and_the_limit_keeps_the_most_played(
    field: list[Any], running: Any, make_version: Any, django_user_model: Any
) -> None:
    from arena.seasons.models import Season

    ann, bob, cy, dee = field
    other = Season.objects.create(name="Autumn", game="watch", games_per_series=2)
    series_of(other, (ann, 0, "2"), (bob, 1, "0"))
    for _ in range(3):
        series_of(running, (ann, 1, "0"), (cy, 0, "2"))
    series_of(running, (ann, 0, "2"), (dee, 1, "0"))
    series_of(running, (ann, 0, "2"), (bob, 1, "0"))
    groups = head_to_head(ann.bot, limit=2)
    by_season = {group.season.name: group for group in groups}
    assert [group.season.name for group in groups] == ["Autumn", "Spring"]  # newest season first
    assert [(r.opponent, r.series) for r in by_season["Autumn"].records] == [("bob", 1)]
    assert by_season["Autumn"].hidden == 0
    # The two most played of three, the longest registered among equals (bob before dee), listed by name.
    assert [(r.opponent, r.series) for r in by_season["Spring"].records] == [("bob", 1), ("cy", 3)]
    assert by_season["Spring"].hidden == 1
    assert by_season["Spring"].records[1].owner == "cy"


def test_a_fold_counts_each_series_once_and_a_series_done_later_is_counted_until_folded(
    field: list[Any], running: Any
) -> None:
    ann, bob, _, _ = field
    series_of(running, (ann, 0, "2"), (bob, 1, "0"))
    series_of(running, (ann, 0, "2"), (bob, 1, "0"), state=SeriesState.RUNNING)
    assert sums.fold_all() == 1
    assert sums.fold_all() == 0  # nothing twice
    assert PairRecord.objects.get(bot=ann.bot, opponent=bob.bot).won == 1
    assert PairRecord.objects.get(bot=bob.bot, opponent=ann.bot).lost == 1
    late = Series.objects.get(state=SeriesState.RUNNING)
    late.state = SeriesState.DONE
    late.save()
    assert read(ann.bot) == {"bob": (2, 0, 0, 2, 2, 0)}  # one folded, one from its seats
    assert sums.fold_all() == 1
    assert read(ann.bot) == {"bob": (2, 0, 0, 2, 2, 0)}
    assert PairRecord.objects.get(bot=ann.bot, opponent=bob.bot).won == 2


def test_the_beat_folds_done_series(field: list[Any], running: Any) -> None:
    from django.conf import settings

    from arena.ops.tasks import fold_pair_records_task

    ann, bob, _, _ = field
    series_of(running, (ann, 0, "2"), (bob, 1, "0"))
    assert settings.CELERY_BEAT_SCHEDULE["fold-pair-records"]["task"] == fold_pair_records_task.name
    assert fold_pair_records_task.apply().get() == 1
    assert Series.objects.get().folded
