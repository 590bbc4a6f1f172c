"""The match worker's task: run one series from a self-contained spec, return its result document.

The spec is plain JSON (docs/architecture.md has an example): ids, the game
and its rules version, config, the series' chance secret (``chance``, 64 hex
digits: workers/chance.py; it never reaches a bot or the result), games, time
control, limits, and per seat
the bot version's archive sha256 and where to fetch it (a signed URL of the
platform's artifact store, workers/artifacts.py). The worker verifies each
archive's sha256, caches it by that sha256, unpacks it once per worker process, runs the series in
the sandbox and returns ``{"series_id": ..., "result": document}``. It never
touches the database; the platform records the result.

A bot's own failure is a result (a forfeit inside the document). Anything
else raises. In-process (the embedded default, the CLI's tests) a sandbox that
could not start and an archive that cannot be fetched are retried with
backoff. On a match worker (a spec with ``"deliver"``) the series goes back to
the queue for another worker instead, and the failure is judged by
workers/health.py: one of the worker's own (:data:`INFRASTRUCTURE_ERRORS`: its
disk, its sandbox, the artifact store, a result it could not deliver) may take
the worker out of the queue; a series that fails too often is given up and
reported failed.
"""

from __future__ import annotations

import errno
import os
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from celery import shared_task
from celery.exceptions import Reject

import engines
from workers import chance, delivery, health
from workers.artifacts import ArtifactError, LocationError, fetch_archive
from workers.botpkg import BotPackage, load_bot_package
from workers.referee import SandboxFailure, SeriesSpec, TimeControl, play_series
from workers.sandbox import Limits, SandboxError

CACHE_DIR = Path(os.environ.get("ARENA_WORKER_CACHE", Path(tempfile.gettempdir()) / "arena-worker-cache"))


class SpecError(ValueError):
    """A series spec this worker cannot run (not retried)."""


class SeriesGivenUp(RuntimeError):
    """A series that failed on the match workers as often as they try one (never retried: reported failed)."""


#: Failures of the worker's own, not the bot's nor the spec's: its disk (ENOSPC and the like), its
#: sandbox, the artifact store it fetches from, a result it could neither publish nor keep.
INFRASTRUCTURE_ERRORS = (OSError, SandboxFailure, SandboxError, ArtifactError, delivery.UndeliveredResult)
#: Error numbers that are the machine's, wherever they surface: unpacking a bot onto a full disk is
#: reported as a damaged archive (BotPackageError) whose context is the OSError.
MACHINE_ERRNOS = frozenset(
    {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO, errno.ENOMEM, errno.EMFILE, errno.ENFILE}
)


def own_failure(exc: BaseException) -> bool:
    """True if ``exc`` is the worker's own failure: :data:`INFRASTRUCTURE_ERRORS`, or caused by a machine error."""
    if isinstance(exc, INFRASTRUCTURE_ERRORS):
        return True
    seen: set[int] = set()
    cause = exc.__cause__ or exc.__context__
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, OSError) and cause.errno in MACHINE_ERRNOS:
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


_PACKAGES: dict[str, BotPackage] = {}


def fetch_package(location: str, sha256: str) -> BotPackage:
    """Return the unpacked bot whose archive at ``location`` must have content hash ``sha256``.

    ``location`` is a signed http(s) URL from the platform, or a file:// URL or
    path on a shared volume (workers/artifacts.py); archives and unpacked bots
    are cached by sha256.
    """
    if sha256 in _PACKAGES:
        return _PACKAGES[sha256]
    try:
        path = fetch_archive(location, sha256, CACHE_DIR)
    except LocationError as exc:
        raise SpecError(str(exc)) from None
    work_dir = CACHE_DIR / sha256
    work_dir.mkdir(parents=True, exist_ok=True)
    package = load_bot_package(path, work_dir)
    _PACKAGES[sha256] = package
    return package


def spec_from_json(spec: dict[str, Any]) -> SeriesSpec:
    """Return the referee's spec for a series spec from the platform."""
    game = spec.get("game")
    if game not in engines.names():
        raise SpecError(f"this worker has no engine {game!r}; it has {', '.join(engines.names())}")
    rules = engines.get(game).info.rules_version
    if str(spec.get("rules_version")) != rules:
        raise SpecError(f"{game} rules version {spec.get('rules_version')!r} asked, this worker has {rules!r}")
    seats = spec.get("seats")
    if not isinstance(seats, list) or len(seats) < engines.declaration(game).kind(len(seats)).min_seats:
        raise SpecError(f"a series spec of {game} needs a list of at least two seats")
    try:
        secret = chance.from_hex(spec.get("chance"))
    except chance.SecretError as exc:
        raise SpecError(f"the series spec's chance: {exc}") from None
    bots = [fetch_package(seat["archive"], seat["sha256"]) for seat in seats]
    return SeriesSpec(
        bots=bots,
        game=game,
        config=dict(spec.get("config") or {}),
        games=int(spec["games"]),
        secret=secret,
        time_control=TimeControl(**spec.get("time_control", {})),
        limits=Limits(**spec.get("limits", {})),
        sandbox=spec.get("sandbox", "bwrap"),
    )


def retry_when_the_sandbox_fails(*errors: type[Exception]) -> dict[str, Any]:
    """Return Celery's options to retry ``errors`` (a sandbox that could not start, an archive not fetched).

    Five tries more, the first after about 5 s, backing off to 5 minutes apart: a
    passing failure of the machine heals in that time, a lasting one is reported.
    """
    return {"autoretry_for": errors, "retry_backoff": 5, "retry_backoff_max": 300, "max_retries": 5}


@shared_task(
    name="arena.run_series",
    bind=True,
    **retry_when_the_sandbox_fails(SandboxFailure, ArtifactError),
)
def run_series_task(self: Any, spec: dict[str, Any]) -> dict[str, Any]:
    """Run the series ``spec`` describes; return ``{"series_id", "result"}`` (the result holds the replay).

    With ``"deliver": true`` in the spec (the platform sends that with a broker)
    the worker publishes the result to the platform itself, keeping it in its
    outbox if the broker refuses (workers/delivery.py); while it plays and
    delivers, it holds the series' lease. A failure there is judged by
    workers/health.py: the message goes back to the queue (``Reject`` with
    ``requeue``), or, the series given up, the task fails and the message is
    acknowledged. The retries of the decorator are for in-process runs only.
    """
    broker = "" if self.app.conf.task_always_eager else str(self.app.conf.broker_url or "")
    if not (spec.get("deliver") and broker):
        return play(spec)
    # The lease is held until the result is in the stream (or the outbox): the platform's
    # inventory never finds the series both unleased and without its result on the way.
    with delivery.lease(broker, spec.get("series_id")):
        try:
            delivery.flush_outbox(self.app, CACHE_DIR)  # a disk that fails here is judged like any failure
            outcome = play(spec)
            delivery.deliver(self.app, outcome, CACHE_DIR)
        except Exception as exc:
            verdict = health.judge_failure(
                self.app, self.request.hostname or "", spec, self.request.id or "", exc, own_failure(exc), CACHE_DIR
            )
            if not verdict.requeue:  # given up and reported failed: the task fails, the message is acknowledged
                raise SeriesGivenUp(f"given up after {verdict.tries} tries: {health.describe(exc)}") from exc
            time.sleep(verdict.pause_s)
            raise Reject(health.describe(exc), requeue=True) from exc
    health.series_played(self.app, self.request.hostname or "", spec, self.request.id or "")
    return outcome


def play(spec: dict[str, Any]) -> dict[str, Any]:
    """Run the series ``spec`` describes; return ``{"series_id", "result"}`` plus what names a validation.

    The document says when this worker started the series (``started_at``, seconds since the epoch on
    the worker's clock): the platform records it as the series' start, the end of its wait in the queue.
    """
    started_at = time.time()
    result = replace(play_series(spec_from_json(spec)), started_at=round(started_at, 3))
    outcome = {"series_id": spec.get("series_id"), "result": result.to_json()}
    for key in ("validation", "result_task"):  # a validation series: which version, and the task that takes it
        if key in spec:
            outcome[key] = spec[key]
    return outcome
