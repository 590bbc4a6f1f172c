"""The validation series: a new version plays the reference bot once before it may enter a season.

:func:`validate_version` runs a two-game series in the real sandbox between
the stored archive of a version in ``validating`` and the reference random
bot of its game (bots/watch/packages/random), then records the verdict with
:func:`arena.bots.submissions.mark_validation_result`:

* the series completed and the version forfeited no game: ``active``;
* the version forfeited a game: ``failed_validation``, and the owner reads
  which game, which of its moves and why (``validation series: game 1, its
  move 3: illegal_action: ...``); the whole series is kept as a
  :class:`ValidationRun` for the version's validation page.

Whatever is not the version's fault leaves it in ``validating`` and raises,
so the task (arena.bots.tasks) can try again: a
:class:`workers.referee.SandboxFailure` (the sandbox never started a bot),
and :class:`ReferenceBotFailure` (the reference bot forfeited, which says
more about the host than about the version). A version no longer in
``validating`` (a repeated task) is returned unchanged, without a series.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from arena.bots.artifacts import archive_path
from arena.bots.models import BotVersion, ValidationRun
from arena.bots.submissions import mark_validation_result
from workers.botpkg import load_bot_package
from workers.referee import SeriesSpec, TimeControl, run_series
from workers.sandbox import REPO_ROOT

#: The reference bot a version of each game is validated against.
REFERENCE_PACKAGES = {
    "watch": REPO_ROOT / "bots" / "watch" / "packages" / "random",
    "watch_race": REPO_ROOT / "bots" / "watch_race" / "packages" / "random",
}
#: Games in the validation series: each seat once.
VALIDATION_GAMES = 2
#: The version plays as series player 0, the reference bot as player 1.
VERSION_PLAYER = 0


class UnsupportedGameError(ValueError):
    """A version of a game that validation cannot run yet."""


class ReferenceBotFailure(RuntimeError):
    """The reference bot forfeited the validation series: not the version's fault, retried."""


def validation_games(version: BotVersion) -> list[str]:
    """Return the games ``version`` is validated in: every game its bot.toml lists (Watch when none)."""
    games = list(version.games) or ["watch"]
    known = [game for game in games if game in REFERENCE_PACKAGES]
    if known:
        return known
    raise UnsupportedGameError(
        f"{version} plays {', '.join(games)}; validation series run only for "
        f"{', '.join(sorted(REFERENCE_PACKAGES))} so far"
    )


def validate_version(version_id: int) -> BotVersion:
    """Play the validation series of version ``version_id`` and record the verdict; return the version as stored.

    Raises :class:`workers.referee.SandboxFailure` or :class:`ReferenceBotFailure`
    (the version stays ``validating``), :class:`UnsupportedGameError` for a game
    with no validation yet, and BotVersion.DoesNotExist for an unknown id.
    """
    version = BotVersion.objects.select_related("bot").get(pk=version_id)
    if version.status != BotVersion.Status.VALIDATING:
        return version  # already decided: a repeated task plays nothing
    reasons = []
    for game in validation_games(version):
        document = play_validation_series(version, game)
        ok, reason = verdict(document)
        # Kept whole for the version's validation page: the games, their replays, its stderr.
        ValidationRun.objects.create(version=version, game=game, passed=ok, reason=reason, result=document)
        if not ok:
            return mark_validation_result(version, False, f"{game}: {reason}")
        reasons.append(f"{game}: {reason}")
    return mark_validation_result(version, True, "; ".join(reasons))


def play_validation_series(version: BotVersion, game: str) -> dict[str, Any]:
    """Run the validation series of ``version`` against the reference bot of ``game``; return its result document."""
    with tempfile.TemporaryDirectory(prefix="arena-validation-") as work:
        package = load_bot_package(archive_path(version.archive_sha256, version.archive_format), Path(work))
        reference = load_bot_package(REFERENCE_PACKAGES[game], Path(work))
        spec = SeriesSpec(
            bots=[package, reference],
            game=game,
            games=VALIDATION_GAMES,
            seed=version.pk,
            time_control=TimeControl(),
            sandbox="bwrap",
        )
        return run_series(spec)  # the sandbox copies the bots, so the unpacked copy can go afterwards


def forfeit_move(game: dict[str, Any], player: int) -> str:
    """Return which of its moves ``player`` forfeited on, in words: "its move 3" (its first move is 1)."""
    made = game.get("stats", {}).get(str(player), {}).get("moves") or 0
    return f"its move {made + 1}"


def verdict(document: dict[str, Any]) -> tuple[bool, str]:
    """Return (passed, reason) for a validation series' result document; raise ReferenceBotFailure if it forfeited."""
    for game in document["games"]:
        forfeit = game.get("forfeit")
        if forfeit is None:
            continue
        where = (
            f"validation series: game {game['index'] + 1}, {forfeit_move(game, forfeit['player'])}: "
            f"{forfeit['reason']}: {forfeit['detail']}"
        )
        if forfeit["player"] == VERSION_PLAYER:
            return False, where
        raise ReferenceBotFailure(f"the reference bot forfeited, not the version under test ({where})")
    played = len(document["games"])
    if played != VALIDATION_GAMES:
        raise ReferenceBotFailure(f"the validation series ended after {played} of {VALIDATION_GAMES} games")
    return True, f"passed the validation series ({played} games against the reference bot)"
