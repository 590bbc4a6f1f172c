"""/api/series/: lists and filters, a series with its seats and games, the replay without stderr, the logs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from arena.series.models import Series

pytestmark = pytest.mark.django_db


def test_it_lists_a_recorded_series_with_its_seats_and_points(series: Series, client_for: Callable) -> None:
    body = client_for(None).get("/api/series/").json()
    assert body["count"] == 1
    (listed,) = body["results"]
    assert listed["id"] == series.pk
    assert listed["state"] == "done"
    assert listed["season_name"] == "API ladder"
    seats = {seat["bot"]: seat for seat in listed["seats"]}
    assert set(seats) == {"chatty", "greedy"}
    assert seats["chatty"]["owner"] == "owner"
    points = series.result["score"]["points"]
    for seat in listed["seats"]:
        assert seat["points"] == points[seat["seat"]]
    assert sum(seat["points"] for seat in listed["seats"]) == sum(points)


def test_the_filters_narrow_the_list_and_bad_values_are_400(series: Series, client_for: Callable) -> None:
    client = client_for(None)
    greedy = series.seats.get(version__bot__name="greedy").version

    def count(query: str) -> int:
        return client.get(f"/api/series/?{query}").json()["count"]

    assert count(f"season={series.season_id}") == 1
    assert count(f"season={series.season_id + 1}") == 0
    assert count(f"version={greedy.pk}") == 1
    assert count(f"bot={greedy.bot_id}") == 1
    assert count(f"bot={greedy.bot_id + 100}") == 0
    assert count("state=done") == 1
    assert count("state=queued") == 0
    for query, field in (
        ("state=exploded", "state"),
        ("season=abc", "season"),
        ("version=-1", "version"),
        ("bot=99999999999999999999999", "bot"),
        ("season=1%00", "season"),
    ):
        response = client.get(f"/api/series/?{query}")
        assert response.status_code == 400, query
        assert field in response.json()


def test_the_detail_has_every_game_and_the_score(series: Series, client_for: Callable) -> None:
    body = client_for(None).get(f"/api/series/{series.pk}/").json()
    document = series.result
    assert [game["number"] for game in body["games"]] == [g["index"] + 1 for g in document["games"]]
    assert [game["reason"] for game in body["games"]] == [g["reason"] for g in document["games"]]
    assert body["score"] == document["score"]
    games = client_for(None).get(f"/api/series/{series.pk}/games/").json()
    assert games == body["games"]


def test_the_replay_is_the_result_document_without_stderr(series: Series, client_for: Callable) -> None:
    document = series.result
    assert any(entry["text"] for entry in document["stderr"])  # the starter bot wrote something
    for user in (None, series.seats.get(seat=0).version.bot.owner):
        body = client_for(user).get(f"/api/series/{series.pk}/replay/").json()
        assert "stderr" not in body
        assert body == {key: value for key, value in document.items() if key != "stderr"}
        for entry in document["stderr"]:
            if entry["text"]:
                assert entry["text"] not in str(body)


def test_unknown_and_unrecorded_series_are_404_with_a_reason(
    recorded_season: Any, series: Series, client_for: Callable
) -> None:
    client = client_for(None)
    queued = Series.objects.create(season=recorded_season, seed=9)
    response = client.get(f"/api/series/{queued.pk}/replay/")
    assert response.status_code == 404
    assert "queued" in response.json()["detail"]
    for url in (
        f"/api/series/{series.pk + 1000}/",
        f"/api/series/{series.pk + 1000}/replay/",
        f"/api/series/{series.pk + 1000}/games/",
        "/api/series/99999999999999999999999/",
        "/api/series/abc/",
    ):
        assert client.get(url).status_code == 404, url


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 401), ("other", 403), ("owner", 200), ("staff", 200)],
)
def test_a_log_is_for_the_owner_of_that_seat_and_staff(
    who: str, status: int, series: Series, owner: Any, other: Any, staff: Any, client_for: Callable, seat_of: Callable
) -> None:
    # "other" owns the opponent's bot: a player of the series, but not of this seat.
    user = {"anonymous": None, "other": other, "owner": owner, "staff": staff}[who]
    player = seat_of(series, "owner")
    response = client_for(user).get(f"/api/series/{series.pk}/log/{player}/")
    assert response.status_code == status
    if status == 200:
        (entry,) = [e for e in series.result["stderr"] if e["player"] == player]
        assert response.json()["text"] == entry["text"]
        assert "game 0 over" in response.json()["text"]
    elif status == 403:
        assert "only the owner" in response.json()["detail"]


def test_each_owner_reads_only_their_own_seats_log(
    series: Series, other: Any, client_for: Callable, seat_of: Callable
) -> None:
    client = client_for(other)
    assert client.get(f"/api/series/{series.pk}/log/{seat_of(series, 'mallory')}/").status_code == 200
    assert client.get(f"/api/series/{series.pk}/log/{seat_of(series, 'owner')}/").status_code == 403


def test_a_log_of_a_missing_seat_or_series_is_404(series: Series, staff: Any, client_for: Callable) -> None:
    client = client_for(staff)
    assert client.get(f"/api/series/{series.pk}/log/7/").status_code == 404
    assert client.get(f"/api/series/{series.pk}/log/99999999999/").status_code == 404
    assert client.get(f"/api/series/{series.pk + 1000}/log/0/").status_code == 404


def test_series_cannot_be_changed_through_the_api(series: Series, staff: Any, client_for: Callable) -> None:
    client = client_for(staff)
    for method in ("put", "patch", "delete"):
        assert getattr(client, method)(f"/api/series/{series.pk}/").status_code == 405
    assert client.post("/api/series/", {}).status_code == 405
