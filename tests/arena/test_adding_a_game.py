"""Adding a game is one package and its registration: a toy tic-tac-toe goes through every layer.

``tests/toygame/tictactoe.py`` is an engine and a declaration
(engines/declaration.py), and ``tests/toygame/packages`` its two reference
bots (``REFERENCE_BOTS``, bots/provided.py). Registered with ``engines.register``
and ``bots.provided.register`` and nothing else, it is played by
``arena play`` in the sandbox, validates an uploaded version against its
validation bot, and runs a season: scheduled, played, recorded, rated with
its own draw probability, and shown on the leaderboard and the series page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from arena.bots.models import BotVersion
from arena.bots.submissions import submit_version
from arena.bots.validation import validate_version
from arena.matchmaking.scheduling import schedule_round
from arena.ratings.models import Rating
from arena.results.recording import season_parameters
from arena.seasons.models import Season, SeasonEntry
from arena.series.models import Series, SeriesState
from tests.toygame.tictactoe import DECLARATION, PACKAGES
from workers.cli import main

NAME = DECLARATION.name


def test_arena_play_plays_it_in_the_sandbox(toy: None, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["play", NAME, str(PACKAGES / "first"), str(PACKAGES / "last"), "--seed", "3", "--decision-ms", "10000"]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.startswith(f"{NAME} (rules 1): first vs last, 2 games, seed 3, sandbox bwrap")
    # The generic series text: who started each game (its X), who won and how, the points.
    assert "#  Starts (seat 0)  Winner  Reason" in out
    # Each bot is X once (seats rotate), and X wins either way: a1, b1, c1 or c3, b3, a3.
    assert "Series score: first 1, last 1" in out
    assert "Series winner: none (the top is shared)" in out


def test_arena_play_checks_the_series_length_the_game_declares(toy: None, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", NAME, str(PACKAGES / "first"), str(PACKAGES / "last"), "--games", "3"])
    assert code == 2
    assert "a series of 2 players is a multiple of 2 games" in capsys.readouterr().err


@pytest.mark.django_db
def test_an_upload_is_validated_against_the_games_validation_bot(toy: None, user: Any, artifact_dir: Path) -> None:
    version = submit_version(user, "toy-bot", PACKAGES / "last")
    assert version.games == [NAME]
    validated = validate_version(version.pk)
    assert validated.status == BotVersion.Status.ACTIVE, validated.status_reason
    assert validated.status_reason == f"{NAME}: passed the validation series (2 games against the reference bot)"
    (run,) = validated.validation_runs.all()
    assert run.game == NAME


@pytest.mark.django_db
def test_a_season_of_it_is_played_recorded_rated_and_shown(
    toy: None,
    django_user_model: Any,
    artifact_dir: Path,
    client: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    versions = []
    for owner, package in (("ann", "first"), ("bob", "last")):
        version = submit_version(django_user_model.objects.create_user(owner), f"{owner}-toy", PACKAGES / package)
        versions.append(validate_version(version.pk))
    season = Season.objects.create(name="Toy ladder", game=NAME, games_per_series=2)
    for version in versions:
        SeasonEntry.objects.create(season=season, version=version)
    season.transition(Season.Status.RUNNING)
    with django_capture_on_commit_callbacks(execute=True):
        created = schedule_round(season, 1)
    assert len(created) == 1
    series = Series.objects.get(pk=created[0].pk)
    assert series.state == SeriesState.DONE, series.failure_reason
    assert series.result["game"] == NAME
    assert season_parameters(season).draw_probability == DECLARATION.rating.draw_probability
    ratings = {r.version.bot.name: r for r in Rating.objects.filter(season=season).select_related("version__bot")}
    for rating in ratings.values():  # one game each as X, won by X: a drawn series
        assert (rating.series_played, rating.drawn) == (1, 1)
        assert rating.sigma < DECLARATION.rating.beta * 2
    page = client.get(reverse("season", args=[season.pk])).content.decode()
    assert "ann-toy" in page
    assert "bob-toy" in page
    series_page = client.get(reverse("series", args=[series.pk])).content.decode()
    assert "made three in a row" in series_page  # the game's own words for how it ended
    assert ">X<" in series_page  # its seat labels
