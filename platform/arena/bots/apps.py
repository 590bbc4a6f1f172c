from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class BotsConfig(AppConfig):
    name = "arena.bots"
    label = "bots"
    verbose_name = "Bots"

    def ready(self) -> None:
        from arena.bots import signals

        signals.version_submitted.connect(enqueue_validation, dispatch_uid="arena.bots.enqueue_validation")


def enqueue_validation(sender: Any, version: Any, **kwargs: Any) -> None:
    """Queue the validation series of a submitted version once the current transaction (if any) commits.

    Robust: the submission is already committed, so a broker that is down (or, with
    no broker, a validation that raised in-process) must not fail the request that
    submitted; the version stays ``validating`` and
    ``arena.bots.submissions.versions_awaiting_validation`` finds it again.
    """
    from django.db import transaction

    from arena.bots.tasks import validate_version_task
    from arena.tasking import send

    transaction.on_commit(lambda: send(validate_version_task.s(version.pk)), robust=True)
