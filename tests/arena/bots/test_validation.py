"""The validation series: a submitted version plays the reference bot in the real sandbox before it is active.

Celery runs eagerly here (no broker): the task that ``version_submitted``
queues on commit plays the series in this process.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from celery.exceptions import Retry

from arena.bots.models import BotVersion
from arena.bots.submissions import mark_validation_result, submit_version
from arena.bots.validation import ReferenceBotFailure, record_validation, validate_version, verdict
from arena.seasons.models import Season, SeasonEntry
from engines.result import ResultFormatError, SeriesResult
from tests.results import game_document, result_document
from workers import sandbox
from workers.referee import SandboxFailure

REPO = Path(__file__).resolve().parents[3]
RANDOM = REPO / "bots" / "watch" / "packages" / "random"
Status = BotVersion.Status

pytestmark = pytest.mark.django_db

ILLEGAL_BOT = "from bots.sdk import run\nrun(lambda observation, legal: -1)\n"
IMPORT_CRASH_BOT = "raise RuntimeError('broken at import')\n"


def submitted(user: Any, source: Path, bot: str = "my-bot") -> BotVersion:
    version = submit_version(user, bot, source)
    assert version.status == Status.VALIDATING
    return version


def test_a_good_bot_becomes_active_and_retires_its_predecessor(user: Any, artifact_dir: Path) -> None:
    first = submitted(user, RANDOM)
    mark_validation_result(first, True, "")
    second = submitted(user, RANDOM)

    validated = validate_version(second.pk)

    assert validated.status == Status.ACTIVE
    assert "passed the validation series" in validated.status_reason
    first.refresh_from_db()
    assert first.status == Status.RETIRED
    assert first.status_reason == "replaced by version 2"


def test_a_bot_answering_an_illegal_action_fails_with_the_forfeit_shown(
    user: Any, artifact_dir: Path, write_bot: Callable[..., Path]
) -> None:
    version = submitted(user, write_bot(main=ILLEGAL_BOT))

    validated = validate_version(version.pk)

    assert validated.status == Status.FAILED_VALIDATION
    assert re.match(r"watch: validation series: game 1, its move \d+: illegal_action: \S", validated.status_reason)
    (run,) = validated.validation_runs.all()  # the whole series is kept for the validation page
    assert (run.game, run.passed, run.reason) == ("watch", False, validated.status_reason.removeprefix("watch: "))
    assert run.result["games"][0]["forfeit"]["reason"] == "illegal_action"


def test_a_bot_that_raises_at_import_fails_as_a_crash(
    user: Any, artifact_dir: Path, write_bot: Callable[..., Path]
) -> None:
    version = submitted(user, write_bot(main=IMPORT_CRASH_BOT))

    validated = validate_version(version.pk)

    assert validated.status == Status.FAILED_VALIDATION
    assert validated.status_reason.startswith("watch: validation series: game 1, its move 1: crash: ")
    assert "exited with code 1" in validated.status_reason


def test_a_sandbox_failure_is_not_the_bots_fault(user: Any, artifact_dir: Path, monkeypatch: Any) -> None:
    version = submitted(user, RANDOM)
    real = sandbox.bwrap_command

    def broken(*args: Any, **kwargs: Any) -> list[str]:
        argv = real(*args, **kwargs)
        return [argv[0], "--ro-bind", "/nonexistent-arena-validation", "/broken", *argv[1:]]

    monkeypatch.setattr(sandbox, "bwrap_command", broken)
    # In-process, the match worker's task asks Celery to retry it later (with a broker it would).
    with pytest.raises(Retry) as retry:
        validate_version(version.pk)
    assert isinstance(retry.value.exc, SandboxFailure)
    assert "nonexistent-arena-validation" in str(retry.value.exc)
    version.refresh_from_db()
    assert version.status == Status.VALIDATING
    assert version.status_reason == ""


def test_a_decided_version_plays_no_series_again(user: Any, artifact_dir: Path, monkeypatch: Any) -> None:
    version = submitted(user, RANDOM)
    mark_validation_result(version, False, "operator says no")
    monkeypatch.setattr("arena.bots.validation.validation_spec", pytest.fail)
    assert validate_version(version.pk).status == Status.FAILED_VALIDATION


def test_a_forfeit_by_the_reference_bot_is_retried_not_blamed() -> None:
    forfeit = {"player": 1, "seat": 0, "reason": "decision_timeout", "detail": "no answer within 2000 ms"}
    games = [game_document(0, [0, 1]), game_document(1, [1, 0], forfeit=forfeit)]
    players = [{"name": "mine", "sha256": "a" * 64}, {"name": "reference", "sha256": "b" * 64}]
    document = result_document(players=players, games=games, score={"points": [2.0, 0.0]})
    with pytest.raises(ReferenceBotFailure, match="game 2, its move 1: decision_timeout"):
        verdict(SeriesResult.from_json(document))


def test_a_validation_result_the_type_cannot_read_is_refused_and_not_kept(user: Any, artifact_dir: Path) -> None:
    version = submitted(user, RANDOM)
    players = [{"name": "mine", "sha256": "a" * 64}, {"name": "reference", "sha256": "b" * 64}]
    document = result_document(players=players, games=[game_document(0, [0, 1])], score={"points": [1.0, 0.0]})
    del document["games"][0]["stats"]
    with pytest.raises(ResultFormatError, match=r"result\.games\[0\]\.stats is missing"):
        record_validation({"validation": {"version_id": version.pk, "game": "watch"}, "result": document})
    version.refresh_from_db()
    assert version.status == Status.VALIDATING  # the beat starts its validation again
    assert not version.validation_runs.exists()


def test_submitting_validates_on_commit_and_enters_the_running_season(
    user: Any, artifact_dir: Path, django_capture_on_commit_callbacks: Any
) -> None:
    season = Season.objects.create(name="Validation ladder", game="watch")
    season.transition(Season.Status.RUNNING)

    with django_capture_on_commit_callbacks(execute=True):
        version = submit_version(user, "my-bot", RANDOM)

    version.refresh_from_db()
    assert version.status == Status.ACTIVE
    assert SeasonEntry.objects.filter(season=season, version=version, active=True).exists()


def test_a_failed_submission_is_recorded_on_commit_too(
    user: Any, artifact_dir: Path, write_bot: Callable[..., Path], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        version = submit_version(user, "my-bot", write_bot(main=IMPORT_CRASH_BOT))

    version.refresh_from_db()
    assert version.status == Status.FAILED_VALIDATION
    assert "crash" in version.status_reason


def test_a_watch_race_bot_is_validated_against_the_race_reference_bot(user: Any, artifact_dir: Path) -> None:
    version = submitted(user, REPO / "bots" / "watch_race" / "packages" / "heuristic", bot="race-heuristic")
    validated = validate_version(version.pk)
    assert validated.status == Status.ACTIVE
    assert validated.status_reason == "watch_race: passed the validation series (2 games against the reference bot)"


def test_a_bot_of_both_games_must_pass_both(
    user: Any, artifact_dir: Path, write_bot: Callable[..., Path], tmp_path: Path
) -> None:
    # Plays Watch (the greedy bot's code, which reads a Watch board) but says it plays the race too.
    source = write_bot(main=(REPO / "bots" / "watch" / "packages" / "greedy" / "main.py").read_text())
    (source / "bot.toml").write_text('name = "my-bot"\nentry = "main.py"\ngames = ["watch", "watch_race"]\n')
    validated = validate_version(submitted(user, source).pk)
    assert validated.status == Status.FAILED_VALIDATION
    assert validated.status_reason.startswith("watch_race: validation series: game 1, its move 1: ")
