"""A version that becomes active is entered into its seasons, then gets its solo series: in that order, always."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.apps import apps

from arena.bots import signals
from arena.bots.models import BotVersion
from arena.seasons.models import Season, SeasonEntry
from arena.series.models import Series, SeriesState

pytestmark = pytest.mark.django_db


@pytest.fixture
def solo_season(solo_game: Any) -> Season:
    season = Season.objects.create(name="Solo", game=solo_game.name, players_per_series=1, games_per_series=20)
    season.transition(Season.Status.RUNNING)
    return season


@pytest.fixture
def arena_apps_ready_in_reverse() -> Iterator[None]:
    """Connect the arena apps' receivers again as if INSTALLED_APPS listed the apps the other way round."""
    signal = signals.version_activated
    saved = list(signal.receivers)
    signal.receivers = []
    signal.sender_receivers_cache.clear()
    try:
        for config in reversed([c for c in apps.get_app_configs() if c.name.startswith("arena.")]):
            config.ready()
        yield
    finally:
        signal.receivers = saved
        signal.sender_receivers_cache.clear()


def activate(make_version: Callable[..., Any], game: str) -> BotVersion:
    version = make_version("lone", games=[game], manifest={"name": "lone", "entry": "main.py", "games": [game]})
    signals.version_activated.send(sender=BotVersion, version=version, retired=[])
    return version


def test_it_enters_a_new_version_and_queues_its_solo_series(
    solo_season: Season, solo_game: Any, make_version: Callable[..., Any]
) -> None:
    version = activate(make_version, solo_game.name)

    assert SeasonEntry.objects.get(season=solo_season, version=version).active
    (series,) = Series.objects.filter(season=solo_season, seats__version=version)
    assert series.state == SeriesState.QUEUED


def test_the_order_holds_whatever_order_the_apps_are_listed_in(
    solo_season: Season, solo_game: Any, make_version: Callable[..., Any], arena_apps_ready_in_reverse: None
) -> None:
    version = activate(make_version, solo_game.name)

    assert SeasonEntry.objects.get(season=solo_season, version=version).active
    (series,) = Series.objects.filter(season=solo_season, seats__version=version)
    assert series.state == SeriesState.QUEUED
