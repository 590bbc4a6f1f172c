"""The season leaderboard in a real browser: clicking a column heading sorts by it, clicking again reverses.

Whatever the sort, "#" keeps each bot's leaderboard position (by μ − 3σ),
and the sorted heading says so to screen readers (aria-sort).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.django_db(transaction=True)

#: Leaderboard columns, by position in a row.
RANK, BOT, OWNER, MU = 0, 1, 2, 5


def column(page: Page, index: int) -> list[str]:
    """Return the texts of one column of the leaderboard, top to bottom."""
    rows = page.locator("table.leaderboard tbody tr")
    return [rows.nth(i).locator("td").nth(index).inner_text().strip() for i in range(rows.count())]


def ranks_by_bot(page: Page) -> dict[str, str]:
    return dict(zip((b.split()[0] for b in column(page, BOT)), column(page, RANK), strict=True))


def heading(page: Page, name: str) -> Locator:
    """Return a leaderboard column heading; a sorted one shows ▼ or ▲ after its name."""
    return page.locator("table.leaderboard").get_by_role(
        "columnheader", name=re.compile(rf"^{re.escape(name)}( [▼▲])?$")
    )


def test_it_sorts_the_leaderboard_by_the_clicked_column(page: Page, site: str, played_season: Any) -> None:
    page.goto(f"{site}/seasons/{played_season.season.pk}/")
    expect(page.locator("table.leaderboard tbody tr")).to_have_count(3)
    ranks = ranks_by_bot(page)
    assert sorted(ranks) == ["greedy", "random", "solver"]
    expect(heading(page, "μ − 3σ")).to_have_attribute("aria-sort", "descending")

    heading(page, "Owner").get_by_role("link").click()
    expect(page).to_have_url(f"{site}/seasons/{played_season.season.pk}/?sort=owner")
    expect(heading(page, "Owner")).to_have_attribute("aria-sort", "ascending")
    expect(heading(page, "Owner")).to_have_accessible_name("Owner ▲")  # the arrow a sighted user sees
    expect(heading(page, "μ − 3σ")).not_to_have_attribute("aria-sort", re.compile(".*"))
    assert column(page, OWNER) == ["demo-greedy", "demo-random", "demo-solver"]
    assert ranks_by_bot(page) == ranks

    heading(page, "Owner").get_by_role("link").click()
    expect(page).to_have_url(f"{site}/seasons/{played_season.season.pk}/?sort=-owner")
    expect(heading(page, "Owner")).to_have_attribute("aria-sort", "descending")
    assert column(page, OWNER) == ["demo-solver", "demo-random", "demo-greedy"]
    assert ranks_by_bot(page) == ranks

    heading(page, "μ").get_by_role("link").click()
    expect(heading(page, "μ")).to_have_attribute("aria-sort", "descending")
    mus = [float(value) for value in column(page, MU)]
    assert mus == sorted(mus, reverse=True)
    heading(page, "μ").get_by_role("link").click()
    expect(heading(page, "μ")).to_have_attribute("aria-sort", "ascending")
    mus = [float(value) for value in column(page, MU)]
    assert mus == sorted(mus)
    assert ranks_by_bot(page) == ranks
