"""A version's validation series: its games with replays, the verdict, and the version's stderr for its owner."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from arena.bots.models import Bot, BotVersion
from arena.bots.validation import version_player
from arena.web import replays
from arena.web.access import owns_or_staff, private_players
from arena.web.views.series import game_view, score_view
from engines.result import SeriesResult

REFERENCE_NAME = "the reference random bot"


def run_view(
    run: Any, result: SeriesResult, version_name: str, private: bool, secrets: Collection[int] = ()
) -> dict[str, Any]:
    """Return one validation run (its series ``result``) as the page shows it; its stderr only when ``private``.

    ``secrets``: the players whose hidden cards the page shows (arena.web.access.private_players).
    """
    names = [REFERENCE_NAME] * result.num_players
    mine = version_player(run.game, run.role, len(names))
    names[mine] = version_name
    log = result.stderr_of(mine) if private else None
    games = [game_view(result, game, names, secrets) for game in result.games]
    for game in games:  # one page may show several runs: each replay needs its own element id
        game["viewer"]["script_id"] = f"replay-{run.pk}-{game['number']}"
    return {
        "run": run,
        "games": games,
        "score": score_view(result, names),
        "log": log,
    }


def validation(request: HttpRequest, bot_id: int, number: int) -> HttpResponse:
    """Show version ``number`` of bot ``bot_id``'s validation series, one per game it plays."""
    version = get_object_or_404(BotVersion.objects.select_related("bot__owner"), bot_id=bot_id, number=number)
    private = owns_or_staff(request.user, version.bot)
    name = f"{version.bot.name} v{version.number}"
    runs = []
    for run in version.validation_runs.all():
        result = SeriesResult.from_json(run.result)
        bots: list[Bot | None] = [None] * result.num_players
        bots[version_player(run.game, run.role, len(bots))] = version.bot  # the reference bots' seats are nobody's
        runs.append(run_view(run, result, name, private, private_players(request.user, bots)))
    games = sorted({run["run"].game for run in runs})
    scripts = [script for script in map(replays.script_for, games) if script]
    styles = [style for style in map(replays.style_for, games) if style]
    return render(
        request,
        "web/validation.html",
        {
            "version": version,
            "bot": version.bot,
            "name": name,
            "runs": runs,
            "private": private,
            "viewer_scripts": scripts,
            "viewer_styles": styles,
        },
    )
