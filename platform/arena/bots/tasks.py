"""Platform-queue tasks: a new version's validation series (arena.bots.validation); the beat retries lost ones."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from celery import shared_task

from arena.bots.validation import ReferenceBotFailure
from arena.tasking import RETRY_WHILE_THE_DATABASE_IS_DOWN, send
from workers.referee import SandboxFailure
from workers.tasks import retry_when_the_sandbox_fails


@shared_task(
    name="arena.validate_version",
    **retry_when_the_sandbox_fails(SandboxFailure, ReferenceBotFailure),
)
def validate_version_task(version_id: int) -> str:
    """Send version ``version_id``'s validation series to the match workers; return its status (final in-process)."""
    from arena.bots.validation import validate_version

    return validate_version(version_id).status


@shared_task(
    name="arena.record_validation",
    **RETRY_WHILE_THE_DATABASE_IS_DOWN,
)
def record_validation_task(outcome: dict[str, Any]) -> str:
    """Record one game's validation series result from a match worker; return the version's status."""
    from arena.bots.validation import record_validation

    return record_validation(outcome).status


@shared_task(name="arena.revalidate_stale")
def revalidate_stale_task(older_than_s: int = 600, limit: int = 50) -> list[int]:
    """Start the validation again of versions still validating ``older_than_s`` after upload; return their ids.

    The upload starts a validation once, on commit; if the broker was down then,
    or the task gave up after its retries, the version would wait for ever.
    A validation that is merely slow is harmless to start twice: the second run
    finds the verdict recorded and plays nothing.
    """
    from arena.bots.submissions import versions_awaiting_validation

    stale = list(versions_awaiting_validation(timedelta(seconds=older_than_s)).values_list("pk", flat=True)[:limit])
    for version_id in stale:
        send(validate_version_task.s(version_id))
    return stale
