"""The home page: games, seasons and the latest series with each seat's points."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_it_lists_the_games_seasons_and_recent_series_for_anonymous(ladder: dict[str, Any]) -> None:
    response = Client().get(reverse("home"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Watch (Derick Green)" in page
    assert "Web ladder" in page
    assert reverse("season", args=[ladder["season"].pk]) in page
    for series in ladder["series"]:
        assert reverse("series", args=[series.pk]) in page
        for seat in series.seats.all():
            assert seat.points is not None
    assert "chatty v1" in page
    assert "greedy v1" in page
