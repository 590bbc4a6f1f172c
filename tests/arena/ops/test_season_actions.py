"""Season actions in the admin: start, pause, resume, and finish, which freezes the final standings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from arena.bots.models import BotVersion
from arena.ops.operations import OperationError, finish_season
from arena.ratings.models import Rating
from arena.results.recording import record_series_result
from arena.seasons.models import FinalStanding, FrozenStandingError, Season
from arena.series.models import Series, SeriesState

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:seasons_season_changelist"


def act(client: Client, action: str, *seasons: Season, **extra: str) -> Any:
    data = {"action": action, "_selected_action": [s.pk for s in seasons], **extra}
    return client.post(reverse(CHANGELIST), data, follow=True)


def status_of(season: Season) -> str:
    return Season.objects.values_list("status", flat=True).get(pk=season.pk)


def rate(season: Season, version: BotVersion, mu: float, sigma: float, **fields: Any) -> Rating:
    return Rating.objects.create(season=season, version=version, mu=mu, sigma=sigma, **fields)


def test_it_starts_pauses_and_resumes_a_season(admin_client: Client, season: Season) -> None:
    page = act(admin_client, "start", season).content.decode()
    assert "Started: 1 season." in page
    assert status_of(season) == "running"
    assert Season.objects.get(pk=season.pk).starts_at is not None
    act(admin_client, "pause", season)
    assert status_of(season) == "paused"
    act(admin_client, "resume", season)
    assert status_of(season) == "running"


def test_it_says_why_an_action_does_not_apply_and_carries_on_with_the_others(admin_client: Client) -> None:
    created = Season.objects.create(name="Created", game="watch")
    running = Season.objects.create(name="Running", game="watch")
    running.transition(Season.Status.RUNNING)
    page = act(admin_client, "pause", created, running).content.decode()
    assert "Season &#x27;Created&#x27; is created; only a running season can be paused" in page
    assert "Paused: 1 season." in page
    assert (status_of(created), status_of(running)) == ("created", "paused")


def test_start_refuses_a_paused_season_and_points_to_resume(admin_client: Client, running_season: Season) -> None:
    running_season.transition(Season.Status.PAUSED)
    page = act(admin_client, "start", running_season).content.decode()
    assert "only a created season can start (a paused one resumes)" in page
    assert status_of(running_season) == "paused"


def test_finish_asks_for_confirmation_first(admin_client: Client, running_season: Season) -> None:
    response = act(admin_client, "finish", running_season)
    page = response.content.decode()
    assert "Finishing is final" in page
    assert "Spring" in page
    assert status_of(running_season) == "running"


def test_finishing_freezes_the_standings_from_the_ratings_best_first(
    admin_client: Client, pair: list[BotVersion], make_version: Callable[..., Any], running_season: Season
) -> None:
    alpha, beta = pair
    gamma = make_version("gamma")
    rate(running_season, alpha, 25.0, 5.0, series_played=4, won=1, drawn=1, lost=2, series_points=3, game_wins=3)
    rate(running_season, beta, 30.0, 4.0, series_played=4, won=3, lost=1, series_points=6, game_wins=6)
    rate(running_season, gamma, 20.0, 8.0, provisional=True)
    page = act(admin_client, "finish", running_season, apply="Finished").content.decode()
    assert "Finished: 1 season." in page
    assert status_of(running_season) == "finished"
    standings = list(FinalStanding.objects.filter(season=running_season).order_by("rank"))
    assert [(s.rank, s.version) for s in standings] == [(1, beta), (2, alpha), (3, gamma)]
    first = standings[0]
    assert (first.mu, first.sigma, first.conservative) == (30.0, 4.0, 18.0)
    assert (first.series_played, first.won, first.drawn, first.lost) == (4, 3, 0, 1)
    assert (float(first.series_points), first.game_wins, first.provisional) == (6.0, 6, True)
    change_page = admin_client.get(reverse("admin:seasons_season_change", args=[running_season.pk])).content.decode()
    assert "final standings (frozen when the season finished)" in change_page.lower()
    assert "alice/beta v1" in change_page


def test_finishing_cancels_the_seasons_queued_and_running_series(
    admin_client: Client, pair: list[BotVersion], make_series: Callable[..., Series], running_season: Season
) -> None:
    queued, running = make_series(pair), make_series(pair, SeriesState.RUNNING)
    done = make_series(pair, SeriesState.DONE)
    act(admin_client, "finish", running_season, apply="Finished")
    states = dict(Series.objects.values_list("pk", "state"))
    assert states == {queued.pk: "cancelled", running.pk: "cancelled", done.pk: "done"}
    assert Series.objects.get(pk=queued.pk).failure_reason == "cancelled by operator admin: the season finished"


def test_finishing_through_the_change_form_freezes_the_standings_too(
    admin_client: Client, pair: list[BotVersion], running_season: Season
) -> None:
    rate(running_season, pair[0], 26.0, 6.0)
    form = {
        "name": running_season.name,
        "game": "watch",
        "rules_version": running_season.rules_version,
        "config": "{}",
        "decision_ms": 2000,
        "bank_ms": 60000,
        "increment_ms": 0,
        "games_per_series": 2,
        "players_per_series": 2,
        "status": "finished",
    }
    response = admin_client.post(reverse("admin:seasons_season_change", args=[running_season.pk]), form)
    assert response.status_code == 302
    assert status_of(running_season) == "finished"
    assert list(FinalStanding.objects.values_list("rank", "version", "mu")) == [(1, pair[0].pk, 26.0)]


def test_the_change_form_of_a_running_season_saves_as_before(admin_client: Client, running_season: Season) -> None:
    form = {
        "name": "Spring renamed",
        "game": "watch",
        "rules_version": running_season.rules_version,
        "config": "{}",
        "decision_ms": 2000,
        "bank_ms": 60000,
        "increment_ms": 0,
        "games_per_series": 2,
        "players_per_series": 2,
        "status": "paused",
    }
    response = admin_client.post(reverse("admin:seasons_season_change", args=[running_season.pk]), form)
    assert response.status_code == 302
    assert Season.objects.values_list("name", "status").get() == ("Spring renamed", "paused")
    assert not FinalStanding.objects.exists()


def test_a_finished_season_cannot_be_finished_again_or_restarted(admin_client: Client, running_season: Season) -> None:
    finish_season(running_season)
    page = act(admin_client, "finish", running_season, apply="Finished").content.decode()
    assert "only a running or paused season can finish" in page
    page = act(admin_client, "resume", running_season).content.decode()
    assert "Season &#x27;Spring&#x27; is finished" in page
    with pytest.raises(OperationError, match="only a running or paused season can finish"):
        finish_season(running_season)


def test_final_standings_cannot_be_edited(running_season: Season, pair: list[BotVersion]) -> None:
    rate(running_season, pair[0], 26.0, 6.0)
    (standing,) = finish_season(running_season)
    standing.mu = 40.0
    with pytest.raises(FrozenStandingError, match="cannot change"):
        standing.save()


def test_a_late_result_leaves_the_final_standings_and_ratings_as_they_were(
    running_season: Season, pair: list[BotVersion], make_series: Callable[..., Series], result_document: Any
) -> None:
    """A series still running when the season finished reports afterwards: nothing moves."""
    for version in pair:
        rate(running_season, version, 25.0, 8.0)
    late = make_series(pair, SeriesState.RUNNING)
    finish_season(running_season)
    frozen = list(FinalStanding.objects.values_list("rank", "version", "mu", "sigma", "series_played"))
    ratings = list(Rating.objects.order_by("pk").values_list("mu", "sigma", "series_played"))
    assert record_series_result(late.pk, result_document(pair)) is False
    assert list(FinalStanding.objects.values_list("rank", "version", "mu", "sigma", "series_played")) == frozen
    assert list(Rating.objects.order_by("pk").values_list("mu", "sigma", "series_played")) == ratings
    assert Series.objects.get(pk=late.pk).state == "cancelled"


def test_a_result_for_a_series_running_at_the_finish_that_was_not_cancelled_is_refused(
    running_season: Season, pair: list[BotVersion], make_series: Callable[..., Series], result_document: Any
) -> None:
    """Belt and braces: even a series left running (finished another way) does not reach the ratings."""
    for version in pair:
        rate(running_season, version, 25.0, 8.0)
    late = make_series(pair, SeriesState.RUNNING)
    finish_season(running_season)
    Series.objects.filter(pk=late.pk).update(state=SeriesState.RUNNING)
    frozen = list(FinalStanding.objects.values_list("rank", "version", "mu", "sigma"))
    record_series_result(late.pk, result_document(pair))
    assert list(FinalStanding.objects.values_list("rank", "version", "mu", "sigma")) == frozen
    assert list(Rating.objects.values_list("series_played", flat=True)) == [0, 0]
    assert "finished before the result arrived" in Series.objects.get(pk=late.pk).failure_reason


def test_a_user_who_is_not_staff_cannot_run_season_actions(member_client: Client, season: Season) -> None:
    response = member_client.post(reverse(CHANGELIST), {"action": "start", "_selected_action": [season.pk]})
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
    assert status_of(season) == "created"


def test_staff_without_the_change_permission_cannot_run_season_actions(django_user_model: Any, season: Season) -> None:
    from django.contrib.auth.models import Permission

    viewer = django_user_model.objects.create_user("viewer", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_season"))
    client = Client()
    client.force_login(viewer)
    response = client.post(reverse(CHANGELIST), {"action": "start", "_selected_action": [season.pk]}, follow=True)
    assert response.status_code == 200
    assert "Start the selected seasons" not in response.content.decode()  # not offered, and not run
    assert status_of(season) == "created"
