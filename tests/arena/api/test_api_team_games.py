"""A team game's season through the API: one leaderboard per role, and the win rate against the built-in GM."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from arena.ratings.models import Rating
from arena.seasons.models import Season

pytestmark = pytest.mark.django_db


def test_the_api_gives_each_roles_leaderboard(team_season: dict[str, Any], client_for: Callable) -> None:
    season = team_season["season"]
    url = f"/api/seasons/{season.pk}/leaderboard/"
    players = client_for(None).get(url).json()
    gms = client_for(None).get(url, {"role": "gm"}).json()
    assert {row["role"] for row in players["results"]} == {"player"}
    assert {row["role"] for row in gms["results"]} == {"gm"}
    assert [row["rank"] for row in gms["results"]] == list(range(1, gms["count"] + 1))
    assert "cid-harsh" in {row["bot"] for row in gms["results"]}
    assert players["results"][0]["win_rate"] is None  # against GM bots there is no fixed opponent to rate against
    refused = client_for(None).get(url, {"role": "dealer"})
    assert refused.status_code == 400
    assert "must be one of player, gm" in refused.json()["role"][0]


def test_a_role_is_refused_for_a_season_without_roles(running: Any, client_for: Any) -> None:
    response = client_for(None).get(f"/api/seasons/{running.pk}/leaderboard/", {"role": "gm"})
    assert response.status_code == 400
    assert "is not a team game: its leaderboard has no roles" in response.json()["role"][0]


def test_without_gm_bots_a_player_row_has_its_win_rate(builtin_season: dict[str, Any], client_for: Callable) -> None:
    season = builtin_season["season"]
    body = client_for(None).get(f"/api/seasons/{season.pk}/leaderboard/").json()
    first = body["results"][0]
    assert first["role"] == "player"
    assert first["games_played"] > 0
    assert first["win_rate"] == pytest.approx(first["game_wins"] / first["games_played"])
    assert first["low"] <= first["win_rate"] <= first["high"]
    assert client_for(None).get(f"/api/seasons/{season.pk}/leaderboard/", {"role": "gm"}).json()["count"] == 0


def test_an_empty_team_season_has_empty_boards(team_game: Any, client_for: Callable) -> None:
    season = Season.objects.create(name="Empty team season", game=team_game.name, players_per_series=2)
    url = f"/api/seasons/{season.pk}/leaderboard/"
    assert client_for(None).get(url).json()["count"] == 0
    assert client_for(None).get(url, {"role": "gm"}).json()["count"] == 0


def test_a_team_row_names_its_version_and_its_rating_in_the_role(
    team_season: dict[str, Any], client_for: Callable
) -> None:
    season = team_season["season"]
    row = client_for(None).get(f"/api/seasons/{season.pk}/leaderboard/", {"role": "gm"}).json()["results"][0]
    rating = Rating.objects.select_related("version__bot__owner").get(season=season, version=row["version"], role="gm")
    version = rating.version
    assert list(row)[:12] == [
        "rank",
        "role",
        "version",
        "bot",
        "bot_id",
        "owner",
        "version_number",
        "conservative",
        "mu",
        "sigma",
        "provisional",
        "series_played",
    ]
    assert (row["bot"], row["bot_id"], row["owner"], row["version_number"]) == (
        version.bot.name,
        version.bot_id,
        version.bot.owner.username,
        version.number,
    )
    assert (row["mu"], row["sigma"], row["provisional"], row["series_played"]) == (
        pytest.approx(rating.mu),
        pytest.approx(rating.sigma),
        rating.provisional,
        rating.series_played,
    )
    assert row["conservative"] == pytest.approx(rating.mu - 3 * rating.sigma)
