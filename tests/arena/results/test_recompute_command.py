"""``manage.py recompute_ratings``: the stored ratings equal a replay of the result log, or it says which do not."""

from __future__ import annotations

import random
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from arena.bots.submissions import mark_validation_result, submit_version
from arena.matchmaking.scheduling import schedule_round
from arena.ratings.models import Rating
from arena.seasons.models import Season, SeasonEntry

PACKAGES = Path(__file__).resolve().parents[3] / "bots" / "watch" / "packages"

pytestmark = pytest.mark.django_db


@pytest.fixture
def played_season(settings, tmp_path: Path, django_capture_on_commit_callbacks) -> Season:
    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    season = Season.objects.create(name="Recompute ladder", game="watch", games_per_series=2, decision_ms=5000)
    for owner, bot in (("ann", "greedy"), ("bob", "random")):
        version = submit_version(get_user_model().objects.create_user(owner), bot, PACKAGES / bot)
        mark_validation_result(version, True, "")
        SeasonEntry.objects.get_or_create(season=season, version=version)
    season.transition(Season.Status.RUNNING)
    rng = random.Random(3)
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            schedule_round(season, 1, rng=rng)
    return season


def test_it_confirms_stored_ratings_equal_the_recompute(played_season: Season) -> None:
    out = StringIO()
    call_command("recompute_ratings", played_season.name, stdout=out)
    assert "Recompute ladder: all 2 ratings equal the recompute of the result log" in out.getvalue()


def test_it_names_a_rating_that_differs(played_season: Season) -> None:
    Rating.objects.filter(season=played_season).update(mu=99.0)
    out = StringIO()
    with pytest.raises(CommandError, match="2 of 2 ratings differ from the recompute"):
        call_command("recompute_ratings", str(played_season.pk), stdout=out)
    assert "recomputed μ" in out.getvalue()


def test_it_refuses_an_unknown_season() -> None:
    with pytest.raises(CommandError, match="no season named 'Nope'"):
        call_command("recompute_ratings", "Nope")
