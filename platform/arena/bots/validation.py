"""The validation series: a new version plays the reference bot once before it may enter a season.

:func:`validate_version` sends a two-game series per game the version plays,
between its stored archive and the game's reference random bot (packed into
the artifact store like any archive; alone, for a game only one player
plays; a team game's version once in each role it plays, the reference bot
in every other seat), to the match workers on the
``matches`` queue: the platform never runs bot code itself. Each result
comes back to :func:`record_validation` on the platform queue, which keeps
the series whole (:class:`ValidationRun`, the version's validation page) and
records the verdict with :func:`arena.bots.submissions.mark_validation_result`:

* the series completed and the version forfeited no game: ``active`` once
  every game it plays has passed;
* the version forfeited a game: ``failed_validation``, and the owner reads
  which game, which of its moves and why (``validation series: game 1, its
  move 3: illegal_action: ...``).

Whatever is not the version's fault leaves it in ``validating``: a sandbox
that never started a bot is retried by the match worker, and
:class:`ReferenceBotFailure` (the reference bot forfeited, which says more
about the host than about the version) is raised; the beat's
``revalidate_stale`` sends the validation again later. Without a broker both
halves run at once in the caller, as before.
"""

from __future__ import annotations

import secrets
import tempfile
import uuid
from dataclasses import asdict
from pathlib import Path
from typing import Any

import engines
from arena.bots.artifacts import TAR_GZ, archive_url, pack_directory, store_archive
from arena.bots.models import BotVersion, ValidationRun
from arena.bots.submissions import mark_validation_result
from arena.tasking import is_running, send
from bots.provided import reference
from engines.result import GameRecord, SeriesResult
from engines.teams import GM
from workers.botpkg import file_sha256
from workers.referee import TimeControl
from workers.tasks import run_series_task

#: Games in the validation series: each seat once.
VALIDATION_GAMES = 2
#: The version plays as series player 0, the reference bot as player 1 (a team game's GM: the last).
VERSION_PLAYER = 0


class UnsupportedGameError(ValueError):
    """A version of a game that validation cannot run yet."""


class ReferenceBotFailure(RuntimeError):
    """The reference bot forfeited the validation series: not the version's fault, retried."""


def validation_games(version: BotVersion) -> list[str]:
    """Return the games ``version`` is validated in: every game its bot.toml lists (the flagship when none)."""
    games = list(version.games) or [engines.flagship()]
    known = [game for game in games if game in engines.names()]
    if known:
        return known
    raise UnsupportedGameError(
        f"{version} plays {', '.join(games)}; validation series run only for {', '.join(engines.names())}"
    )


def validation_units(version: BotVersion) -> list[tuple[str, str]]:
    """Return the ``(game, role)`` validation series ``version`` must pass: a team game's once per role it plays.

    The role is "" for a game without roles.
    """
    return [
        (game, role)
        for game in validation_games(version)
        for role in validation_kind(game).validation_roles()
        if not role or version.plays_role(role)
    ]


def validation_kind(game: str) -> engines.Kind:
    """Return the kind of ``game``'s validation series: against one reference bot, or alone in a solo-only game."""
    declared = engines.declaration(game)
    return declared.kind(min(2, declared.game.info.max_players))


def unit_name(game: str, role: str) -> str:
    """Return a validation series' name in a status reason: the game, and a team game's role."""
    return f"{game} as {role}" if role else game


def version_player(game: str, role: str, players: int) -> int:
    """Return the series player a version under validation sits as: the GM's seat (the last) in the gm role."""
    return players - 1 if role == GM else VERSION_PLAYER


def validate_version(version_id: int) -> BotVersion:
    """Send the validation series of version ``version_id`` to the match workers; return the version as stored.

    The platform never plays a series itself: each game's validation series
    goes to the ``matches`` queue like any other, and its result comes back
    to :func:`record_validation` (``arena.record_validation`` on the platform
    queue). Without a broker the two run at once in this process, so the
    version returned already carries its verdict. Raises
    :class:`UnsupportedGameError` for a game with no validation yet and
    BotVersion.DoesNotExist for an unknown id.
    """
    from celery import chain

    from arena.bots.tasks import record_validation_task

    version = BotVersion.objects.select_related("bot").get(pk=version_id)
    if version.status != BotVersion.Status.VALIDATING:
        return version  # already decided: a repeated task plays nothing
    for game, role in validation_units(version):
        spec = validation_spec(version, game, role)
        if run_series_task.app.conf.task_always_eager or is_running():
            send(chain(run_series_task.s(spec).set(queue="matches"), record_validation_task.s().set(queue="platform")))
        else:
            task_id = f"validation-{version.pk}-{uuid.uuid4().hex[:12]}"
            run_series_task.apply_async((dict(spec, deliver=True),), queue="matches", task_id=task_id)
    version.refresh_from_db()
    return version


def validation_spec(version: BotVersion, game: str, role: str = "") -> dict[str, Any]:
    """Return the self-contained spec of ``version``'s validation series in ``game`` against its reference bot.

    A game only one player plays (a solo game) has the version play alone. In
    a team game the version takes ``role`` (the first player seat, or the GM
    seat) in the fewest seats the game has with a GM seat, and the reference
    bot every other seat; the series is as many games as player seats.
    """
    mine = {
        "version_id": version.pk,
        "name": f"{version.bot.name} v{version.number}",
        "sha256": version.archive_sha256,
        "archive": archive_url(version.archive_sha256, version.archive_format),
    }
    seat_count, player, games = validation_kind(game).validation_series(role, VALIDATION_GAMES)
    reference: dict[str, Any] = {}
    if seat_count > 1:
        reference_sha, _reference_path = reference_archive(game)
        reference = {
            "version_id": None,
            "name": "reference random bot",
            "sha256": reference_sha,
            "archive": archive_url(reference_sha, TAR_GZ),
        }
    seats = [mine if seat == player else dict(reference) for seat in range(seat_count)]
    return {
        "series_id": None,
        # A team game's role and the seat the version takes in it; other games keep their spec as it was.
        "validation": {"version_id": version.pk, "game": game, **({"role": role, "player": player} if role else {})},
        "result_task": "arena.record_validation",
        "game": game,
        "rules_version": engines.get(game).info.rules_version,
        "config": {},
        "chance": secrets.token_hex(32),  # fresh for each validation series (workers/chance.py)
        "games": games,
        "time_control": asdict(TimeControl()),
        "seats": seats,
    }


def reference_archive(game: str) -> tuple[str, Path]:
    """Return (sha256, path) of ``game``'s reference bot packed into the artifact store (packed once)."""
    with tempfile.TemporaryDirectory(prefix="arena-reference-") as work:
        provided = reference(game)
        packed = pack_directory(provided.packages[provided.validation_bot], Path(work) / "reference.tar.gz")
        digest = file_sha256(packed)
        return digest, store_archive(packed, digest, TAR_GZ)


def record_validation(outcome: dict[str, Any]) -> BotVersion:
    """Take one game's validation series result from a match worker and record the version's verdict.

    A failed game fails the version at once; it becomes active when every game
    it plays has passed. A result for a version no longer validating changes
    nothing. Raises :class:`ReferenceBotFailure` when the reference bot
    forfeited, and ``engines.result.ResultFormatError`` for a result the type
    cannot read, which is not kept (either way the version stays validating;
    the beat starts it again).
    """
    about = outcome.get("validation") or {}
    version = BotVersion.objects.select_related("bot").get(pk=about["version_id"])
    game, document = about["game"], outcome["result"]
    role = about.get("role", "")
    if version.status != BotVersion.Status.VALIDATING:
        return version
    ok, reason = verdict(SeriesResult.from_json(document), about.get("player", VERSION_PLAYER))
    # Kept whole for the version's validation page: the games, their replays, its stderr.
    ValidationRun.objects.create(version=version, game=game, role=role, passed=ok, reason=reason, result=document)
    if not ok:
        return mark_validation_result(version, False, f"{unit_name(game, role)}: {reason}")
    passed = {(run.game, run.role): run.reason for run in version.validation_runs.filter(passed=True).order_by("id")}
    units = validation_units(version)
    if all(unit in passed for unit in units):
        return mark_validation_result(version, True, "; ".join(f"{unit_name(*unit)}: {passed[unit]}" for unit in units))
    return version


def forfeit_move(game: GameRecord, player: int) -> str:
    """Return which of its moves ``player`` forfeited on, in words: "its move 3" (its first move is 1)."""
    made = game.stat(player, "moves") or 0
    return f"its move {made + 1}"


def verdict(result: SeriesResult, player: int = VERSION_PLAYER) -> tuple[bool, str]:
    """Return (passed, reason) for a validation series; raise ReferenceBotFailure if the reference bot forfeited.

    ``player`` is the series player the version under test sat as.
    """
    for game in result.games:
        forfeit = game.forfeit
        if forfeit is None:
            continue
        where = (
            f"validation series: game {game.index + 1}, {forfeit_move(game, forfeit.player)}: "
            f"{forfeit.reason}: {forfeit.detail}"
        )
        if forfeit.player == player:
            return False, where
        raise ReferenceBotFailure(f"the reference bot forfeited, not the version under test ({where})")
    played = len(result.games)
    planned = result.games_planned
    if played != planned:
        raise ReferenceBotFailure(f"the validation series ended after {played} of {planned} games")
    against = "against the reference bot" if result.num_players > 1 else "played alone"
    return True, f"passed the validation series ({played} games {against})"
