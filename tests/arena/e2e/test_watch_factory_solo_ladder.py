"""The Watch factory's solo ladder in a real browser: the demo's score ladder, ranked, titled and explained.

The demo's own solo season (manage.py demo's steps): the random and heuristic
reference bots, validated in the sandbox, each play the season's 20 seeded
solo deals; the season page ranks them by mean score with its 95 % interval
and the rulebook's titles, and a version's series page lists every deal's
score. Both versions played the very same deals (the season's deal seed).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.django_db(transaction=True)

GAME = "watch_factory"


@pytest.fixture
def solo_season(site: str) -> Any:
    from arena.ops.management.commands.demo import ladders, register_reference_bots, start_season
    from tests.arena.e2e.conftest import PlayedSeason

    ladder = next(ladder for ladder in ladders() if ladder.game == GAME and ladder.demo.players == 1)
    versions = register_reference_bots(ladder)
    return PlayedSeason(season=start_season(ladder, versions), versions=versions)


def test_the_solo_ladder_ranks_the_versions_by_mean_score_with_titles(
    page: Page,
    site: str,
    solo_season: Any,
    play_rounds: Callable[..., list[Any]],
    screenshot: Callable[[Page, str], Path],
) -> None:
    from arena.ratings.models import Rating

    season = solo_season.season
    assert season.kind.name == "solo_score_ladder"
    play_rounds(season, rounds=1, slots=2)
    done = solo_season.done_series()
    assert len(done) == 2, f"the solo series did not both finish: {done}"
    # The same deals: one chance secret for the season, the same per game.
    assert {series.chance_secret() for series in done} == {season.deal_secret}
    assert [g["seats"] for g in done[0].result["games"]] == [[0]] * 20
    assert not Rating.objects.filter(season=season).exists()  # a score ladder rates nobody

    page.goto(f"{site}/seasons/{season.pk}/")
    expect(page.get_by_role("heading", name="Score ladder")).to_be_visible()
    expect(page.get_by_text("every version plays the same 20 deals once")).to_be_visible()
    rows = page.locator("table.leaderboard tbody tr")
    expect(rows).to_have_count(2)
    first, second = (rows.nth(i).locator("td").all_inner_texts() for i in range(2))
    assert first[1].endswith("heuristic"), first
    assert second[1].endswith("random"), second
    assert first[4] == second[4] == "20"
    means = [float(re.match(r"(-?[\d.]+) ± ", row[5]).group(1)) for row in (first, second)]  # type: ignore[union-attr]
    assert means[0] > means[1]
    # The rulebook's benchmarks: the heuristic keeps its job at least; random play mostly does not.
    assert first[10] in ("barely keeps the job", "the new foreman", "runs the entire factory")
    expect(page.get_by_text("Titles by mean score: 75 “barely keeps the job”")).to_be_visible()
    screenshot(page, "watch-factory-solo-ladder")

    # The heuristic's series: every deal's score and the mean the ladder shows.
    rows.nth(0).get_by_role("link", name="v1").click()
    expect(page.get_by_role("heading", name="Score")).to_be_visible()
    expect(page.get_by_text(re.compile(r"A solo series: .*heuristic v1 played the season's 20 deals"))).to_be_visible()
    expect(page.get_by_text(f"Mean score {means[0]:.2f} ±")).to_be_visible()
    deals = page.locator("section[aria-labelledby=score-heading] table tbody tr")
    expect(deals).to_have_count(20)
    scores = [float(deals.nth(i).locator("td").nth(1).inner_text()) for i in range(20)]
    assert sum(scores) / 20 == pytest.approx(means[0], abs=0.01)
    expect(deals.nth(0).locator("td").nth(2)).to_have_text("a solo game: its score is the result")
    screenshot(page, "watch-factory-solo-series")
