"""Fixtures of the API tests: clients with tokens, and a season with real recorded series."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

REPO = Path(__file__).resolve().parents[3]
PACKAGES = REPO / "bots" / "watch" / "packages"
#: The Python starter kit: it writes a line to stderr after every game, so its log is never empty.
CHATTY_BOT = REPO / "bots" / "starter" / "watch-python"


@pytest.fixture(autouse=True)
def fresh_throttles() -> Iterator[None]:
    """Start every test with no upload counted: DRF keeps its throttle history in the cache."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def make_user(django_user_model: Any) -> Callable[..., Any]:
    def make(username: str, **fields: Any) -> Any:
        return django_user_model.objects.create_user(username, password="correct horse battery", **fields)

    return make


@pytest.fixture
def owner(make_user: Callable[..., Any]) -> Any:
    return make_user("owner")


@pytest.fixture
def other(make_user: Callable[..., Any]) -> Any:
    return make_user("mallory")


@pytest.fixture
def staff(make_user: Callable[..., Any]) -> Any:
    return make_user("operator", is_staff=True)


@pytest.fixture
def client_for() -> Callable[[Any], APIClient]:
    """Return a factory of API clients authenticated with a fresh real token of a user (None: anonymous)."""
    from arena.api.tokens import issue_token

    def make(user: Any) -> APIClient:
        client = APIClient()
        if user is not None:
            _, key = issue_token(user, "tests")
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
        return client

    return make


def _play_round(season: Any, capture: Callable[..., Any], seed: int = 5) -> list[Any]:
    """Schedule one round of ``season`` and play it now, in the sandbox, as test_recording.py does."""
    from arena.matchmaking.scheduling import schedule_round

    with capture(execute=True):
        played = schedule_round(season, 1, rng=random.Random(seed))
    for series in played:
        series.refresh_from_db()
    return played


@pytest.fixture
def recorded_season(
    settings: Any, tmp_path: Path, owner: Any, other: Any, django_capture_on_commit_callbacks: Any
) -> Any:
    """A running Watch season where owner's chatty starter bot played other's greedy bot: one series, recorded."""
    from arena.bots.submissions import mark_validation_result, submit_version
    from arena.seasons.models import Season, SeasonEntry

    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    season = Season.objects.create(name="API ladder", game="watch", games_per_series=2, decision_ms=5000)
    for user, name, package in ((owner, "chatty", CHATTY_BOT), (other, "greedy", PACKAGES / "greedy")):
        version = submit_version(user, name, package)
        mark_validation_result(version, True, "passed the validation series")
        SeasonEntry.objects.create(season=season, version=version)
    season.transition(Season.Status.RUNNING)
    (series,) = _play_round(season, django_capture_on_commit_callbacks)
    assert series.state == "done", series.failure_reason
    return season


@pytest.fixture
def series(recorded_season: Any) -> Any:
    """The recorded series of ``recorded_season``."""
    return recorded_season.series.get()


@pytest.fixture
def seat_of() -> Callable[[Any, str], int]:
    """Return a function giving the seat (series player index) a user's bot played in a series."""

    def seat(series: Any, username: str) -> int:
        return series.seats.get(version__bot__owner__username=username).seat

    return seat
