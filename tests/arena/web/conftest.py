"""Fixtures of the web pages' tests: users, and a Watch season with series really played and recorded.

Series are played by the match worker's own task in the sandbox (as
tests/arena/results/test_recording.py does through the matchmaker) and recorded
through arena.results.recording, so the pages see the real data shape: result
documents, seats, game records, ratings and their history. A played result
document is kept for the session, keyed by its spec, so later tests replay it
into a fresh database without running the bots again.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

REPO = Path(__file__).resolve().parents[3]
PACKAGES = REPO / "bots" / "watch" / "packages"
#: The Python starter kit: it writes to stderr after every game, so its log is never empty.
CHATTY_BOT = REPO / "bots" / "starter" / "watch-python"
PASSWORD = "correct horse battery"

_PLAYED: dict[str, dict[str, Any]] = {}


@pytest.fixture(autouse=True)
def fresh_rate_limits() -> Iterator[None]:
    """Start every test with nothing counted: the rate limits keep their counters in the cache."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def make_user(django_user_model: Any) -> Callable[..., Any]:
    def make(username: str, **fields: Any) -> Any:
        return django_user_model.objects.create_user(username, password=PASSWORD, **fields)

    return make


@pytest.fixture
def client_of() -> Callable[[Any], Client]:
    """Return a factory of browser clients logged in as a user (None: an anonymous visitor)."""

    def make(user: Any) -> Client:
        client = Client()
        if user is not None:
            client.force_login(user)
        return client

    return make


def play_series(season: Any, versions: list[Any], seed: int) -> Any:
    """Create a series of ``versions`` (seat order), play it in the sandbox, record it; return the series."""
    from arena.matchmaking.scheduling import series_spec
    from arena.results.recording import record_series_result
    from arena.series.models import Series, SeriesSeat
    from workers.chance import local_secret
    from workers.tasks import run_series_task

    series = Series.objects.create(season=season, seed=seed)
    for seat, version in enumerate(versions):
        SeriesSeat.objects.create(series=series, seat=seat, version=version)
    # The test's own fixed chance, so the games it needs are played every run (the platform
    # draws each series' chance from a secret: Series.chance_secret).
    spec = {**series_spec(series), "chance": local_secret(seed).hex()}
    key = json.dumps({**spec, "series_id": None, "seats": [s["sha256"] for s in spec["seats"]]}, sort_keys=True)
    if key not in _PLAYED:
        _PLAYED[key] = run_series_task(spec)["result"]
    record_series_result(series.pk, _PLAYED[key])
    series.refresh_from_db()
    return series


@pytest.fixture
def ladder(settings: Any, tmp_path: Path, make_user: Callable[..., Any]) -> dict[str, Any]:
    """A running Watch season: ann's chatty starter bot, bob's greedy and cy's random; three series recorded.

    Series: chatty v greedy, greedy v random, random v chatty.
    """
    from arena.bots.submissions import mark_validation_result, submit_version
    from arena.seasons.models import Season, SeasonEntry

    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    season = Season.objects.create(name="Web ladder", game="watch", games_per_series=2, decision_ms=5000)
    users = {name: make_user(name) for name in ("ann", "bob", "cy")}
    versions = {}
    for owner, bot, package in (
        ("ann", "chatty", CHATTY_BOT),
        ("bob", "greedy", PACKAGES / "greedy"),
        ("cy", "random", PACKAGES / "random"),
    ):
        version = submit_version(users[owner], bot, package)
        versions[bot] = mark_validation_result(version, True, "passed the validation series")
        SeasonEntry.objects.create(season=season, version=versions[bot])
    season.transition(Season.Status.RUNNING)
    series = [
        play_series(season, [versions["chatty"], versions["greedy"]], seed=11),
        play_series(season, [versions["greedy"], versions["random"]], seed=12),
        play_series(season, [versions["random"], versions["chatty"]], seed=13),
    ]
    return {"season": season, "users": users, "versions": versions, "series": series}


@pytest.fixture
def forfeited_series(ladder: dict[str, Any], tmp_path: Path) -> Any:
    """A recorded series in which dan's bot answers its first request with text that is not JSON: a forfeit."""
    from django.contrib.auth import get_user_model

    from arena.bots.submissions import mark_validation_result, submit_version
    from arena.seasons.models import SeasonEntry

    folder = tmp_path / "babbler"
    folder.mkdir()
    (folder / "bot.toml").write_text('name = "babbler"\nentry = "main.py"\ngames = ["watch"]\n')
    (folder / "main.py").write_text(
        "import sys\nfor line in sys.stdin:\n    if '\"request\"' in line:\n        print('I resign', flush=True)\n"
    )
    dan = get_user_model().objects.create_user("dan", password=PASSWORD)
    version = mark_validation_result(submit_version(dan, "babbler", folder), True, "passed")
    SeasonEntry.objects.create(season=ladder["season"], version=version)
    return play_series(ladder["season"], [ladder["versions"]["greedy"], version], seed=21)
