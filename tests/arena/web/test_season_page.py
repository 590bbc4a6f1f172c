"""The season leaderboard: what it shows, sorting, pagination, bad parameters and its query count."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from arena.bots.models import Bot, BotVersion
from arena.ratings.models import Rating, RatingHistory
from arena.seasons.models import Season

pytestmark = pytest.mark.django_db


def bot_names(page: str) -> list[str]:
    """Return the bot names of the leaderboard rows, top to bottom."""
    body = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r'<a href="/bots/\d+/">([^<]+)</a>', body)


def big_season(count: int, history_rows: int = 0) -> Season:
    """Return a season with ``count`` rated versions (μ rising with the index), bulk-created."""
    owner = get_user_model().objects.create_user("crowd")
    season = Season.objects.create(name=f"Crowd of {count}", game="watch", games_per_series=2)
    bots = Bot.objects.bulk_create(Bot(owner=owner, name=f"bot-{i:05d}") for i in range(count))
    versions = BotVersion.objects.bulk_create(
        BotVersion(
            bot=bot,
            number=1,
            archive_sha256=f"{i:064x}",
            archive_size=100,
            archive_format="tar.gz",
            manifest={},
            entry="main.py",
            status=BotVersion.Status.ACTIVE,
        )
        for i, bot in enumerate(bots)
    )
    Rating.objects.bulk_create(
        Rating(season=season, version=v, mu=10 + i * 0.001, sigma=8 - (i % 7) * 0.5, series_played=i % 13, won=i % 5)
        for i, v in enumerate(versions)
    )
    RatingHistory.objects.bulk_create(
        RatingHistory(season=season, version=v, mu=10 + i * 0.001 - step, sigma=8)
        for i, v in enumerate(versions)
        for step in range(history_rows)
    )
    return season


def test_it_shows_every_rated_version_with_its_numbers_to_anonymous(ladder: dict[str, Any]) -> None:
    season = ladder["season"]
    response = Client().get(reverse("season", args=[season.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    ratings = list(Rating.objects.filter(season=season).order_by("-conservative").select_related("version__bot"))
    assert bot_names(page) == [r.version.bot.name for r in ratings]
    for rating in ratings:
        assert f"{rating.conservative:.2f}" in page
        assert f"{rating.mu:.2f}" in page
        assert f"{rating.sigma:.2f}" in page
    assert "ann" in page
    assert "bob" in page
    assert 'title="provisional' in page  # two series each: every rating is still provisional


def test_its_trend_is_the_change_of_mu_over_the_last_rows_not_of_sigma(ladder: dict[str, Any]) -> None:
    season = ladder["season"]
    version = ladder["versions"]["greedy"]
    rows = list(RatingHistory.objects.filter(season=season, version=version).order_by("recorded_at", "id"))
    change = rows[-1].mu - rows[max(0, len(rows) - 5)].mu
    page = Client().get(reverse("season", args=[season.pk])).content.decode()
    arrow = "▲ +" if change > 0 else "▼ −"
    assert f"{arrow}{abs(change):.2f}" in page


@pytest.mark.parametrize(
    ("sort", "key"),
    [
        ("bot", lambda r: r.version.bot.name),
        ("-bot", lambda r: [-ord(c) for c in r.version.bot.name]),
        ("mu", lambda r: -r.mu),
        ("-mu", lambda r: r.mu),
        ("sigma", lambda r: r.sigma),
        ("played", lambda r: -r.series_played),
        ("rating", lambda r: -r.conservative),
        ("-rating", lambda r: r.conservative),
    ],
)
def test_it_sorts_by_a_clicked_column(sort: str, key: Callable[[Rating], Any]) -> None:
    season = big_season(30)
    page = Client().get(reverse("season", args=[season.pk]), {"sort": sort}).content.decode()
    ratings = Rating.objects.filter(season=season).select_related("version__bot")
    expected = sorted(ratings, key=lambda r: (key(r), -r.conservative, r.pk))
    assert bot_names(page) == [r.version.bot.name for r in expected]
    column = sort.removeprefix("-")
    assert re.search(rf'aria-sort="(a|de)scending"><a href="\?sort=-?{column}"', page)


def test_a_header_link_reverses_the_current_sort() -> None:
    season = big_season(3)
    page = Client().get(reverse("season", args=[season.pk]), {"sort": "mu"}).content.decode()
    assert 'href="?sort=-mu"' in page
    assert 'href="?sort=sigma"' in page


@pytest.mark.parametrize("bad", ["password", "mu;drop table", "-", "version__bot__owner__password", "x" * 500])
def test_an_unknown_sort_falls_back_to_the_rating_and_says_so(bad: str) -> None:
    season = big_season(5)
    response = Client().get(reverse("season", args=[season.pk]), {"sort": bad})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Cannot sort by" in page
    assert "sorted by rating" in page
    ratings = Rating.objects.filter(season=season).order_by("-conservative").select_related("version__bot")
    assert bot_names(page) == [r.version.bot.name for r in ratings]


def test_it_pages_fifty_rows_at_a_time_keeping_the_sort() -> None:
    season = big_season(120)
    client = Client()
    first = client.get(reverse("season", args=[season.pk]), {"sort": "bot"}).content.decode()
    third = client.get(reverse("season", args=[season.pk]), {"sort": "bot", "page": 3}).content.decode()
    assert bot_names(first) == [f"bot-{i:05d}" for i in range(50)]
    assert bot_names(third) == [f"bot-{i:05d}" for i in range(100, 120)]
    assert "Page 1 of 3" in first
    assert "sort=bot&amp;page=2" in first
    # The # column stays the leaderboard position (by μ − 3σ) whatever the sort.
    ranking = list(
        Rating.objects.filter(season=season).order_by("-conservative").values_list("version__bot__name", flat=True)
    )
    first_row = first.split("<tbody>", 1)[1]
    assert re.search(r'<td class="num">(\d+)</td>', first_row).group(1) == str(ranking.index("bot-00000") + 1)


@pytest.mark.parametrize(
    ("page", "notice", "shown"),
    [
        ("abc", "is not a page number; showing page 1", 1),
        ("0", "Pages start at 1", 1),
        ("-4", "Pages start at 1", 1),
        ("99", "There is no page 99: there are 3; showing page 3", 3),
        ("9" * 40, "There is no page", 3),
    ],
)
def test_a_bad_page_number_falls_back_and_says_so(page: str, notice: str, shown: int) -> None:
    season = big_season(120)
    response = Client().get(reverse("season", args=[season.pk]), {"page": page})
    assert response.status_code == 200
    assert notice in response.content.decode()
    assert f"Page {shown} of 3" in response.content.decode()


def test_an_unknown_season_is_a_404() -> None:
    assert Client().get(reverse("season", args=[987654])).status_code == 404


def test_a_season_without_ratings_says_nobody_is_rated_yet(season: Season) -> None:
    page = Client().get(reverse("season", args=[season.pk])).content.decode()
    assert "Nobody is rated in this season yet" in page


def test_ten_thousand_ratings_take_a_handful_of_queries(django_assert_max_num_queries: Any) -> None:
    season = big_season(10_000, history_rows=3)
    client = Client()
    url = reverse("season", args=[season.pk])
    client.get(url)  # warm the connection and the template cache
    # The season, the row count, the page's rows and their trends: 4, whatever the page and sort;
    # the live part: the queue's counts, the queue and the latest results, each with its seats: 5.
    with django_assert_max_num_queries(9):
        started = time.perf_counter()
        response = client.get(url, {"sort": "-played", "page": 150})
        elapsed = time.perf_counter() - started
    assert response.status_code == 200
    assert len(bot_names(response.content.decode())) == 50
    assert "▼ −2.00" in response.content.decode() or "▲ +2.00" in response.content.decode()
    # Its speed is the web load benchmark's to measure (tests/benchmarks/web_load.py): a timed test
    # flakes on a shared machine. What keeps it fast whatever the season's size is the query count.
    print(f"leaderboard page of a 10,000-rating season: {elapsed * 1000:.0f} ms")


def test_a_bot_whose_mu_stands_still_has_no_upward_trend_however_its_sigma_shrinks(db: None) -> None:
    from django.contrib.auth import get_user_model

    from arena.bots.models import Bot, BotVersion
    from arena.ratings.models import Rating
    from arena.seasons.models import Season

    season = Season.objects.create(name="Steady", game="watch", games_per_series=2)
    owner = get_user_model().objects.create_user("sam")
    bot = Bot.objects.create(owner=owner, name="steady")
    version = BotVersion.objects.create(
        bot=bot, number=1, archive_sha256="a" * 64, archive_size=1, archive_format="tar.gz",
        manifest={}, entry="main.py", games=["watch"], status="active",
    )  # fmt: skip
    Rating.objects.create(season=season, version=version, mu=25.0, sigma=4.0, series_played=4)
    for sigma in (8.3, 7.0, 6.0, 5.0, 4.0):  # μ − 3σ climbs from 0.1 to 13.0 while μ stays at 25
        RatingHistory.objects.create(season=season, version=version, mu=25.0, sigma=sigma)
    page = Client().get(reverse("season", args=[season.pk])).content.decode()
    assert "→ 0.00" in page
    assert "▲" not in page
