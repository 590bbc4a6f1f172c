"""Bot version actions in the admin: disable with a reason the owner sees, re-enable, retire."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from arena.bots.models import BotVersion
from arena.seasons.models import SeasonEntry

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:bots_botversion_changelist"
Status = BotVersion.Status


def act(client: Client, action: str, *versions: BotVersion, **extra: Any) -> Any:
    data = {"action": action, "_selected_action": [v.pk for v in versions], **extra}
    return client.post(reverse(CHANGELIST), data, follow=True)


def stored(version: BotVersion) -> tuple[str, str]:
    return BotVersion.objects.values_list("status", "status_reason").get(pk=version.pk)


def entries_active(version: BotVersion) -> list[bool]:
    return list(SeasonEntry.objects.filter(version=version).values_list("active", flat=True))


def test_disable_first_asks_for_the_reason(admin_client: Client, pair: list[BotVersion]) -> None:
    page = act(admin_client, "disable", pair[0]).content.decode()
    assert "Reason:" in page
    assert "alice/alpha v1" in page
    assert "their owners see the reason below" in page
    assert stored(pair[0])[0] == "active"


def test_disabling_sets_the_reason_and_takes_the_version_out_of_its_seasons(
    admin_client: Client, pair: list[BotVersion]
) -> None:
    alpha, beta = pair
    page = act(admin_client, "disable", alpha, apply="Disabled", reason="  floods stderr; fix the logging  ").content
    assert "Disabled: 1 bot version." in page.decode()
    assert stored(alpha) == ("disabled", "floods stderr; fix the logging")
    assert entries_active(alpha) == [False]
    assert entries_active(beta) == [True]


@pytest.mark.parametrize(
    ("reason", "error"),
    [("", "This field is required."), ("   ", "This field is required."), ("x" * 2001, "at most 2000 characters")],
)
def test_disabling_without_a_usable_reason_asks_again(
    admin_client: Client, pair: list[BotVersion], reason: str, error: str
) -> None:
    page = act(admin_client, "disable", pair[0], apply="Disabled", reason=reason).content.decode()
    assert error in page
    assert stored(pair[0]) == ("active", "")


def test_a_reason_with_markup_is_stored_as_text_and_shown_escaped(admin_client: Client, pair: list[BotVersion]) -> None:
    reason = '<script>alert("x")</script>'
    act(admin_client, "disable", pair[0], apply="Disabled", reason=reason)
    assert stored(pair[0]) == ("disabled", reason)
    page = admin_client.get(reverse("admin:bots_botversion_change", args=[pair[0].pk])).content.decode()
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert" in page


def test_re_enabling_a_version_that_had_played_makes_it_active_and_enters_it_again(
    admin_client: Client, pair: list[BotVersion]
) -> None:
    alpha = pair[0]
    act(admin_client, "disable", alpha, apply="Disabled", reason="suspected cheating")
    page = act(admin_client, "enable", alpha).content.decode()
    assert "Re-enabled: 1 bot version." in page
    assert stored(alpha) == ("active", "re-enabled by an operator")
    assert entries_active(alpha) == [True]


def test_re_enabling_a_version_that_never_passed_validation_sends_it_back_to_validation(
    admin_client: Client, make_version: Callable[..., Any], django_capture_on_commit_callbacks: Any
) -> None:
    fresh = make_version("fresh", status=Status.VALIDATING)
    act(admin_client, "disable", fresh, apply="Disabled", reason="archive under review")
    with django_capture_on_commit_callbacks() as callbacks:
        act(admin_client, "enable", fresh)
    assert stored(fresh) == ("validating", "re-enabled by an operator; waiting for its validation series")
    assert callbacks, "the validation series is queued once the change commits"


def test_re_enabling_a_version_replaced_meanwhile_retires_it(
    admin_client: Client, pair: list[BotVersion], make_version: Callable[..., Any]
) -> None:
    alpha = pair[0]
    act(admin_client, "disable", alpha, apply="Disabled", reason="crashes")
    make_version("alpha")  # version 2, active
    act(admin_client, "enable", alpha)
    assert stored(alpha) == ("retired", "re-enabled by an operator; replaced by version 2")
    assert entries_active(alpha) == [False]


def test_re_enabling_refuses_a_version_that_is_not_disabled(admin_client: Client, pair: list[BotVersion]) -> None:
    page = act(admin_client, "enable", pair[0]).content.decode()
    assert "Version alice/alpha v1 is active, not disabled; nothing to re-enable" in page
    assert stored(pair[0]) == ("active", "")


def test_retiring_a_version_takes_it_out_of_its_seasons(admin_client: Client, pair: list[BotVersion]) -> None:
    page = act(admin_client, "retire", pair[0]).content.decode()
    assert "Retired: 1 bot version." in page
    assert stored(pair[0]) == ("retired", "retired by an operator")
    assert entries_active(pair[0]) == [False]
    page = act(admin_client, "retire", pair[0]).content.decode()
    assert "is retired and does not play; nothing to retire" in page


def test_every_action_is_logged_in_the_admin_history(admin_client: Client, pair: list[BotVersion]) -> None:
    act(admin_client, "retire", pair[0])
    history = admin_client.get(reverse("admin:bots_botversion_history", args=[pair[0].pk])).content.decode()
    assert "Retired" in history


@pytest.mark.parametrize("action", ["disable", "enable", "retire"])
def test_a_user_who_is_not_staff_cannot_run_version_actions(
    member_client: Client, pair: list[BotVersion], action: str
) -> None:
    data = {"action": action, "_selected_action": [pair[0].pk], "apply": "1", "reason": "because"}
    response = member_client.post(reverse(CHANGELIST), data)
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
    assert stored(pair[0]) == ("active", "")
    assert Client().post(reverse(CHANGELIST), data).status_code == 302  # anonymous: to the login page too
    assert stored(pair[0]) == ("active", "")


def test_selecting_every_version_across_pages_disables_them_all(admin_client: Client, pair: list[BotVersion]) -> None:
    """ "Select all N" posts one page's ids and select_across; the reason page must carry it through."""
    page = act(admin_client, "disable", pair[0], select_across="1").content.decode()
    assert 'name="select_across" value="1"' in page
    act(admin_client, "disable", pair[0], select_across="1", apply="Disabled", reason="season-wide ban")
    assert [stored(v) for v in pair] == [("disabled", "season-wide ban")] * 2
