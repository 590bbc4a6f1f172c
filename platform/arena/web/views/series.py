"""A series page (seats, games, forfeits, the score step by step, replays), its replay download and logs.

A solo series' page explains its score instead: each deal's score, the mean, its interval and title.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from arena.series.models import Series, SeriesSeat
from arena.series.score_ladder import standing_of_series
from arena.web import replays
from arena.web.access import owns_or_staff, private_players, public_document, public_forfeit
from arena.web.deltas import rating_changes
from arena.web.reasons import in_words, reason_words
from arena.web.views.home import game_titles
from engines.result import Action, GameRecord, SeriesResult


def seat_name(seat: SeriesSeat) -> str:
    """Return how a seat's player is named on the page: "bot v3"."""
    return f"{seat.version.bot.name} v{seat.version.number}"


def game_view(
    result: SeriesResult, game: GameRecord, names: list[str], private: Collection[int] = ()
) -> dict[str, Any]:
    """Return one game of a series result as the page shows it: seats, moves, forfeit, moves list, frames.

    Everyone gets the public frames and the moves in public words (a game with hidden information);
    ``private`` names the series players (arena.web.access.private_players) whose seats' private
    layers the page also sends (``data["private"]``, by game seat), and whose forfeit it shows whole.
    """
    game_name = result.game
    rows = [
        {
            "label": replays.seat_label(game_name, seat),
            "player": player,
            "name": names[player] if player < len(names) else f"player {player}",
            "moves": game.stat(player, "moves"),
            "won": player in game.winners,
        }
        for seat, player in enumerate(game.seats)
    ]
    forfeit = None
    if game.forfeit is not None:
        shown = public_forfeit(game_name, game.forfeit, full=game.forfeit.player in private) or game.forfeit
        forfeit = {
            **shown.to_json(),
            "name": names[shown.player] if shown.player < len(names) else "",
            "words": in_words(game_name, shown.reason),
        }
    actions = [action.to_json() for action in game.actions]
    viewer: dict[str, Any] = {"frames": None, "error": None, "script_id": f"replay-{game.index + 1}"}
    parts = None
    try:
        parts = replays.replay_parts(
            game_name,
            dict(result.config),
            len(game.seats),
            [action.action for action in game.actions],
            private_seats=[seat for seat, player in enumerate(game.seats) if player in private],
        )
    except (replays.ReplayError, KeyError, TypeError, ValueError) as exc:
        viewer["error"] = str(exc)
    if parts is not None:
        viewer["frames"] = parts.frames
        if parts.public_moves is not None:
            # The recorded notation of a secret move names the secret: everyone reads the public words.
            actions = [
                action if said is None else {**action, "notation": said, "hidden": True}
                for action, said in zip(actions, parts.public_moves, strict=True)
            ]
    elif replays.has_secret_moves(game_name):
        # The game does not replay, so its public words are unknown: no move of it is shown.
        actions = [{**action, "notation": "a move (hidden)", "hidden": True} for action in actions]
    if viewer["frames"] is not None:
        viewer["data"] = {
            "game": game_name,
            "board": replays.board_for(game_name, dict(result.config)),
            "players": [row["name"] for row in rows],
            "seat_labels": [row["label"] for row in rows],
            "frames": viewer["frames"],
            "moves": [action["notation"] for action in actions],
            "ending": None if forfeit is None else f"{forfeit['name']} forfeited: {forfeit['words']}",
            "reasons": reason_words(game_name),
            # Per ply (frame i + 1 follows action i): the bot's time and, where recorded, its bank left.
            "timings": [_timing(action) for action in game.actions],
        }
        if parts is not None and parts.private:
            # What only these seats saw, per frame: for their bots' owners and staff alone.
            viewer["data"]["private"] = {str(seat): layer for seat, layer in parts.private.items()}
    return {
        "index": game.index,
        "number": game.index + 1,
        "rows": rows,
        "winners": [row["name"] for row in rows if row["won"]],
        "reason": game.reason,
        "reason_words": in_words(game_name, game.reason),
        "forfeit": forfeit,
        "actions": actions,
        "viewer": viewer,
    }


def _timing(action: Action) -> dict[str, float] | None:
    """Return ``{"ms": time used, "bank_ms": bank left}`` of a bot's move (bank where recorded); None for chance."""
    if action.is_chance or action.ms is None:
        return None
    timing = {"ms": float(action.ms)}
    if action.bank_ms is not None:
        timing["bank_ms"] = float(action.bank_ms)
    return timing


def score_view(result: SeriesResult, names: list[str]) -> dict[str, Any]:
    """Return the series score with its steps in players' names, and per-player totals when the game has them.

    A game whose score counts each player's moves per seat keeps them under
    ``<seat label>_totals`` (lower case): one column per such seat, headed with
    the seat's label from the game's declaration.
    """
    score = result.score
    seat_totals = [
        (label, totals)
        for label in replays.seat_labels(result.game)
        if isinstance(totals := score.detail(f"{label.lower()}_totals"), list)
    ]
    players = []
    for index, name in enumerate(names):
        players.append(
            {
                "name": name,
                "points": _at(score.points, index),
                "game_wins": _at(score.game_wins, index),
                "seat_totals": [_at(totals, index) for _, totals in seat_totals],
            }
        )
    return {
        "players": players,
        "seat_total_labels": [label for label, _ in seat_totals],
        "steps": [replays.name_step(result.game, step, names) for step in score.steps],
        "winner": None if score.winner is None else names[score.winner],
    }


def _at(values: Sequence[Any] | None, index: int) -> Any:
    return values[index] if values is not None and index < len(values) else None


def solo_view(the_series: Series, result: SeriesResult) -> dict[str, Any] | None:
    """Return a solo series' score as its page explains it: each deal's score and how, the mean, interval, title."""
    found = standing_of_series(the_series.season, result)
    if found is None:
        return None
    games = {game.index: game for game in result.games}
    deals = []
    for index, score in enumerate(found.scores):
        game = games.get(index)
        if game is None:
            how = "not played: a forfeit ended the series before this deal"
        elif game.forfeit is not None:
            how = f"forfeited: {in_words(result.game, game.forfeit.reason)}"
        else:
            how = in_words(result.game, game.reason)
        deals.append({"number": index + 1, "score": score, "how": how})
    return {"standing": found, "deals": deals}


def series(request: HttpRequest, series_id: int) -> HttpResponse:
    """Show a series: its seats and versions, state, every game with moves and forfeits, the score, the replays."""
    the_series = get_object_or_404(Series.objects.select_related("season"), pk=series_id)
    seats = list(the_series.seats.select_related("version__bot__owner").order_by("seat"))
    changes = rating_changes([(the_series.pk, seat.version_id) for seat in seats])
    for seat in seats:
        seat.rating_change = changes.get((the_series.pk, seat.version_id))
    names = [seat_name(seat) for seat in seats]
    document = the_series.result
    games = score = solo = None
    logs = []
    if document is not None:
        private = private_players(request.user, [seat.version.bot for seat in seats])
        result = SeriesResult.from_json(document)
        games = [game_view(result, game, names, private) for game in result.games]
        score = score_view(result, names)
        if the_series.season.kind.scored:  # its points are a score on the ladder
            solo = solo_view(the_series, result)
        logged = {tail.player for tail in result.stderr}
        logs = [seat for seat in seats if seat.seat in logged and owns_or_staff(request.user, seat.version.bot)]
    return render(
        request,
        "web/series.html",
        {
            "series": the_series,
            "game_title": game_titles().get(the_series.season.game, the_series.season.game),
            "seats": seats,
            "document": document,
            "games": games,
            "score": score,
            "solo": solo,
            "logs": logs,
            "has_viewer": replays.has_frames(the_series.season.game),
            "viewer_scripts": [script for script in [replays.script_for(the_series.season.game)] if script],
            "viewer_styles": [style for style in [replays.style_for(the_series.season.game)] if style],
        },
    )


def series_replay(request: HttpRequest, series_id: int) -> HttpResponse:
    """Send the recorded result document as a JSON download, without the bots' stderr.

    In a game with hidden information, everyone but staff gets its hidden moves in public words
    (arena.web.access.public_document).
    """
    the_series = get_object_or_404(Series, pk=series_id)
    document = the_series.result
    if document is None:
        raise Http404(f"Series {series_id} has no recorded result yet (it is {the_series.state}); try when it is done.")
    response = HttpResponse(
        json.dumps(public_document(document, request.user), ensure_ascii=False, indent=1),
        content_type="application/json",
    )
    response["Content-Disposition"] = f'attachment; filename="series-{the_series.pk}.json"'
    return response


@login_required
def series_log(request: HttpRequest, series_id: int, player: int) -> HttpResponse:
    """Show what one seat's bot wrote to stderr: only to that bot's owner and staff."""
    the_series = get_object_or_404(Series, pk=series_id)
    seat = get_object_or_404(SeriesSeat.objects.select_related("version__bot__owner"), series=the_series, seat=player)
    if not owns_or_staff(request.user, seat.version.bot):
        raise PermissionDenied("Only the owner of this seat's bot and staff can read its log.")
    document = the_series.result
    entry = None
    if document is not None:
        entry = SeriesResult.from_json(document).stderr_of(player)
    return render(
        request,
        "web/series_log.html",
        {"series": the_series, "seat": seat, "name": seat_name(seat), "entry": entry, "document": document},
    )
