"""Each retry policy is written once, and every task that retries uses one of them."""

from __future__ import annotations

from typing import Any

import pytest

from arena.bots.tasks import record_validation_task, validate_version_task
from arena.results.tasks import drain_results_task, record_series_result_task
from arena.tasking import DATABASE_DOWN, RETRY_WHILE_THE_DATABASE_IS_DOWN
from workers.tasks import retry_when_the_sandbox_fails, run_series_task

SANDBOX = retry_when_the_sandbox_fails()


def timing(options: dict[str, Any]) -> tuple[Any, Any, Any]:
    return options["retry_backoff"], options["retry_backoff_max"], options["max_retries"]


@pytest.mark.parametrize("task", [record_series_result_task, drain_results_task, record_validation_task])
def test_a_task_that_writes_results_waits_out_the_database(task: Any) -> None:
    assert (task.retry_backoff, task.retry_backoff_max, task.max_retries) == timing(RETRY_WHILE_THE_DATABASE_IS_DOWN)
    assert set(task.autoretry_for) == set(DATABASE_DOWN)


@pytest.mark.parametrize("task", [validate_version_task, run_series_task])
def test_a_task_that_plays_retries_a_sandbox_that_could_not_start(task: Any) -> None:
    assert (task.retry_backoff, task.retry_backoff_max, task.max_retries) == timing(SANDBOX)
