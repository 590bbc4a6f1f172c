"""A series page: seats and versions, every game with move counts and forfeits, the score step by step."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

import engines
from arena.seasons.models import Season
from arena.series.models import Series, SeriesSeat
from engines.watch import name_players

pytestmark = pytest.mark.django_db


def text_of(client: Any, series: Series) -> str:
    response = client.get(reverse("series", args=[series.pk]))
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def names_of(series: Series) -> list[str]:
    return [f"{s.version.bot.name} v{s.version.number}" for s in series.seats.order_by("seat")]


def test_it_shows_each_game_with_the_move_counts_as_white_and_as_black(
    ladder: dict[str, Any], client_of: Callable[[Any], Any]
) -> None:
    series = ladder["series"][0]
    document, names = series.result, names_of(series)
    page = text_of(client_of(None), series)
    for game in document["games"]:
        section = page.split(f"Game {game['index'] + 1}</h3>", 1)[1].split("</table>", 1)[0]
        rows = re.findall(r"<th scope=\"row\">(\w+)</th><td>([^<]+)</td><td class=\"num\">(\d+)</td>", section)
        expected = [
            (colour, names[player], str(game["stats"][str(player)]["moves"]))
            for colour, player in zip(("White", "Black"), game["seats"], strict=True)
        ]
        assert rows == expected
    score = document["score"]
    for player, name in enumerate(names):
        assert re.search(
            rf"<td>{re.escape(name)}</td><td class=\"num\">{score['white_totals'][player]}</td>"
            rf"<td class=\"num\">{score['black_totals'][player]}</td>",
            page,
        )


def test_the_score_heads_each_seats_move_totals_with_the_games_seat_label(
    ladder: dict[str, Any], client_of: Callable[[Any], Any]
) -> None:
    series = ladder["series"][0]
    page = text_of(client_of(None), series)
    assert re.findall(r"Moves as (\w+)</th>", page) == list(engines.declaration(series.season.game).seat_labels)
    assert 'href="/static/games/watch/viewer.css"' in page  # the board's look comes with the game's viewer


def test_it_works_out_the_score_step_by_step_in_the_players_names(
    ladder: dict[str, Any], client_of: Callable[[Any], Any]
) -> None:
    series = ladder["series"][1]
    names = names_of(series)
    page = text_of(client_of(None), series)
    steps = series.result["score"]["steps"]
    assert steps
    for step in steps:
        assert f"<li>{name_players(step, names)}</li>" in page
    assert "player 0" not in page
    assert "player 1" not in page
    winner = series.result["score"]["winner"]
    assert (f"{names[winner]} wins the series." if winner is not None else "The series is drawn.") in page


def test_it_lists_the_seats_with_versions_points_and_places(
    ladder: dict[str, Any], client_of: Callable[[Any], Any]
) -> None:
    series = ladder["series"][0]
    page = text_of(client_of(None), series)
    for seat in series.seats.select_related("version__bot__owner"):
        assert reverse("bot", args=[seat.version.bot_id]) in page
        assert seat.version.bot.owner.username in page
    assert "Download the replay (JSON)" in page
    assert reverse("series-replay", args=[series.pk]) in page


def test_it_shows_a_forfeit_with_its_reason(forfeited_series: Series, client_of: Callable[[Any], Any]) -> None:
    forfeit = next(g["forfeit"] for g in forfeited_series.result["games"] if g["forfeit"])
    page = text_of(client_of(None), forfeited_series)
    assert forfeit["reason"] == "malformed_output"
    assert f"Forfeit: babbler v1 answered with something that is not a move ({forfeit['detail']})." in page
    assert "babbler v1 forfeited: answered with something that is not a move" in page  # the replay's last frame


def test_it_embeds_a_replay_viewer_per_game_with_its_move_list(
    ladder: dict[str, Any], client_of: Callable[[Any], Any]
) -> None:
    series = ladder["series"][0]
    page = text_of(client_of(None), series)
    for game in series.result["games"]:
        number = game["index"] + 1
        assert f'data-replay="replay-{number}"' in page
        assert f'<script id="replay-{number}" type="application/json">' in page
        moves = page.split(f'<script id="replay-{number}"', 1)[1].split("</ol>", 1)[0]
        assert re.findall(r'data-ply="\d+">([^<]+)</button>', moves) == [a["notation"] for a in game["actions"]]
    assert "/static/web/replay.js" in page


def test_a_queued_series_of_three_players_lists_every_seat(
    make_user: Callable[..., Any], make_version: Callable[..., Any], client_of: Callable[[Any], Any]
) -> None:
    season = Season.objects.create(name="Race", game="watch_race", players_per_series=3, games_per_series=3)
    series = Series.objects.create(season=season, seed=1)
    for seat, name in enumerate(("ant", "bee", "cat")):
        SeriesSeat.objects.create(series=series, seat=seat, version=make_version(name, games=[]))
    page = text_of(client_of(None), series)
    for name in ("ant", "bee", "cat"):
        assert f">{name}</a> v1" in page
    assert "This series is waiting for a match worker." in page
    home = html.unescape(client_of(None).get(reverse("home")).content.decode())
    assert all(f">{name} v1</a>" in home for name in ("ant", "bee", "cat"))


def test_a_failed_series_shows_why(
    season: Season, make_version: Callable[..., Any], client_of: Callable[[Any], Any]
) -> None:
    series = Series.objects.create(
        season=season, seed=2, state=Series.State.FAILED, failure_reason="the sandbox could not start: no bwrap"
    )
    SeriesSeat.objects.create(series=series, seat=0, version=make_version("alpha"))
    page = text_of(client_of(None), series)
    assert "Failed: the sandbox could not start: no bwrap" in page
    assert "No result was recorded for this series." in page


def test_an_unknown_series_is_a_404(db: None, client_of: Callable[[Any], Any]) -> None:
    assert client_of(None).get(reverse("series", args=[777777])).status_code == 404
