"""Platform-queue task: the validation series of a newly submitted version (arena.bots.validation)."""

from __future__ import annotations

from celery import shared_task

from arena.bots.validation import ReferenceBotFailure
from workers.referee import SandboxFailure


@shared_task(
    name="arena.validate_version",
    autoretry_for=(SandboxFailure, ReferenceBotFailure),
    retry_backoff=5,
    retry_backoff_max=300,
    max_retries=5,
)
def validate_version_task(version_id: int) -> str:
    """Play version ``version_id``'s validation series and record the verdict; return its status."""
    from arena.bots.validation import validate_version

    return validate_version(version_id).status
