"""A solo season is a score ladder: every version plays the same seeded deals once and ranks by mean score.

The toy solo game (tests/toygame/solitaire.py, "high or low") declares a
score ladder; its careful bot takes the larger half of every card, its
careless bot the smaller. Everything goes through real code: submission,
validation and the series in the sandbox, the scheduler, recording, the pages
and the API.
"""

from __future__ import annotations

import math
import statistics
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from arena.bots.models import BotVersion
from arena.bots.submissions import submit_version
from arena.matchmaking.scheduling import schedule_round
from arena.ratings.models import Rating, RatingHistory
from arena.seasons.models import Season
from arena.series.models import Series, SeriesState
from arena.series.score_ladder import ladder_rows
from tests.arena.conftest import enter_solo
from tests.toygame.solitaire import PACKAGES


def deals(series: Series) -> list[list[int]]:
    """Return the cards dealt in each game of a recorded series: the chance outcomes the referee drew."""
    return [[a["action"] for a in game["actions"] if a["seat"] is None] for game in series.result["games"]]


def scores(series: Series) -> list[float]:
    """Return each game's score as the engine returned it."""
    return [game["returns"][0] for game in series.result["games"]]


def interval(values: list[float]) -> tuple[float, float, float]:
    """Return mean, low, high: mean ± t(0.975, 19) · s / √20, Student's t for 20 deals."""
    mean = statistics.fmean(values)
    margin = 2.093 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - margin, mean + margin


@pytest.mark.django_db
def test_it_plays_every_version_on_the_same_deals(solo_ladder: dict[str, Any]) -> None:
    careful, careless = solo_ladder["series"]["careful"], solo_ladder["series"]["careless"]
    # Two series, one chance: the season's stored deal secret, never a seed anybody is shown.
    assert careful.chance_secret() == careless.chance_secret() == solo_ladder["season"].deal_secret
    assert "seed" not in careful.result
    assert len(deals(careful)) == 20
    assert deals(careful) == deals(careless)
    assert len({tuple(cards) for cards in deals(careful)}) > 10  # the deals differ from one game to the next


@pytest.mark.django_db
def test_it_ranks_by_mean_score_with_the_interval_and_titles(solo_ladder: dict[str, Any]) -> None:
    good, bad = ladder_rows(solo_ladder["season"])
    assert (good.rank, good.version.bot.name) == (1, "ann-careful")
    assert (bad.rank, bad.version.bot.name) == (2, "bob-careless")
    for row, series in ((good, solo_ladder["series"]["careful"]), (bad, solo_ladder["series"]["careless"])):
        mean, low, high = interval(scores(series))
        assert row.standing.games == 20
        assert row.standing.mean == pytest.approx(mean)
        assert (row.standing.low, row.standing.high) == (pytest.approx(low), pytest.approx(high))
        assert (row.standing.best, row.standing.worst) == (max(scores(series)), min(scores(series)))
    # Careful play averages about 36 ("card sharp" from 30), careless about 14 (below the first title, 20).
    assert 30 <= good.standing.mean < 40
    assert good.standing.title == "card sharp"
    assert bad.standing.mean < 20
    assert bad.standing.title == ""


@pytest.mark.django_db
def test_it_rates_nobody(solo_ladder: dict[str, Any]) -> None:
    season = solo_ladder["season"]
    assert not Rating.objects.filter(season=season).exists()
    assert not RatingHistory.objects.filter(season=season).exists()
    seat = solo_ladder["series"]["careful"].seats.get()
    assert float(seat.points) == pytest.approx(statistics.fmean(scores(solo_ladder["series"]["careful"])), abs=0.05)


@pytest.mark.django_db
def test_a_version_with_a_finished_series_gets_no_more(
    solo_ladder: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        assert schedule_round(solo_ladder["season"], 4) == []
    assert Series.objects.filter(season=solo_ladder["season"]).count() == 2


@pytest.mark.django_db
def test_a_failed_series_is_played_again(solo_ladder: dict[str, Any], django_capture_on_commit_callbacks: Any) -> None:
    season = solo_ladder["season"]
    failed = Series.objects.create(season=season, seed=1, state=SeriesState.FAILED)
    third = enter_solo(season, solo_ladder["versions"]["careful"].bot.owner, "ann-again", "careful")
    failed.seats.create(seat=0, version=third)
    with django_capture_on_commit_callbacks(execute=True):
        (again,) = schedule_round(season, 4)
    again.refresh_from_db()
    assert again.seats.get().version == third
    assert again.state == SeriesState.DONE, again.failure_reason
    assert deals(again) == deals(solo_ladder["series"]["careful"])
    assert [row.version.bot.name for row in ladder_rows(season)][-1] == "bob-careless"


@pytest.mark.django_db
def test_a_new_version_gets_its_series_as_soon_as_it_is_validated(
    solo_ladder: dict[str, Any], django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    season = solo_ladder["season"]
    cy = django_user_model.objects.create_user("cy")
    # The upload's validation, its activation, its entry and its series all follow on commit: no beat.
    with django_capture_on_commit_callbacks(execute=True):
        version = submit_version(cy, "cy-careful", PACKAGES / "careful")
    version.refresh_from_db()
    assert version.status == BotVersion.Status.ACTIVE, version.status_reason
    (series,) = Series.objects.filter(season=season, seats__version=version)
    assert series.state == SeriesState.DONE, series.failure_reason
    assert [row.version.bot.name for row in ladder_rows(season)][2] == "bob-careless"


@pytest.mark.django_db
def test_a_crash_scores_the_forfeit_score_and_voids_nothing(
    solo_ladder: dict[str, Any], django_user_model: Any, django_capture_on_commit_callbacks: Any, client: Any
) -> None:
    season = solo_ladder["season"]
    # The crasher plays well through its validation's two games, then exits in its third.
    version = enter_solo(season, django_user_model.objects.create_user("dee"), "dee-crasher", "crasher")
    with django_capture_on_commit_callbacks(execute=True):
        (series,) = schedule_round(season, 4)
    series.refresh_from_db()
    assert series.state == SeriesState.DONE, series.failure_reason
    games = series.result["games"]
    assert len(games) == 3
    assert games[2]["forfeit"]["reason"] == "crash"
    (row,) = [row for row in ladder_rows(season) if row.version == version]
    assert row.standing.games == 20
    assert games[2]["returns"] is None
    assert row.standing.scores == (games[0]["returns"][0], games[1]["returns"][0], *[0.0] * 18)
    assert row.standing.forfeits == 1
    assert row.rank == 3
    page = client.get(reverse("series", args=[series.pk])).content.decode()
    assert "forfeited: crashed" in page
    assert "not played: a forfeit ended the series before this deal" in page
    version.refresh_from_db()
    assert version.status == BotVersion.Status.ACTIVE  # no forfeit rate disables a solo player


@pytest.mark.django_db
def test_it_refuses_a_solo_season_of_a_game_without_a_score_ladder(solo_game: Any) -> None:
    with pytest.raises(ValidationError) as refused:
        Season.objects.create(name="Solo Watch", game="watch", players_per_series=1, games_per_series=20)
    assert refused.value.message_dict["players_per_series"] == [
        "watch has no score ladder, so it has no solo seasons: a season of it seats 2 to 2 players a series"
    ]


@pytest.mark.django_db
def test_it_refuses_a_solo_season_of_fewer_than_20_deals(solo_game: Any) -> None:
    with pytest.raises(ValidationError) as refused:
        Season.objects.create(name="Short", game=solo_game.name, players_per_series=1, games_per_series=19)
    assert refused.value.message_dict["games_per_series"] == [
        "a solo season plays the same 20 or more deals for every version, not 19"
    ]


@pytest.mark.django_db
def test_two_seasons_deal_differently(solo_game: Any) -> None:
    first = Season.objects.create(name="One", game=solo_game.name, players_per_series=1, games_per_series=20)
    second = Season.objects.create(name="Two", game=solo_game.name, players_per_series=1, games_per_series=20)
    assert first.deal_secret != second.deal_secret
    assert first.deal_secret == Season.objects.get(pk=first.pk).deal_secret
    assert len(bytes.fromhex(first.deal_secret)) == 32


@pytest.mark.django_db(transaction=True)  # the demo's validations run on commit, as in the real command
def test_the_demo_runs_a_games_solo_season(solo_game: Any, artifact_dir: Any) -> None:
    from arena.ops.management.commands.demo import (
        DemoLadder,
        ladders,
        register_reference_bots,
        score_ladder_lines,
        series_lines,
        start_season,
    )

    (ladder,) = [ladder for ladder in ladders() if ladder.game == solo_game.name]
    assert ladder == DemoLadder(solo_game.name, solo_game.solo_demo)
    season = start_season(ladder, register_reference_bots(ladder))
    assert (season.players_per_series, season.games_per_series) == (1, 20)
    played = schedule_round(season, 1)
    played += schedule_round(season, 1)
    assert schedule_round(season, 1) == []
    assert len(played) == 2
    lines = score_ladder_lines(season)
    assert lines[0].split() == ["#", "bot", "owner", "games", "mean", "95", "%", "interval", "title"]
    assert lines[1].split()[:4] == ["1", "careful", "v1", "demo-careful"]
    assert lines[1].endswith("card sharp")
    assert lines[2].split()[:4] == ["2", "careless", "v1", "demo-careless"]
    text = series_lines(Series.objects.get(pk=played[0].pk))
    assert any(line.startswith("Mean score of careful v1: ") for line in text)
    assert "Title: card sharp" in text
