"""Fixtures of the operators' tests: logged-in clients, a two-bot season, result documents."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from arena.bots.models import BotVersion
from arena.seasons.models import Season, SeasonEntry
from arena.series.models import Series, SeriesState
from tests import results


@pytest.fixture
def member_client(django_user_model: Any) -> Client:
    """A client logged in as a registered user who is not staff."""
    client = Client()
    client.force_login(django_user_model.objects.create_user("mallory", password="pw"))
    return client


@pytest.fixture
def running_season(season: Season) -> Season:
    season.transition(Season.Status.RUNNING)
    return season


@pytest.fixture
def pair(running_season: Season, make_version: Callable[..., Any]) -> list[BotVersion]:
    """Two active versions of different bots, entered in the running season."""
    versions = [make_version("alpha"), make_version("beta")]
    for version in versions:
        SeasonEntry.objects.create(season=running_season, version=version)
    return versions


@pytest.fixture
def make_series(running_season: Season) -> Callable[..., Series]:
    """Return a factory of series seating ``versions`` in order: ``make_series(versions, state="failed")``."""

    def make(versions: list[BotVersion], state: str = SeriesState.QUEUED, season: Season | None = None) -> Series:
        series = Series.objects.create(season=season or running_season, seed=11, state=state)
        for seat, version in enumerate(versions):
            series.seats.create(seat=seat, version=version)
        return series

    return make


def watch_result(versions: list[BotVersion], winner: int | None = 0) -> dict[str, Any]:
    """Return a two-game Watch result document in which seat ``winner`` wins both games (None: one each)."""
    games = []
    for index in range(2):
        game_winner = (index % 2) if winner is None else winner
        games.append(
            {
                "index": index,
                "seats": [index % 2, 1 - index % 2],
                "actions": [],
                "winners": [game_winner],
                "reason": "capture",
                "forfeit": None,
                "stats": {"0": {"moves": 12}, "1": {"moves": 11}},
            }
        )
    if winner is None:
        points, game_wins = [1.0, 1.0], [1, 1]
    else:
        points = [2.0, 0.0] if winner == 0 else [0.0, 2.0]
        game_wins = [2, 0] if winner == 0 else [0, 2]
    return results.result_document(
        players=[{"name": v.bot.name, "sha256": v.archive_sha256} for v in versions],
        games=games,
        score={"winner": winner, "points": points, "game_wins": game_wins},
    )


@pytest.fixture
def result_document() -> Callable[..., dict[str, Any]]:
    """Return :func:`watch_result`, the result document factory."""
    return watch_result
