"""The leaderboard of a solo season, through the API: mean score, 95 % interval, games and title per version."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from arena.seasons.models import Season
from arena.series.score_ladder import ladder_rows


@pytest.mark.django_db
def test_the_leaderboard_of_a_solo_season_is_its_score_ladder(
    solo_ladder: dict[str, Any], client_for: Callable
) -> None:
    season = solo_ladder["season"]
    body = client_for(None).get(f"/api/seasons/{season.pk}/leaderboard/").json()
    assert body["count"] == 2
    good, _bad = ladder_rows(season)
    first, second = body["results"]
    assert first == {
        "rank": 1,
        "version": good.version.pk,
        "bot": "ann-careful",
        "bot_id": good.version.bot_id,
        "owner": "ann",
        "version_number": 1,
        "series": solo_ladder["series"]["careful"].pk,
        "games": 20,
        "mean": pytest.approx(good.standing.mean),
        "low": pytest.approx(good.standing.low),
        "high": pytest.approx(good.standing.high),
        "best": good.standing.best,
        "worst": good.standing.worst,
        "forfeits": 0,
        "title": "card sharp",
    }
    assert (second["rank"], second["bot"], second["title"]) == (2, "bob-careless", "")
    assert second["low"] < second["mean"] < second["high"] < first["low"]
    reversed_body = client_for(None).get(f"/api/seasons/{season.pk}/leaderboard/?ordering=-rank").json()
    assert [row["bot"] for row in reversed_body["results"]] == ["bob-careless", "ann-careful"]
    refused = client_for(None).get(f"/api/seasons/{season.pk}/leaderboard/?ordering=mu")
    assert refused.status_code == 400
    assert refused.json()["ordering"] == ["a score ladder sorts by rank or -rank, not 'mu'"]


@pytest.mark.django_db
def test_an_empty_solo_season_has_an_empty_score_ladder(solo_game: Any, client_for: Callable) -> None:
    season = Season.objects.create(name="Empty", game=solo_game.name, players_per_series=1, games_per_series=20)
    response = client_for(None).get(f"/api/seasons/{season.pk}/leaderboard/")
    assert response.status_code == 200
    assert response.json()["count"] == 0
    assert client_for(None).get(f"/api/seasons/{season.pk}/").json()["players_per_series"] == 1
