"""The beat's safety net for validations whose start was lost: versions stuck in ``validating`` are validated again."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from arena.bots.models import BotVersion
from arena.bots.submissions import submit_version
from arena.bots.tasks import revalidate_stale_task

REPO = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.django_db


def test_a_version_whose_validation_never_started_is_validated_by_the_beat(user: Any, artifact_dir: Path) -> None:
    # No commit in this test: the on-commit start of the validation never runs, as with a broker that was down.
    stuck = submit_version(user, "lost", REPO / "bots" / "watch" / "packages" / "random")
    fresh = submit_version(user, "fresh", REPO / "bots" / "watch" / "packages" / "random")
    BotVersion.objects.filter(pk=stuck.pk).update(uploaded_at=timezone.now() - timedelta(minutes=11))

    assert revalidate_stale_task(older_than_s=600) == [stuck.pk]  # eager here: it validated in this call

    stuck.refresh_from_db()
    fresh.refresh_from_db()
    assert stuck.status == BotVersion.Status.ACTIVE
    assert fresh.status == BotVersion.Status.VALIDATING  # too recent: its own start may still be on its way
    assert revalidate_stale_task(older_than_s=600) == []
