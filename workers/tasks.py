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

A bot's own failure is a result (a forfeit inside the document). Only
infrastructure failures raise: a sandbox that could not start and an archive
that cannot be fetched are retried with backoff; a spec this worker cannot
run (an unknown game, another rules version) fails at once.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from celery import shared_task

import engines
from workers import chance, delivery
from workers.artifacts import ArtifactError, LocationError, fetch_archive
from workers.botpkg import BotPackage, load_bot_package
from workers.referee import SandboxFailure, SeriesSpec, TimeControl, run_series
from workers.sandbox import Limits

CACHE_DIR = Path(os.environ.get("ARENA_WORKER_CACHE", Path(tempfile.gettempdir()) / "arena-worker-cache"))


class SpecError(ValueError):
    """A series spec this worker cannot run (not retried)."""


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
    if not isinstance(seats, list) or not seats or (len(seats) == 1 and not engines.declaration(game).plays_solo(1)):
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


@shared_task(
    name="arena.run_series",
    bind=True,
    autoretry_for=(SandboxFailure, ArtifactError),
    retry_backoff=5,
    retry_backoff_max=300,
    max_retries=5,
)
def run_series_task(self: Any, spec: dict[str, Any]) -> dict[str, Any]:
    """Run the series ``spec`` describes; return ``{"series_id", "result"}`` (the result holds the replay).

    With ``"deliver": true`` in the spec (the platform sends that with a broker)
    the worker publishes the result to the platform itself, keeping it in its
    outbox if the broker refuses (workers/delivery.py); while it plays, it holds
    the series' lease.
    """
    broker = "" if self.app.conf.task_always_eager else str(self.app.conf.broker_url or "")
    if spec.get("deliver") and broker:
        delivery.flush_outbox(self.app, CACHE_DIR)
    with delivery.lease(broker, spec.get("series_id")):
        document = run_series(spec_from_json(spec))
    outcome = {"series_id": spec.get("series_id"), "result": document}
    for key in ("validation", "result_task"):  # a validation series: which version, and the task that takes it
        if key in spec:
            outcome[key] = spec[key]
    if spec.get("deliver") and broker:
        delivery.deliver(self.app, outcome, CACHE_DIR)
    return outcome
