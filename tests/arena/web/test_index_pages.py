"""The index pages: games with their rules, every bot, season and series (filtered), and user profiles.

Filters are query parameters; a value that names nothing is ignored with a
notice, never a server error, whatever is typed into the address.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def get(path: str, **params: str) -> str:
    response = Client().get(path, params)
    assert response.status_code == 200, (path, params, response.status_code)
    return response.content.decode()


def test_the_games_page_and_each_games_page_with_its_seasons_and_rules(ladder: dict[str, Any]) -> None:
    games = get("/games/")
    assert 'href="/games/watch/"' in games
    assert 'href="/games/watch_race/"' in games
    assert "the lower total of moves made as White earns a point" in games
    watch = get("/games/watch/")
    assert "<h1>Watch (Derick Green)</h1>" in watch
    assert "The rules in brief" in watch
    assert f'href="/seasons/{ladder["season"].pk}/"' in watch
    assert 'href="/games/watch/rules/"' in watch
    rules = get("/games/watch/rules/")
    assert "Watch: the rulebook, sentence by sentence" in rules
    race = get("/games/watch_race/")
    assert "No seasons of this game yet." in race


@pytest.mark.parametrize("path", ["/games/chess/", "/games/chess/rules/", "/games/%00/", "/users/nobody-at-all/"])
def test_unknown_games_and_users_are_404(path: str) -> None:
    assert Client().get(path).status_code == 404


def test_the_bots_page_lists_every_bot_with_its_owner_and_best_rating(ladder: dict[str, Any]) -> None:
    page = get("/bots/")
    for name in ("chatty", "greedy", "random"):
        bot = ladder["versions"][name].bot
        assert f'href="/bots/{bot.pk}/">{name}</a>' in page
    assert 'href="/users/ann/">ann</a>' in page
    assert "not rated yet" not in page  # each has played
    assert "chatty" in get("/bots/", game="watch")
    assert "chatty" not in get("/bots/", game="watch_race")
    assert "Ignored game=“chess”" in get("/bots/", game="chess")


def test_the_seasons_page_filters_by_game_and_status(ladder: dict[str, Any]) -> None:
    name = ladder["season"].name
    assert name in get("/seasons/")
    assert name in get("/seasons/", game="watch", status="running")
    assert name not in get("/seasons/", status="finished")
    assert "Ignored status=“bogus”" in get("/seasons/", status="bogus")


def test_the_series_page_filters_by_game_season_bot_owner_and_result(ladder: dict[str, Any]) -> None:
    series = ladder["series"]
    everything = get("/series/")
    for one in series:
        assert f'href="/series/{one.pk}/"' in everything
    greedy = ladder["versions"]["greedy"].bot
    by_bot = get("/series/", bot=str(greedy.pk))
    assert [f'href="/series/{one.pk}/"' in by_bot for one in series] == [True, True, False]
    by_owner = get("/series/", owner="cy")
    assert [f'href="/series/{one.pk}/"' in by_owner for one in series] == [False, True, True]
    assert f'href="/series/{series[0].pk}/"' in get("/series/", season=str(ladder["season"].pk), state="done")
    assert "No series yet." in get("/series/", state="failed")
    assert "No series yet." in get("/series/", game="watch_race")


@pytest.mark.parametrize(
    "params",
    [
        {"bot": "abc"},
        {"season": "99999999999999999999999"},
        {"bot": "１２"},
        {"state": "<script>"},
        {"owner": "x" * 500},
        {"game": "\u202e"},
        {"owner": "ann\x00"},
        {"page": "-1"},
    ],
)
def test_hostile_filters_never_give_a_server_error(ladder: dict[str, Any], params: dict[str, str]) -> None:
    page = get("/series/", **params)
    assert "<script>" not in page


def test_a_user_profile_lists_their_bots_and_owners_link_to_it(ladder: dict[str, Any]) -> None:
    profile = get("/users/ann/")
    chatty = ladder["versions"]["chatty"].bot
    assert f'href="/bots/{chatty.pk}/">chatty</a>' in profile
    assert "greedy" not in profile
    assert 'href="/users/ann/">ann</a>' in get(f"/seasons/{ladder['season'].pk}/")
    assert 'href="/users/ann/">ann</a>' in get(f"/bots/{chatty.pk}/")
    assert 'href="/users/ann/">ann</a>' in get(f"/series/{ladder['series'][0].pk}/")


def test_the_navigation_leads_to_every_index() -> None:
    home = get("/")
    for link in ('href="/games/"', 'href="/seasons/"', 'href="/bots/"', 'href="/series/"'):
        assert link in home
