"""Series actions in the admin: re-run a failed or cancelled series as a new one, cancel a queued or running one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from arena.bots.models import BotVersion
from arena.ratings.models import Rating
from arena.results.recording import record_series_result
from arena.seasons.models import Season
from arena.series.models import Series, SeriesState

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:series_series_changelist"


def act(client: Client, action: str, *series: Series, **extra: Any) -> Any:
    data = {"action": action, "_selected_action": [s.pk for s in series], **extra}
    return client.post(reverse(CHANGELIST), data, follow=True)


def seats_of(series: Series) -> list[tuple[int, int]]:
    return list(series.seats.order_by("seat").values_list("seat", "version_id"))


@pytest.mark.parametrize("state", [SeriesState.FAILED, SeriesState.CANCELLED])
def test_re_running_queues_a_new_series_with_the_same_seats(
    admin_client: Client,
    pair: list[BotVersion],
    make_series: Callable[..., Series],
    state: str,
    django_capture_on_commit_callbacks: Any,
) -> None:
    old = make_series(pair[::-1], state)
    Series.objects.filter(pk=old.pk).update(failure_reason="swept 3 times", attempts=3)
    with django_capture_on_commit_callbacks() as callbacks:
        page = act(admin_client, "rerun", old).content.decode()
    assert "Queued again: 1 series." in page
    new = Series.objects.exclude(pk=old.pk).get()
    assert (new.state, new.attempts, new.season_id) == ("queued", 0, old.season_id)
    assert new.deadline is not None
    assert seats_of(new) == seats_of(old)
    old.refresh_from_db()
    assert old.state == "cancelled"  # so a late result of the old run is not recorded as well
    assert old.failure_reason == f"swept 3 times (re-run as series {new.pk})"
    assert len(callbacks) == 1, "the new series goes to the match workers once committed"
    assert f"re-run as series {new.pk}" in page  # the list shows where it went


def test_a_series_is_re_run_only_once(
    admin_client: Client, pair: list[BotVersion], make_series: Callable[..., Series]
) -> None:
    old = make_series(pair, SeriesState.FAILED)
    act(admin_client, "rerun", old)
    page = act(admin_client, "rerun", old).content.decode()
    new = Series.objects.exclude(pk=old.pk).get()
    assert f"Series {old.pk} was already re-run as series {new.pk}; re-run that one" in page
    assert Series.objects.count() == 2


@pytest.mark.parametrize("state", [SeriesState.QUEUED, SeriesState.RUNNING, SeriesState.DONE])
def test_only_a_failed_or_cancelled_series_is_re_run(
    admin_client: Client, pair: list[BotVersion], make_series: Callable[..., Series], state: str
) -> None:
    series = make_series(pair, state)
    page = act(admin_client, "rerun", series).content.decode()
    assert f"Series {series.pk} is {state}; only a failed or cancelled series can be re-run" in page
    assert Series.objects.count() == 1


def test_re_running_waits_for_a_paused_season(
    admin_client: Client, pair: list[BotVersion], make_series: Callable[..., Series], running_season: Season
) -> None:
    series = make_series(pair, SeriesState.FAILED)
    running_season.transition(Season.Status.PAUSED)
    page = act(admin_client, "rerun", series).content.decode()
    assert f"Series {series.pk}: season &#x27;Spring&#x27; is paused; resume it before re-running its series" in page
    assert Series.objects.count() == 1


def test_re_running_refuses_a_series_of_a_disabled_version(
    admin_client: Client, pair: list[BotVersion], make_series: Callable[..., Series]
) -> None:
    series = make_series(pair, SeriesState.FAILED)
    BotVersion.objects.filter(pk=pair[1].pk).update(status=BotVersion.Status.DISABLED)
    page = act(admin_client, "rerun", series).content.decode()
    assert f"Series {series.pk}: alice/beta v1 (seat 1) is disabled; only active versions play" in page
    assert Series.objects.count() == 1


def test_cancel_asks_for_the_reason_then_cancels(
    admin_client: Client, pair: list[BotVersion], make_series: Callable[..., Series]
) -> None:
    queued, running = make_series(pair), make_series(pair, SeriesState.RUNNING)
    page = act(admin_client, "cancel", queued, running).content.decode()
    assert "Reason:" in page
    assert Series.objects.filter(state="cancelled").count() == 0
    page = act(admin_client, "cancel", queued, running, apply="Cancelled", reason="host lost its cgroups").content
    assert "Cancelled: 2 series." in page.decode()
    for series in (queued, running):
        series.refresh_from_db()
        assert series.state == "cancelled"
        assert series.failure_reason == "cancelled by operator admin: host lost its cgroups"
        assert series.finished_at is not None


def test_cancel_refuses_a_finished_series_and_a_missing_reason(
    admin_client: Client, pair: list[BotVersion], make_series: Callable[..., Series]
) -> None:
    done = make_series(pair, SeriesState.DONE)
    page = act(admin_client, "cancel", done, apply="Cancelled", reason="oops").content.decode()
    assert f"Series {done.pk} is done; only a queued or running series can be cancelled" in page
    queued = make_series(pair)
    page = act(admin_client, "cancel", queued, apply="Cancelled", reason=" ").content.decode()
    assert "This field is required." in page
    assert Series.objects.get(pk=queued.pk).state == "queued"


def test_a_late_result_of_a_cancelled_series_is_not_recorded(
    admin_client: Client, pair: list[BotVersion], make_series: Callable[..., Series], result_document: Any
) -> None:
    running = make_series(pair, SeriesState.RUNNING)
    act(admin_client, "cancel", running, apply="Cancelled", reason="wrong time control")
    assert record_series_result(running.pk, result_document(pair)) is False
    assert Rating.objects.count() == 0
    running.refresh_from_db()
    assert (running.state, running.result) == ("cancelled", None)


def test_a_late_result_of_a_series_replaced_by_a_re_run_is_not_recorded(
    admin_client: Client, pair: list[BotVersion], make_series: Callable[..., Series], result_document: Any
) -> None:
    old = make_series(pair, SeriesState.FAILED)
    act(admin_client, "rerun", old)
    assert record_series_result(old.pk, result_document(pair)) is False
    assert Rating.objects.count() == 0


@pytest.mark.parametrize("action", ["rerun", "cancel"])
def test_a_user_who_is_not_staff_cannot_run_series_actions(
    member_client: Client, pair: list[BotVersion], make_series: Callable[..., Series], action: str
) -> None:
    failed, queued = make_series(pair, SeriesState.FAILED), make_series(pair)
    data = {"action": action, "_selected_action": [failed.pk, queued.pk], "apply": "1", "reason": "x"}
    for client in (member_client, Client()):
        response = client.post(reverse(CHANGELIST), data)
        assert response.status_code == 302
        assert "/admin/login/" in response["Location"]
    assert dict(Series.objects.values_list("pk", "state")) == {failed.pk: "failed", queued.pk: "queued"}
