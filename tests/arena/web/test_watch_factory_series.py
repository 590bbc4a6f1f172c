"""A Watch factory season: three players, a series played in the sandbox, rated, explained on its page.

Three versions of the Watch factory's reference bots, owned by three users,
enter a three-player season; the match worker's task plays a series of three
games in the sandbox (each player starting one) and the platform records it
and rates it with multi-seat TrueSkill. The series page explains the score,
game by game: each game's victory points and the rank points they give.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from arena.web import replays

REPO = Path(__file__).resolve().parents[3]
PACKAGES = REPO / "bots" / "watch_factory" / "packages"


@pytest.fixture
def watch_factory_series(settings: Any, tmp_path: Path, make_user: Callable[..., Any]) -> Any:
    from arena.bots.submissions import mark_validation_result, submit_version
    from arena.matchmaking.scheduling import series_spec
    from arena.results.recording import record_series_result
    from arena.seasons.models import Season, SeasonEntry
    from arena.series.models import Series, SeriesSeat
    from workers.chance import local_secret
    from workers.tasks import run_series_task

    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    season = Season.objects.create(
        name="Watch factory ladder", game="watch_factory", players_per_series=3, games_per_series=3
    )
    series = Series.objects.create(season=season, seed=5)
    for seat, (owner, package) in enumerate((("ann", "random"), ("bob", "heuristic"), ("cy", "random"))):
        version = submit_version(make_user(owner), f"{owner}-{package}", PACKAGES / package)
        version = mark_validation_result(version, True, "passed the validation series")
        SeasonEntry.objects.create(season=season, version=version)
        SeriesSeat.objects.create(series=series, seat=seat, version=version)
    season.transition(Season.Status.RUNNING)
    # The test's own fixed chance (the platform draws it from a secret: Series.chance_secret).
    spec = {**series_spec(series), "chance": local_secret(5).hex()}
    record_series_result(series.pk, run_series_task(spec)["result"])
    series.refresh_from_db()
    return series


def test_a_three_player_season_plays_rates_and_explains_a_series(
    watch_factory_series: Any, client_of: Callable[[Any], Any]
) -> None:
    from arena.ratings.models import Rating
    from arena.series.models import SeriesState

    assert watch_factory_series.state == SeriesState.DONE, watch_factory_series.failure_reason
    document = watch_factory_series.result
    assert len(document["games"]) == 3
    assert [game["seats"][0] for game in document["games"]] == [0, 1, 2]  # each starts once
    for game in document["games"]:
        assert game["forfeit"] is None
        assert all(stats["score"] > 0 for stats in game["stats"].values())
    # A game gives 0 + 1 + 2 rank points among three players (halves when level).
    assert sum(document["score"]["points"]) == 9
    ratings = Rating.objects.filter(season=watch_factory_series.season)
    assert ratings.count() == 3
    assert ratings.order_by("-mu").first().version.bot.name == "bob-heuristic"

    page = client_of(None).get(reverse("series", args=[watch_factory_series.pk])).content.decode()
    text = html.unescape(page)
    names = ["ann-random v1", "bob-heuristic v1", "cy-random v1"]
    steps = document["score"]["steps"]
    assert re.match(r"game 1: player \d \d+, player \d \d+, player \d \d+ victory points: rank points ", steps[0])
    for step in steps:
        named = replays.name_step("watch_factory", step, names)
        assert f"<li>{named}</li>" in text
        assert not re.search(r"\bplayers? \d", named)
    assert "bob-heuristic v1 wins the series" in text or "share the top" in text


def test_a_season_refuses_a_configuration_the_game_does_not_accept() -> None:
    from arena.seasons.models import Season

    with pytest.raises(ValidationError, match="unknown config key"):
        Season.objects.create(
            name="Bad", game="watch_factory", players_per_series=3, games_per_series=3, config={"rounds": 9}
        )
