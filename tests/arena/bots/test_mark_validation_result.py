"""mark_validation_result: a validated version becomes the bot's active one and retires the one before."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from arena.bots import signals
from arena.bots.models import BotVersion
from arena.bots.submissions import ValidationResultError, mark_validation_result

pytestmark = pytest.mark.django_db
Status = BotVersion.Status


def statuses(*versions: BotVersion) -> list[str]:
    for version in versions:
        version.refresh_from_db()
    return [version.status for version in versions]


def test_it_activates_a_version_and_retires_its_predecessor(make_version: Callable[..., Any]) -> None:
    first = make_version("alpha", status=Status.ACTIVE)
    second = make_version("alpha", status=Status.VALIDATING)
    result = mark_validation_result(second, ok=True, reason="played 2 games against random")
    assert result.status == Status.ACTIVE
    assert statuses(first, second) == [Status.RETIRED, Status.ACTIVE]
    assert second.status_reason == "played 2 games against random"
    assert first.status_reason == "replaced by version 2"


def test_it_marks_a_failure_with_the_reason_and_keeps_the_predecessor(make_version: Callable[..., Any]) -> None:
    first = make_version("alpha", status=Status.ACTIVE)
    second = make_version("alpha", status=Status.VALIDATING)
    mark_validation_result(second, ok=False, reason="crash: ImportError: No module named 'numpy'")
    assert statuses(first, second) == [Status.ACTIVE, Status.FAILED_VALIDATION]
    assert second.status_reason == "crash: ImportError: No module named 'numpy'"


def test_it_retires_the_last_active_version_past_a_failed_one(make_version: Callable[..., Any]) -> None:
    first = make_version("alpha", status=Status.ACTIVE)
    second = make_version("alpha", status=Status.FAILED_VALIDATION)
    third = make_version("alpha", status=Status.VALIDATING)
    mark_validation_result(third, ok=True, reason="ok")
    assert statuses(first, second, third) == [Status.RETIRED, Status.FAILED_VALIDATION, Status.ACTIVE]
    assert first.status_reason == "replaced by version 3"


def test_it_leaves_other_bots_alone(make_version: Callable[..., Any]) -> None:
    other = make_version("beta", status=Status.ACTIVE)
    mark_validation_result(make_version("alpha", status=Status.VALIDATING), ok=True, reason="ok")
    assert statuses(other) == [Status.ACTIVE]


def test_it_retires_a_version_that_passes_after_a_newer_one_became_active(make_version: Callable[..., Any]) -> None:
    slow = make_version("alpha", status=Status.VALIDATING)
    fast = make_version("alpha", status=Status.VALIDATING)
    mark_validation_result(fast, ok=True, reason="ok")
    mark_validation_result(slow, ok=True, reason="ok")
    assert statuses(slow, fast) == [Status.RETIRED, Status.ACTIVE]
    assert slow.status_reason == "passed validation after a newer version became active (ok)"


def test_it_changes_nothing_when_told_the_same_result_twice(make_version: Callable[..., Any]) -> None:
    first = make_version("alpha", status=Status.ACTIVE)
    second = make_version("alpha", status=Status.VALIDATING)
    mark_validation_result(second, ok=True, reason="ok")
    mark_validation_result(second, ok=True, reason="ok, again")
    assert statuses(first, second) == [Status.RETIRED, Status.ACTIVE]
    assert second.status_reason == "ok"
    failed = make_version("alpha", status=Status.VALIDATING)
    mark_validation_result(failed, ok=False, reason="timeout")
    mark_validation_result(failed, ok=False, reason="timeout")
    assert statuses(failed) == [Status.FAILED_VALIDATION]


def test_it_refuses_a_result_that_contradicts_the_recorded_one(make_version: Callable[..., Any]) -> None:
    version = make_version("alpha", status=Status.VALIDATING)
    mark_validation_result(version, ok=False, reason="crash")
    with pytest.raises(
        ValidationResultError, match="alice/alpha v1 is failed validation, so it cannot be marked active"
    ):
        mark_validation_result(version, ok=True, reason="ok")
    assert statuses(version) == [Status.FAILED_VALIDATION]


def test_it_keeps_an_operators_disabled_status(make_version: Callable[..., Any]) -> None:
    version = make_version("alpha", status=Status.DISABLED)
    mark_validation_result(version, ok=True, reason="ok")
    assert statuses(version) == [Status.DISABLED]


def test_it_wants_a_reason_for_a_failure(make_version: Callable[..., Any]) -> None:
    version = make_version("alpha", status=Status.VALIDATING)
    with pytest.raises(ValueError, match="a failed validation needs a reason"):
        mark_validation_result(version, ok=False, reason=" ")


def test_it_announces_the_activation_with_the_retired_versions_once_committed(
    make_version: Callable[..., Any], django_capture_on_commit_callbacks: Any
) -> None:
    first = make_version("alpha", status=Status.ACTIVE)
    second = make_version("alpha", status=Status.VALIDATING)
    received: list[tuple[BotVersion, list[BotVersion]]] = []

    def receiver(sender: Any, version: BotVersion, retired: list[BotVersion], **kwargs: Any) -> None:
        received.append((version, retired))

    signals.version_activated.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            mark_validation_result(second, ok=True, reason="ok")
            assert received == []
        with django_capture_on_commit_callbacks(execute=True):
            mark_validation_result(make_version("beta", status=Status.VALIDATING), ok=False, reason="crash")
    finally:
        signals.version_activated.disconnect(receiver)
    assert received == [(second, [first])]
    assert list(received[0][0].earlier_versions()) == [first]  # where ratings find the seed


def test_it_lists_the_versions_still_waiting_for_validation(make_version: Callable[..., Any]) -> None:
    from datetime import timedelta

    from arena.bots.submissions import versions_awaiting_validation

    waiting = make_version("alpha", status=Status.VALIDATING)
    make_version("beta", status=Status.ACTIVE)
    later = make_version("gamma", status=Status.VALIDATING)
    assert list(versions_awaiting_validation()) == [waiting, later]
    assert list(versions_awaiting_validation(uploaded_before=timedelta(minutes=10))) == []
    mark_validation_result(waiting, ok=True, reason="ok")
    assert list(versions_awaiting_validation()) == [later]
