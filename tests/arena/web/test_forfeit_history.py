"""A version's error history: every forfeit with its reason, game, move, a link to the replay and the owner's log."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.arena.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def forfeits_page(client: Client, version: Any) -> str:
    response = client.get(f"/bots/{version.bot_id}/versions/{version.number}/forfeits/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_owner_sees_each_forfeit_with_the_move_the_replay_and_the_log(forfeited_series: Any) -> None:
    seat = forfeited_series.seats.get(seat=1)
    version = seat.version
    client = Client()
    client.login(username="dan", password=PASSWORD)
    text = forfeits_page(client, version)
    assert "Forfeits of babbler v1" in text
    series_id = forfeited_series.pk
    assert f'href="/series/{series_id}/#game-1-heading">#{series_id}</a>' in text
    assert f'href="/series/{series_id}/#replay-1-ply-end">game 1</a>' in text  # the replay where it forfeited
    assert '<td class="num">1</td>' in text  # its first move: it babbled at once
    assert "answered with something that is not a move" in text  # malformed_output, in words
    assert f'href="/series/{series_id}/log/1/">stderr</a>' in text
    assert text.count("<tr>") - 1 == len(forfeited_series.result["games"])  # every game it played, it forfeited


def test_others_see_the_forfeits_but_no_log_links(forfeited_series: Any) -> None:
    version = forfeited_series.seats.get(seat=1).version
    text = forfeits_page(Client(), version)
    assert "answered with something that is not a move" in text
    assert "/log/" not in text


def test_a_version_without_forfeits_says_so_and_its_opponents_forfeits_are_not_its_own(
    forfeited_series: Any,
) -> None:
    greedy = forfeited_series.seats.get(seat=0).version
    text = forfeits_page(Client(), greedy)
    assert "No forfeits in any season" in text
    assert f"/series/{forfeited_series.pk}/" not in text


def test_the_bot_page_links_each_versions_forfeits(forfeited_series: Any) -> None:
    version = forfeited_series.seats.get(seat=1).version
    text = Client().get(f"/bots/{version.bot_id}/").content.decode()
    assert f'href="/bots/{version.bot_id}/versions/1/forfeits/"' in text


@pytest.mark.parametrize("suffix", ["9/forfeits/", "1/forfeits/?page=999", "1/forfeits/?page=abc"])
def test_unknown_versions_and_pages_answer_without_a_server_error(forfeited_series: Any, suffix: str) -> None:
    version = forfeited_series.seats.get(seat=1).version
    status = Client().get(f"/bots/{version.bot_id}/versions/{suffix}").status_code
    assert status == (404 if suffix.startswith("9/") else 200)
