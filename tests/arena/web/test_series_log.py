"""A bot's stderr log of a series: only the owner of that seat's bot and staff read it."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def chatty_seat(ladder: dict[str, Any]) -> tuple[Any, int, str]:
    """The first series, the seat of ann's chatty bot in it, and what that bot wrote to stderr."""
    series = ladder["series"][0]
    seat = series.seats.get(version=ladder["versions"]["chatty"]).seat
    text = next(e["text"] for e in series.result["stderr"] if e["player"] == seat)
    assert text.strip()
    return series, seat, text


def test_the_owner_and_staff_read_the_log(
    ladder: dict[str, Any], chatty_seat: tuple[Any, int, str], client_of: Callable[[Any], Any], make_user: Any
) -> None:
    series, seat, text = chatty_seat
    for viewer in (ladder["users"]["ann"], make_user("operator", is_staff=True)):
        response = client_of(viewer).get(reverse("series-log", args=[series.pk, seat]))
        assert response.status_code == 200
        assert text.strip() in html.unescape(response.content.decode())


def test_another_user_is_refused_and_anonymous_sent_to_log_in(
    ladder: dict[str, Any], chatty_seat: tuple[Any, int, str], client_of: Callable[[Any], Any]
) -> None:
    series, seat, text = chatty_seat
    url = reverse("series-log", args=[series.pk, seat])
    refused = client_of(ladder["users"]["bob"]).get(url)  # bob's bot sat in the other seat
    assert refused.status_code == 403
    assert text.strip() not in html.unescape(refused.content.decode())
    assert "Only the owner of this seat's bot and staff can read its log." in html.unescape(refused.content.decode())
    anonymous = client_of(None).get(url)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith(reverse("login"))


def test_the_series_page_links_the_log_only_for_those_who_may_read_it(
    ladder: dict[str, Any], chatty_seat: tuple[Any, int, str], client_of: Callable[[Any], Any]
) -> None:
    series, seat, text = chatty_seat
    link = reverse("series-log", args=[series.pk, seat])
    pages = {
        who: client_of(user).get(reverse("series", args=[series.pk])).content.decode()
        for who, user in (("ann", ladder["users"]["ann"]), ("bob", ladder["users"]["bob"]), ("anonymous", None))
    }
    assert link in pages["ann"]
    assert link not in pages["bob"]
    assert link not in pages["anonymous"]
    for page in pages.values():
        assert text.strip() not in html.unescape(page)


def test_an_unknown_seat_is_a_404(ladder: dict[str, Any], client_of: Callable[[Any], Any]) -> None:
    series = ladder["series"][0]
    response = client_of(ladder["users"]["ann"]).get(reverse("series-log", args=[series.pk, 5]))
    assert response.status_code == 404
