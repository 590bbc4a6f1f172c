"""A factory race season in the «Вызов» mode: four players, a series played in the sandbox, rated, on its page.

Four versions of the factory race reference bots, owned by four users, enter
a four-player season whose configuration chooses the «Вызов» mode with
one-star technology; the match worker's task plays a series of four games in
the sandbox and the platform records and rates it (multi-seat TrueSkill).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from arena.web import replays

REPO = Path(__file__).resolve().parents[3]
PACKAGES = REPO / "bots" / "factory_race" / "packages"
CONFIG = {"mode": "challenge", "stars": 1}


@pytest.fixture
def factory_series(settings: Any, tmp_path: Path, make_user: Callable[..., Any]) -> Any:
    from arena.bots.submissions import mark_validation_result, submit_version
    from arena.matchmaking.scheduling import series_spec
    from arena.results.recording import record_series_result
    from arena.seasons.models import Season, SeasonEntry
    from arena.series.models import Series, SeriesSeat
    from workers.chance import local_secret
    from workers.tasks import run_series_task

    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    season = Season.objects.create(
        name="Factory ladder", game="factory_race", players_per_series=4, games_per_series=4, config=CONFIG
    )
    series = Series.objects.create(season=season, seed=2)
    for seat, (owner, package) in enumerate(
        (("ann", "random"), ("bob", "heuristic"), ("cy", "random"), ("dan", "heuristic"))
    ):
        version = submit_version(make_user(owner), f"{owner}-{package}", PACKAGES / package)
        version = mark_validation_result(version, True, "passed the validation series")
        SeasonEntry.objects.create(season=season, version=version)
        SeriesSeat.objects.create(series=series, seat=seat, version=version)
    season.transition(Season.Status.RUNNING)
    # The test's own fixed chance (the platform draws it from a secret: Series.chance_secret).
    spec = {**series_spec(series), "chance": local_secret(2).hex()}
    record_series_result(series.pk, run_series_task(spec)["result"])
    series.refresh_from_db()
    return series


def test_a_challenge_season_plays_rates_and_shows_a_four_player_series(
    factory_series: Any, client_of: Callable[[Any], Any]
) -> None:
    from arena.ratings.models import Rating
    from arena.series.models import SeriesState

    assert factory_series.state == SeriesState.DONE, factory_series.failure_reason
    document = factory_series.result
    assert document["config"]["mode"] == "challenge"
    assert len(document["games"]) == 4
    assert [game["seats"][0] for game in document["games"]] == [0, 1, 2, 3]  # each starts once
    assert any(a["notation"].startswith("event ") for a in document["games"][0]["actions"])
    ratings = Rating.objects.filter(season=factory_series.season)
    assert ratings.count() == 4
    best = ratings.order_by("-mu").first()
    assert best.version.bot.name in ("bob-heuristic", "dan-heuristic")

    page = client_of(None).get(reverse("series", args=[factory_series.pk])).content.decode()
    script = re.search(r'<script id="replay-1" type="application/json">(.*?)</script>', page, re.S)
    assert script is not None
    data = json.loads(html.unescape(script.group(1)))
    assert data["game"] == "factory_race"
    assert data["seat_labels"] == ["P0", "P1", "P2", "P3"]
    assert (data["board"]["mode"], data["board"]["stars"]) == ("challenge", 1)
    assert any("revealed" in frame for frame in data["frames"])
    assert '<script src="/static/games/factory_race/viewer.js" defer>' in page
    assert '<link rel="stylesheet" href="/static/games/factory_race/viewer.css">' in page
    text = html.unescape(page)
    names = ["ann-random v1", "bob-heuristic v1", "cy-random v1", "dan-heuristic v1"]
    for step in document["score"]["steps"]:
        named = replays.name_step("factory_race", step, names)
        assert f"<li>{named}</li>" in text
        assert not re.search(r"\bplayers? \d", named)


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"mode": "blitz"}, "mode must be 'base' or 'challenge'"),
        ({"stars": 3}, "new technology (3 stars) is played in the 'challenge' mode only"),
        ({"max_rounds": 0}, "max_rounds must be an integer from 1 to 100, not 0"),
    ],
)
def test_a_season_refuses_a_configuration_the_game_does_not_accept(config: dict[str, Any], message: str) -> None:
    from arena.seasons.models import Season

    with pytest.raises(ValidationError, match=re.escape(message)):
        Season.objects.create(name="Bad", game="factory_race", players_per_series=2, games_per_series=2, config=config)
