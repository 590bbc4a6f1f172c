"""With a broker, the platform never plays a validation series: it goes to the match workers like any series.

The upload's validation task sends a ``run_series`` message to the ``matches``
queue in Redis (its task id names the version) and starts no sandbox in the
platform's process; the match worker's result, handed to
``arena.record_validation``, decides the version.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
import redis

from arena.bots.models import BotVersion
from arena.bots.submissions import submit_version
from arena.bots.tasks import record_validation_task, validate_version_task
from tests.arena.matchmaking.test_lost_series import broker  # noqa: F401  (the fixture)
from workers import sandbox

pytestmark = pytest.mark.django_db(transaction=True)
RANDOM = Path(__file__).resolve().parents[3] / "bots" / "watch" / "packages" / "random"


def test_the_platform_sends_the_validation_to_the_match_workers_and_records_their_result(
    broker: redis.Redis,  # noqa: F811
    user: Any,
    artifact_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_sandbox_here(*args: Any, **kwargs: Any) -> list[str]:
        pytest.fail("the platform started a sandbox")

    monkeypatch.setattr(sandbox, "bwrap_command", no_sandbox_here)
    version = submit_version(user, "queued-bot", RANDOM)  # its validation task sent on commit
    (sent,) = broker.lrange("platform", 0, -1)
    assert json.loads(sent)["headers"]["task"] == "arena.validate_version"
    assert validate_version_task.run(version.pk) == "validating"  # what the platform worker does with it
    (raw,) = broker.lrange("matches", 0, -1)
    message = json.loads(raw)
    assert message["headers"]["task"] == "arena.run_series"
    assert message["headers"]["id"].startswith(f"validation-{version.pk}-")
    spec = json.loads(base64.b64decode(message["body"]))[0][0]
    assert spec["validation"] == {"version_id": version.pk, "game": "watch"}
    assert spec["result_task"] == "arena.record_validation"
    assert spec["deliver"] is True
    assert spec["seats"][0]["sha256"] == version.archive_sha256
    assert Path(spec["seats"][1]["archive"].removeprefix("file://")).is_file()  # the reference bot, stored

    # What the match worker does with it, then the platform task its result goes to.
    monkeypatch.undo()
    from workers.tasks import run_series_task

    outcome = run_series_task.run(dict(spec, deliver=False))
    assert outcome["result_task"] == "arena.record_validation"
    assert record_validation_task.run(outcome) == "active"
    version.refresh_from_db()
    assert version.status == BotVersion.Status.ACTIVE
    assert version.validation_runs.get().passed
