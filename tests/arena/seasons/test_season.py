"""Seasons: a playable game and format, and a lifecycle that only moves along its arrows."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

import engines
from arena.seasons.models import Season, SeasonTransitionError

pytestmark = pytest.mark.django_db
Status = Season.Status


def test_it_takes_the_engines_rules_version_when_none_is_given(season: Season) -> None:
    assert season.rules_version == "1"
    assert season.status == Status.CREATED
    assert season.time_control == {"decision_ms": 2000, "bank_ms": 60000, "increment_ms": 0}


def test_it_refuses_a_game_the_arena_does_not_run() -> None:
    with pytest.raises(ValidationError, match=f"no game 'chess'; this arena runs {', '.join(engines.names())}"):
        Season.objects.create(name="Chess", game="chess")


def test_it_refuses_a_player_count_the_game_does_not_allow() -> None:
    with pytest.raises(ValidationError, match="is played by 2 to 2 players, not 3"):
        Season.objects.create(name="Crowd", game="watch", players_per_series=3)


def test_it_wants_an_even_number_of_games_for_two_players() -> None:
    with pytest.raises(ValidationError, match=r"a series is an even number of games \(each bot has White"):
        Season.objects.create(name="Odd", game="watch", games_per_series=3)


@pytest.mark.parametrize(("players", "games"), [(4, 2), (4, 8), (3, 6), (2, 4)])
def test_a_race_season_plays_as_many_games_as_players(players: int, games: int) -> None:
    # The rulebook's option 1: "as many games as you have players", each starting one.
    with pytest.raises(ValidationError, match=f"as many games as players .*{players} games, not {games}"):
        Season.objects.create(name="Race", game="watch_race", players_per_series=players, games_per_series=games)
    Season.objects.create(name="Race", game="watch_race", players_per_series=players, games_per_series=players)


def test_its_database_refuses_an_odd_two_player_series_too(season: Season) -> None:
    with pytest.raises(IntegrityError, match="season_games_even_for_two"), transaction.atomic():
        Season.objects.filter(pk=season.pk).update(games_per_series=5)


@pytest.mark.parametrize(
    ("fields", "constraint"),
    [
        ({"decision_ms": 0}, "season_time_control"),
        ({"bank_ms": 0}, "season_time_control"),
        ({"status": "cancelled"}, "season_status"),
        ({"games_per_series": 0}, "season_games_positive"),
    ],
)
def test_its_database_refuses_impossible_values(season: Season, fields: dict[str, Any], constraint: str) -> None:
    with pytest.raises(IntegrityError, match=constraint), transaction.atomic():
        Season.objects.filter(pk=season.pk).update(**fields)


def test_it_keeps_season_names_unique(season: Season) -> None:
    with pytest.raises(IntegrityError, match="name"), transaction.atomic():
        Season.objects.create(name=season.name, game="watch")


def test_it_refuses_an_end_before_the_start(season: Season) -> None:
    from datetime import timedelta

    from django.utils import timezone

    now = timezone.now()
    with pytest.raises(IntegrityError, match="season_ends_after_start"), transaction.atomic():
        Season.objects.filter(pk=season.pk).update(starts_at=now, ends_at=now - timedelta(days=1))


def test_it_runs_pauses_resumes_and_finishes(season: Season) -> None:
    season.transition(Status.RUNNING)
    assert season.starts_at is not None
    season.transition(Status.PAUSED)
    season.transition(Status.RUNNING)
    season.transition(Status.FINISHED)
    assert season.ends_at is not None
    season.refresh_from_db()
    assert season.status == Status.FINISHED
    assert season.ends_at >= season.starts_at


def test_it_finishes_a_paused_season(season: Season) -> None:
    season.transition(Status.RUNNING)
    season.transition(Status.PAUSED)
    season.transition(Status.FINISHED)
    assert Season.objects.get().status == Status.FINISHED


def test_it_keeps_a_planned_start_that_is_already_past(season: Season) -> None:
    from datetime import timedelta

    from django.utils import timezone

    planned = timezone.now() - timedelta(hours=1)
    season.starts_at = planned
    season.save()
    season.transition(Status.RUNNING)
    assert season.starts_at == planned


@pytest.mark.parametrize(
    ("path", "to", "message"),
    [
        ([], Status.PAUSED, "season 'Spring' cannot go from created to paused; from created it can go to running"),
        ([], Status.FINISHED, "cannot go from created to finished; from created it can go to running"),
        (
            [Status.RUNNING, Status.FINISHED],
            Status.RUNNING,
            "season 'Spring' cannot go from finished to running; from finished it can go to nothing, finished is final",
        ),
        (
            [Status.RUNNING],
            Status.CREATED,
            "cannot go from running to created; from running it can go to paused, finished",
        ),
        ([Status.RUNNING], "archived", "cannot go from running to archived"),
    ],
)
def test_it_refuses_a_move_off_the_lifecycle(season: Season, path: list[str], to: str, message: str) -> None:
    for step in path:
        season.transition(step)
    before = season.status
    with pytest.raises(SeasonTransitionError, match=message):
        season.transition(to)
    assert Season.objects.get().status == before


def test_it_checks_the_stored_status_not_the_one_in_memory(season: Season) -> None:
    stale = Season.objects.get()
    season.transition(Status.RUNNING)
    season.transition(Status.FINISHED)
    with pytest.raises(SeasonTransitionError, match="cannot go from finished to running"):
        stale.transition(Status.RUNNING)


def test_it_treats_a_move_to_the_current_status_as_done(season: Season) -> None:
    season.transition(Status.RUNNING)
    started = season.starts_at
    season.transition(Status.RUNNING)  # a scheduler that runs twice
    assert Season.objects.get().starts_at == started


def test_it_refuses_a_status_change_that_bypasses_transition(season: Season) -> None:
    season.status = Status.FINISHED
    with pytest.raises(SeasonTransitionError, match="cannot go from created to finished"):
        season.save()
    assert Season.objects.get().status == Status.CREATED


def test_it_reports_a_bad_move_as_a_form_error(season: Season) -> None:
    season.status = Status.PAUSED
    with pytest.raises(ValidationError) as caught:
        season.full_clean()
    assert caught.value.message_dict["status"] == [
        "season 'Spring' cannot go from created to paused; from created it can go to running"
    ]


def test_it_refuses_rules_the_engine_does_not_have() -> None:
    with pytest.raises(ValidationError, match="watch is at rules version 1, not 2"):
        Season.objects.create(name="Future", game="watch", rules_version="2")
