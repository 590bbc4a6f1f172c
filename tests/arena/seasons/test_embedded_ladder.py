"""The embedded ladder (arena.embedded): the beat's schedule and a worker pool in-process, no broker.

Each test runs a real pool on a season of the reference bots (validated in the
sandbox) and real sandboxed series, against the test database.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from arena import embedded
from arena.bots.models import BotVersion
from arena.ratings.models import Rating
from arena.seasons.models import Season
from arena.series.models import Series, SeriesSeat, SeriesState
from tests.arena.e2e.conftest import PlayedSeason, start_reference_season

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def season(settings, tmp_path: Path) -> PlayedSeason:
    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    return start_reference_season("watch")


@pytest.fixture
def ladder() -> Iterator[Callable[..., embedded.EmbeddedLadder]]:
    """Return a function starting an embedded ladder; every ladder started is stopped after the test."""
    started: list[embedded.EmbeddedLadder] = []

    def start(workers: int = 2, schedule: dict | None = None) -> embedded.EmbeddedLadder:
        pool = embedded.EmbeddedLadder(workers, schedule={} if schedule is None else schedule)
        pool.start()
        started.append(pool)
        return pool

    yield start
    for pool in started:
        pool.stop(120)


def queued_series(season: Season, versions: list[BotVersion]) -> Series:
    """A series queued as the matchmaker queues one, but never sent: what a stop leaves behind."""
    series = Series.objects.create(season=season, seed=11, deadline=timezone.now() + timedelta(minutes=30))
    for seat, version in enumerate(versions):
        SeriesSeat.objects.create(series=series, seat=seat, version=version)
    return series


def wait_until(condition: Callable[[], bool], what: str, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"waited {timeout_s:.0f} s for {what}"
        time.sleep(0.1)


def state(series: Series) -> str:
    series.refresh_from_db()
    return series.state


def test_a_start_plays_and_records_the_series_an_earlier_stop_left_queued(season: PlayedSeason, ladder) -> None:
    left = [queued_series(season.season, season.versions[:2]), queued_series(season.season, season.versions[1:])]
    ladder()
    wait_until(lambda: all(state(series) == SeriesState.DONE for series in left), "the queued series")
    assert sum(rating.series_played for rating in Rating.objects.filter(season=season.season)) == 4


def test_a_stop_lets_the_series_being_played_finish_and_leaves_the_rest_queued(season: PlayedSeason, ladder) -> None:
    from arena.matchmaking.scheduling import enqueue

    Season.objects.filter(pk=season.season.pk).update(games_per_series=20)  # long enough to stop in the middle
    season.season.refresh_from_db()
    pool = ladder(workers=1)
    playing = queued_series(season.season, season.versions[:2])
    waiting = queued_series(season.season, season.versions[1:])
    enqueue(playing)
    enqueue(waiting)
    wait_until(lambda: pool.busy == 1, "the pool to start a series")
    assert pool.stop(120) is True
    assert state(playing) == SeriesState.DONE  # the series being played was finished and recorded
    assert state(waiting) == SeriesState.QUEUED  # the one waiting stays queued for the next start
    assert len(Series.objects.get(pk=playing.pk).result["games"]) == 20


def test_the_beat_matchmakes_by_itself(season: PlayedSeason, ladder) -> None:
    schedule = {"matchmake": {"task": "arena.matchmake", "schedule": 0.2, "kwargs": {"slots_per_season": 1}}}
    ladder(schedule=schedule)
    wait_until(
        lambda: Series.objects.filter(season=season.season, state=SeriesState.DONE).count() >= 3,
        "three series matchmade and played with nothing else done",
    )


def test_an_upload_while_the_ladder_runs_is_validated_by_the_pool(season: PlayedSeason, ladder, tmp_path) -> None:
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from arena.bots.submissions import submit_version
    from tests.arena.e2e.conftest import REFERENCE_PACKAGES

    pool = ladder()
    owner = get_user_model().objects.create_user("erin")
    with transaction.atomic():
        version = submit_version(owner, "erins-bot", REFERENCE_PACKAGES / "random")
    assert pool.done == 0 or version.status == BotVersion.Status.VALIDATING  # queued, not played in this thread
    wait_until(lambda: BotVersion.objects.get(pk=version.pk).status == BotVersion.Status.ACTIVE, "the validation")


def test_a_second_ladder_in_one_process_is_refused(ladder) -> None:
    ladder()
    with pytest.raises(RuntimeError, match="already runs in this process"):
        embedded.EmbeddedLadder(1, schedule={}).start()


def test_a_schedule_naming_an_unknown_task_is_refused() -> None:
    with pytest.raises(RuntimeError, match=r"names no known task 'arena\.nothing'"):
        embedded.EmbeddedLadder(1, schedule={"x": {"task": "arena.nothing", "schedule": 1}}).start()
