"""A version that becomes active takes its predecessor's places: entered, seeded from its μ with σ reset."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from arena.bots.models import BotVersion
from arena.bots.submissions import mark_validation_result, submit_version
from arena.matchmaking.scheduling import schedule_round
from arena.ratings.models import Rating, RatingHistory
from arena.results.recording import recompute_season, season_parameters
from arena.seasons.models import Season, SeasonEntry

REPO = Path(__file__).resolve().parents[3]
PACKAGES = REPO / "bots" / "watch" / "packages"
Status = BotVersion.Status

pytestmark = pytest.mark.django_db


def activate(version: BotVersion, capture: Any) -> BotVersion:
    with capture(execute=True):  # version_activated is sent on commit
        return mark_validation_result(version, True, "passed")


def test_the_successor_is_entered_and_seeded_from_the_predecessors_mu(
    season: Season, make_version: Callable[..., Any], django_capture_on_commit_callbacks: Any
) -> None:
    season.transition(Season.Status.RUNNING)
    first = make_version("alpha")
    SeasonEntry.objects.create(season=season, version=first)
    Rating.objects.create(season=season, version=first, mu=31.5, sigma=2.5, series_played=12)
    second = make_version("alpha", status=Status.VALIDATING)

    activate(second, django_capture_on_commit_callbacks)

    default_sigma = season_parameters(season).sigma
    rating = Rating.objects.get(season=season, version=second)
    assert (rating.mu, rating.sigma, rating.series_played) == (31.5, default_sigma, 0)
    seed = RatingHistory.objects.get(season=season, version=second)
    assert (seed.series, seed.mu, seed.sigma) == (None, 31.5, default_sigma)
    assert SeasonEntry.objects.get(season=season, version=second).active
    assert not SeasonEntry.objects.get(season=season, version=first).active
    assert Rating.objects.get(season=season, version=first).mu == 31.5  # the predecessor keeps its record


def test_it_follows_the_predecessor_not_every_running_season(
    season: Season, make_version: Callable[..., Any], django_capture_on_commit_callbacks: Any
) -> None:
    other = Season.objects.create(name="Other", game="watch")
    other.transition(Season.Status.RUNNING)
    paused = season  # a paused season keeps its places for the successor
    paused.transition(Season.Status.RUNNING)
    paused.transition(Season.Status.PAUSED)
    first = make_version("alpha")
    SeasonEntry.objects.create(season=paused, version=first)
    second = make_version("alpha", status=Status.VALIDATING)

    activate(second, django_capture_on_commit_callbacks)

    assert list(SeasonEntry.objects.filter(version=second).values_list("season__name", "active")) == [
        (paused.name, True)
    ]
    # The predecessor had an entry but never played: nothing to seed, rating_for does it at the first series.
    assert not Rating.objects.filter(version=second).exists()


def test_a_first_version_joins_every_running_season_of_its_game(
    season: Season, make_version: Callable[..., Any], django_capture_on_commit_callbacks: Any
) -> None:
    season.transition(Season.Status.RUNNING)
    Season.objects.create(name="Not started", game="watch")
    version = make_version("alpha", status=Status.VALIDATING)

    activate(version, django_capture_on_commit_callbacks)

    assert list(SeasonEntry.objects.filter(version=version).values_list("season", flat=True)) == [season.pk]
    activate(version, django_capture_on_commit_callbacks)  # a repeated verdict sends nothing new
    assert SeasonEntry.objects.filter(version=version).count() == 1


def play_rounds(season: Season, rounds: int, capture: Any, rng: random.Random) -> None:
    for _ in range(rounds):
        with capture(execute=True):  # the series plays now, eagerly, and is recorded
            schedule_round(season, 1, rng=rng)


def test_a_recompute_reproduces_the_ratings_after_a_seeded_successor_played(
    settings: Any, tmp_path: Path, django_capture_on_commit_callbacks: Any
) -> None:
    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    users = get_user_model().objects
    season = Season.objects.create(name="Seeded ladder", game="watch", games_per_series=2, decision_ms=5000)
    season.transition(Season.Status.RUNNING)
    owners = {"ann": users.create_user("ann"), "bob": users.create_user("bob")}
    for owner, bot in (("ann", "greedy"), ("bob", "random")):
        activate(submit_version(owners[owner], bot, PACKAGES / bot), django_capture_on_commit_callbacks)
    rng = random.Random(11)
    play_rounds(season, 2, django_capture_on_commit_callbacks, rng)
    first = BotVersion.objects.get(bot__name="greedy", number=1)
    predecessor = Rating.objects.get(season=season, version=first)
    assert predecessor.series_played == 2

    second = activate(submit_version(owners["ann"], "greedy", PACKAGES / "greedy"), django_capture_on_commit_callbacks)
    seeded = Rating.objects.get(season=season, version=second)
    assert (seeded.mu, seeded.sigma) == (predecessor.mu, season_parameters(season).sigma)
    play_rounds(season, 2, django_capture_on_commit_callbacks, rng)

    stored = {r.version_id: (r.mu, r.sigma) for r in Rating.objects.filter(season=season)}
    assert Rating.objects.get(season=season, version=second).series_played == 2
    assert Rating.objects.get(season=season, version=first).series_played == 2  # retired: paired no more
    assert recompute_season(season) == stored
