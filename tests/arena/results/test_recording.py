"""From the matchmaker to the ratings: series queued, run in the sandbox, recorded exactly once, recomputable.

Celery runs eagerly here (no broker, the embedded default): the same tasks
and the same chain as production, in this process, on real PostgreSQL.
"""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from arena.bots.submissions import mark_validation_result, submit_version
from arena.matchmaking.scheduling import MAX_ATTEMPTS, schedule_round, sweep_overdue
from arena.ratings.models import Rating, RatingHistory
from arena.results.recording import recompute_season, record_series_result
from arena.seasons.models import Season, SeasonEntry
from arena.series.models import GameRecord, Series, SeriesResultLog, SeriesState

REPO = Path(__file__).resolve().parents[3]
PACKAGES = REPO / "bots" / "watch" / "packages"

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(settings, tmp_path: Path) -> Season:
    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    users = get_user_model().objects
    season = Season.objects.create(name="Test ladder", game="watch", games_per_series=2, decision_ms=5000)
    for owner, bot in (("ann", "greedy"), ("bob", "random"), ("cy", "solver")):
        version = submit_version(users.create_user(owner), bot, PACKAGES / bot)
        mark_validation_result(version, True, "")
        SeasonEntry.objects.create(season=season, version=version)
    season.transition(Season.Status.RUNNING)
    return season


def play_rounds(season: Season, rounds: int, capture) -> list[Series]:
    played = []
    rng = random.Random(5)
    for _ in range(rounds):
        with capture(execute=True):  # run the on-commit enqueue, eagerly: the series plays now
            played += schedule_round(season, 1, rng=rng)
    return played


def test_it_plays_and_records_a_queued_series_with_ratings_and_history(
    season: Season, django_capture_on_commit_callbacks
) -> None:
    (series,) = play_rounds(season, 1, django_capture_on_commit_callbacks)
    series.refresh_from_db()
    assert series.state == SeriesState.DONE
    assert series.result["sandbox"] == "bwrap"
    assert GameRecord.objects.filter(series=series).count() == 2
    seats = [seat.version for seat in series.seats.order_by("seat")]
    ratings = {r.version: r for r in Rating.objects.filter(season=season)}
    assert set(ratings) == set(seats)
    points = series.result["score"]["points"]
    for index, version in enumerate(seats):
        assert ratings[version].series_played == 1
        assert float(ratings[version].series_points) == points[index]
        assert ratings[version].provisional
    assert RatingHistory.objects.filter(season=season, series=None).count() == 2  # the seeds
    assert RatingHistory.objects.filter(season=season, series=series).count() == 2


def test_a_duplicate_delivery_changes_nothing(season: Season, django_capture_on_commit_callbacks) -> None:
    (series,) = play_rounds(season, 1, django_capture_on_commit_callbacks)
    series.refresh_from_db()
    before = list(Rating.objects.filter(season=season).values_list("version_id", "mu", "sigma", "series_played"))
    assert record_series_result(series.pk, series.result) is False
    after = list(Rating.objects.filter(season=season).values_list("version_id", "mu", "sigma", "series_played"))
    assert after == before
    assert SeriesResultLog.objects.filter(series=series).count() == 1
    assert GameRecord.objects.filter(series=series).count() == 2


def test_a_recompute_from_the_log_lands_on_the_stored_ratings(
    season: Season, django_capture_on_commit_callbacks
) -> None:
    played = play_rounds(season, 4, django_capture_on_commit_callbacks)
    assert len(played) == 4
    stored = {r.version_id: (r.mu, r.sigma) for r in Rating.objects.filter(season=season)}
    assert recompute_season(season) == stored  # exactly: the same arithmetic in the same order


def test_it_refuses_a_result_from_other_bots(season: Season, django_capture_on_commit_callbacks) -> None:
    (series,) = play_rounds(season, 1, django_capture_on_commit_callbacks)
    series.refresh_from_db()
    fresh = Series.objects.create(season=season, seed=1)
    for seat in series.seats.all():
        fresh.seats.create(seat=seat.seat, version=seat.version)
    forged = {**series.result, "players": [{"name": "x", "sha256": "0" * 64}, {"name": "y", "sha256": "1" * 64}]}
    ratings = list(Rating.objects.order_by("pk").values_list("mu", "sigma", "series_played"))
    assert record_series_result(fresh.pk, forged)  # delivered: taken off the queue, never retried
    fresh.refresh_from_db()
    assert fresh.state == SeriesState.FAILED
    assert fresh.failure_reason.startswith(f"result rejected: series {fresh.pk}: seat 0 ran 0000")
    assert not SeriesResultLog.objects.filter(series=fresh).exists()
    assert list(Rating.objects.order_by("pk").values_list("mu", "sigma", "series_played")) == ratings


def test_the_sweeper_requeues_an_overdue_series_then_fails_it(season: Season) -> None:
    stuck = Series.objects.create(
        season=season, seed=3, state=SeriesState.RUNNING, deadline=timezone.now() - timedelta(minutes=1)
    )
    stuck.attempts = MAX_ATTEMPTS - 2
    stuck.save()
    later = timezone.now() + timedelta(hours=1)
    # Requeued once (its enqueue waits for a commit that this test never makes) ...
    assert sweep_overdue() == (1, 0)
    stuck.refresh_from_db()
    assert stuck.state == SeriesState.QUEUED
    # ... and when it is overdue again with its attempts used up, it fails.
    assert sweep_overdue(now=later) == (0, 1)
    stuck.refresh_from_db()
    assert stuck.state == SeriesState.FAILED
    assert stuck.finished_at == later
    assert stuck.failure_reason == f"not done after {MAX_ATTEMPTS} attempts (a 0:30:00 deadline each)"


def test_a_paused_season_gets_no_new_series(season: Season, django_capture_on_commit_callbacks) -> None:
    season.transition(Season.Status.PAUSED)
    assert play_rounds(season, 1, django_capture_on_commit_callbacks) == []
