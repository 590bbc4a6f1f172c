"""A solo season's page is its score ladder; its series pages explain each deal's score; nothing breaks before play."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from arena.seasons.models import Season
from arena.series.score_ladder import ladder_rows
from tests.arena.conftest import enter_solo


def text(html: str) -> str:
    """Return a page's text with tags and runs of white space collapsed, as a reader sees it."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.django_db
def test_it_shows_the_score_ladder_best_mean_first(solo_ladder: dict[str, Any], client: Any) -> None:
    response = client.get(reverse("season", args=[solo_ladder["season"].pk]))
    assert response.status_code == 200
    page = text(response.content.decode())
    assert "Score ladder" in page
    assert "μ − 3σ" not in page
    good, bad = ladder_rows(solo_ladder["season"])
    first = (
        f"1 ann-careful ann v1 20 {good.standing.mean:.2f} ± {good.standing.margin:.2f} "
        f"{good.standing.low:.2f} to {good.standing.high:.2f}"
    )
    assert first in page
    assert page.index("ann-careful") < page.index("bob-careless")
    assert f"2 bob-careless bob v1 20 {bad.standing.mean:.2f} ± {bad.standing.margin:.2f}" in page
    assert "card sharp" in page
    assert "Titles by mean score: 20 “steady hand”, 30 “card sharp”, 40 “legend of the table”" in page


@pytest.mark.django_db
def test_a_solo_series_page_explains_the_score(solo_ladder: dict[str, Any], client: Any) -> None:
    series = solo_ladder["series"]["careful"]
    page = text(client.get(reverse("series", args=[series.pk])).content.decode())
    (good, _bad) = ladder_rows(solo_ladder["season"])
    assert "played the season's 20 deals, the same for every version" in page
    assert "seed" not in page  # nothing that foretells the season's deals
    assert f"Mean score {good.standing.mean:.2f} ± {good.standing.margin:.2f} over 20 deals" in page
    assert "“card sharp”" in page
    first = series.result["games"][0]
    ending = "reached the target" if first["returns"][0] >= 30 else "fell short of the target"
    assert f"1 {first['returns'][0]:g} {ending}" in page
    assert "wins the series" not in page
    assert "The series is drawn" not in page


@pytest.mark.django_db
def test_the_bot_page_of_a_solo_player_shows_its_series(solo_ladder: dict[str, Any], client: Any) -> None:
    version = solo_ladder["versions"]["careful"]
    response = client.get(reverse("bot", args=[version.bot_id]))
    assert response.status_code == 200
    assert reverse("series", args=[solo_ladder["series"]["careful"].pk]) in response.content.decode()


@pytest.mark.django_db
def test_every_page_of_a_solo_season_answers_before_any_play(
    solo_game: Any, artifact_dir: Any, django_user_model: Any, client: Any
) -> None:
    season = Season.objects.create(name="Empty ladder", game=solo_game.name, players_per_series=1, games_per_series=20)
    pages = [reverse("season", args=[season.pk]), reverse("season-live", args=[season.pk]), reverse("seasons")]
    for url in pages:
        assert client.get(url).status_code == 200, url
    assert "Nobody has a score in this season yet" in client.get(pages[0]).content.decode()
    version = enter_solo(season, django_user_model.objects.create_user("ann"), "ann-careful", "careful")
    season.transition(Season.Status.RUNNING)
    for url in [*pages, reverse("bot", args=[version.bot_id])]:
        assert client.get(url).status_code == 200, url
    assert "Nobody has a score in this season yet" in client.get(pages[0]).content.decode()


@pytest.mark.django_db
def test_its_head_and_rows_are_the_season_pages(solo_ladder: dict[str, Any], client: Any) -> None:
    """The name, settings and live queue of every season page; each row links its bot, owner and series."""
    season = solo_ladder["season"]
    html = client.get(reverse("season", args=[season.pk])).content.decode()
    page = text(html)
    assert f"{season.name} " in page
    assert (
        f"· solo, a score ladder: every version plays the same {season.games_per_series} deals once "
        f"· {season.decision_ms} ms a decision, {season.bank_ms} ms bank"
    ) in page
    assert 'id="live"' in html
    good, _bad = ladder_rows(season)
    version = good.version
    assert f'href="{reverse("bot", args=[version.bot_id])}">{version.bot.name}</a></td>' in html
    assert f'href="{reverse("user", args=[version.bot.owner.get_username()])}">' in html
    assert f'href="{reverse("series", args=[good.series_id])}">v{version.number}</a>' in html
    assert 'class="badge"' not in html  # a score ladder has no provisional ratings
