"""No visitor can foresee or recompute a series' hidden chance from anything the site or the API shows.

Tried as a spectator who wants to know the hands: a Watch race season with a
series played in the sandbox through the platform's own spec (its chance from
``Series.chance_secret``), one queued and one running. An anonymous client
reads every public surface of them (the API's series list, each series, its
games and replay, the series pages and the replay download) and tries every
number it finds as the seed of the referee's generator, under every rule that
made a game's seed from a series' before (the seed itself, ``n * 1000 + g``...):
none foresees a game's deal. And neither the chance secret nor the series'
nonce appears anywhere, for series not yet played, being played, or finished.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

import engines

REPO = Path(__file__).resolve().parents[3]
PACKAGES = REPO / "bots" / "watch_race" / "packages"
RULES: dict[str, Callable[[int, int], int]] = {
    "n": lambda n, g: n,
    "n+g": lambda n, g: n + g,
    "n*1000+g": lambda n, g: n * 1000 + g,
    "n//1000*1000+g": lambda n, g: n // 1000 * 1000 + g,
    "n//1000+g": lambda n, g: n // 1000 + g,
}


def opening(config: dict[str, Any], players: int, seed: int) -> list[int]:
    """Return the chance outcomes before the first decision, drawn as a referee seeded with ``seed`` would."""
    state = engines.get("watch_race", config).new_initial_state(num_players=players)
    rng, drawn = random.Random(seed), []
    while state.current_player() == engines.CHANCE:
        outcomes = state.chance_outcomes()
        action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        drawn.append(action)
        state.apply_action(action)
    return drawn


@pytest.fixture
def race(settings: Any, tmp_path: Path, make_user: Callable[..., Any]) -> dict[str, Any]:
    from arena.bots.submissions import mark_validation_result, submit_version
    from arena.matchmaking.scheduling import series_spec
    from arena.results.recording import record_series_result
    from arena.seasons.models import Season, SeasonEntry
    from arena.series.models import Series, SeriesSeat, SeriesState
    from workers.tasks import run_series_task

    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    season = Season.objects.create(name="Open race", game="watch_race", players_per_series=2, games_per_series=2)
    versions = []
    for owner, package in (("ann", "random"), ("bob", "heuristic")):
        version = submit_version(make_user(owner), f"{owner}-{package}", PACKAGES / package)
        versions.append(mark_validation_result(version, True, "passed the validation series"))
        SeasonEntry.objects.create(season=season, version=versions[-1])
    season.transition(Season.Status.RUNNING)
    made = {}
    for name, state in (
        ("played", SeriesState.QUEUED),
        ("queued", SeriesState.QUEUED),
        ("running", SeriesState.RUNNING),
    ):
        series = Series.objects.create(season=season, seed=random.SystemRandom().getrandbits(31), state=state)
        for seat, version in enumerate(versions):
            SeriesSeat.objects.create(series=series, seat=seat, version=version)
        made[name] = series
    spec = series_spec(made["played"])  # the platform's own: the chance secret from the server key
    record_series_result(made["played"].pk, run_series_task(spec)["result"])
    made["played"].refresh_from_db()
    return made


def public_texts(client: Any, series: dict[str, Any]) -> list[str]:
    """Return everything an anonymous visitor can read about ``series``: API answers and pages."""
    texts = [client.get("/api/series/").content.decode(), client.get("/api/series/?limit=100").content.decode()]
    for one in series.values():
        for path in (
            f"/api/series/{one.pk}/",
            f"/api/series/{one.pk}/games/",
            f"/api/series/{one.pk}/replay/",
            reverse("series", args=[one.pk]),
            reverse("series-replay", args=[one.pk]),
        ):
            response = client.get(path)
            assert response.status_code in (200, 404), (path, response.status_code)
            texts.append(response.content.decode())
    texts.append(client.get(reverse("season", args=[series["played"].season_id])).content.decode())
    return texts


@pytest.mark.django_db
def test_no_public_number_foresees_a_deal_and_no_secret_is_shown(race: dict[str, Any], client: Any) -> None:
    played = race["played"]
    document = played.result
    assert document is not None
    actual = {}
    for game in document["games"]:
        drawn = []
        for action in game["actions"]:
            if action["seat"] is not None:
                break
            drawn.append(action["action"])
        actual[game["index"]] = drawn
    assert all(len(drawn) >= 6 for drawn in actual.values())

    texts = public_texts(client, race)
    numbers = {int(found) for text in texts for found in re.findall(r"\d{1,19}", text)}
    assert len(numbers) > 50  # ids, times, moves, clocks: all the numbers a visitor sees
    foreseen = [
        (n, rule)
        for n in numbers
        for rule, make in RULES.items()
        if all(make(n, g) >= 0 and opening(document["config"], 2, make(n, g)) == drawn for g, drawn in actual.items())
    ]
    assert foreseen == []

    everything = "\n".join(texts)
    for series in race.values():
        assert series.chance_secret() not in everything
        assert str(series.seed) not in everything  # the nonce that, with the server key, makes the secret
    assert '"seed"' not in everything
    assert "seed " not in everything.lower()
    assert "seed" not in json.dumps(client.get(f"/api/series/{played.pk}/replay/").json())


@pytest.mark.django_db
def test_each_series_has_its_own_secret_from_the_server_key(race: dict[str, Any], settings: Any) -> None:
    from workers import chance

    secrets = {series.chance_secret() for series in race.values()}
    assert len(secrets) == 3
    assert all(len(chance.from_hex(secret)) == 32 for secret in secrets)
    before = race["played"].chance_secret()
    settings.ARENA_CHANCE_KEY = b"another server's key"
    assert race["played"].chance_secret() != before  # the key, held by the platform alone, decides it
