"""Browser tests: Debian's chromium, driven by Playwright's sync API, against a live server on PostgreSQL.

The live server (pytest-django's ``live_server``) runs the site in a thread
of this process, so every test commits for real
(``pytest.mark.django_db(transaction=True)``) and Celery tasks, which run
in-process without a broker, run inside the very request that queued them
(a bot's validation series, after the upload commits).

The browser is the system's ``/usr/bin/chromium`` with a fresh profile per
test; Playwright never downloads one. A machine without it fails these tests
with the command that installs it: CI installs it (``.ci/setup``), so a
missing browser is a broken machine, not a reason to skip.

Screenshots go to ``var/test-artifacts/screenshots/`` under the repository
root (``/var/`` is git-ignored), where CI can keep them.
"""

from __future__ import annotations

import random
import tarfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.db import connections
from playwright.sync_api import BrowserContext, Page, expect, sync_playwright

REPO = Path(__file__).resolve().parents[3]
CHROMIUM = Path("/usr/bin/chromium")
#: A quiet, offline headless run: nothing fetched in the background, no first-run pages. The fresh
#: --user-data-dir is launch_persistent_context's own argument (Playwright refuses it among these).
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
SCREENSHOTS = REPO / "var" / "test-artifacts" / "screenshots"
REFERENCE_PACKAGES = REPO / "bots" / "watch" / "packages"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: Longest wait for one element or navigation; a validation series inside a request takes about a second.
TIMEOUT_MS = 15_000


def chromium_or_fail(executable: Path = CHROMIUM) -> Path:
    """Return the system chromium; fail (never skip) with the command that installs it."""
    if not executable.is_file():
        pytest.fail(
            f"the browser tests drive Debian's chromium at {executable}, which is missing: "
            "run `sudo apt-get install chromium` (or `bash .ci/setup --services`). "
            "Do not run `playwright install`: these tests never download a browser.",
            pytrace=False,
        )
    return executable


@pytest.fixture
def require_chromium() -> Callable[[Path], Path]:
    """Return the check the browser fixture makes before launching: ``require_chromium(path)``."""
    return chromium_or_fail


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[BrowserContext]:
    """A headless chromium with a fresh profile, closed after the test."""
    executable = chromium_or_fail()
    # Playwright's sync API keeps an asyncio loop in this thread; Django refuses ORM calls
    # from such a thread unless told the calls are synchronous, which in this test they are.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    profile = tmp_path / "chromium-profile"
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=str(executable), headless=True, args=list(CHROMIUM_ARGS)
        )
        context.set_default_timeout(TIMEOUT_MS)
        expect.set_options(timeout=TIMEOUT_MS)  # the machines running these are shared and sometimes slow
        try:
            yield context
        finally:
            context.close()
            # While Playwright's loop runs, Django keeps this thread's connections in context-local
            # storage, out of pytest-django's reach: close them, or the test database cannot be dropped.
            connections.close_all()


@pytest.fixture
def page(browser: BrowserContext) -> Page:
    """The browser's one tab."""
    return browser.pages[0] if browser.pages else browser.new_page()


@pytest.fixture
def site(live_server: Any, settings: Any, tmp_path: Path) -> str:
    """Return the live server's base URL, with a fresh artifact store and fresh rate-limit counters."""
    from django.core.cache import cache

    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    cache.clear()  # rate limits count per client address, and every test comes from 127.0.0.1
    return live_server.url


@pytest.fixture
def random_bot_archive(tmp_path: Path) -> Path:
    """Return the reference random bot (bots/watch/packages/random) packed as a .tar.gz, as an author uploads it."""
    source = REFERENCE_PACKAGES / "random"
    archive = tmp_path / "upload" / "random-bot.tar.gz"
    archive.parent.mkdir()
    with tarfile.open(archive, "w:gz") as tar:
        for path in sorted(source.iterdir()):
            if path.is_file():
                tar.add(path, arcname=path.name)
    return archive


@dataclass
class PlayedSeason:
    """A running season of one game's reference bots (demo users' bots, never the test user's)."""

    season: Any
    versions: list[Any]

    def done_series(self) -> list[Any]:
        from arena.series.models import Series, SeriesState

        return list(Series.objects.filter(season=self.season, state=SeriesState.DONE).order_by("id"))


def start_reference_season(game: str) -> PlayedSeason:
    """Register ``game``'s reference bots as demo users' bots (validated in the sandbox) and start a season of them.

    The demo command's own steps (``manage.py demo``), so these tests see the
    seasons a new user sees after it; no series played yet.
    """
    from arena.ops.management.commands.demo import ladders, register_reference_bots, start_season

    ladder = next(ladder for ladder in ladders() if ladder.game == game)
    versions = register_reference_bots(ladder)
    return PlayedSeason(season=start_season(ladder, versions), versions=versions)


@pytest.fixture
def reference_season(site: str) -> PlayedSeason:
    """A running Watch season of the reference bots, none of them the test user's; no series played yet."""
    return start_reference_season("watch")


@pytest.fixture
def race_season(site: str) -> PlayedSeason:
    """A running Watch race season (four players a series) of its reference bots; no series played yet."""
    return start_reference_season("watch_race")


@pytest.fixture(autouse=True)
def chance_from_the_nonce(monkeypatch: pytest.MonkeyPatch) -> None:
    """Draw each ladder series' chance (and its bots' seeds) from its nonce alone, as ``arena play --seed`` does.

    The platform's secret is an HMAC of the series' id and nonce under the server key
    (``Series.chance_secret``), and ids differ from run to run: the games a browser test needs (a
    capture, a round played again) would come and go. These tests are about the pages; the
    derivation itself is held by tests/arena/web/test_public_chance.py and the score ladder's tests.
    A solo season keeps its own stored secret (its series must deal alike).
    """
    from arena.series.models import Series
    from workers.chance import local_secret

    real = Series.chance_secret
    monkeypatch.setattr(
        Series,
        "chance_secret",
        lambda self: real(self) if self.season.kind.same_deals else local_secret(self.seed).hex(),
    )


def schedule_rounds(season: Any, rounds: int, slots: int, seed: int = 7) -> list[Any]:
    """Schedule ``rounds`` rounds of ``slots`` series; without a broker each is played and recorded on commit."""
    from arena.matchmaking.scheduling import schedule_round

    rng = random.Random(seed)
    created = []
    for _ in range(rounds):
        created += schedule_round(season, slots, rng=rng)
    return created


@pytest.fixture
def play_rounds() -> Callable[..., list[Any]]:
    """Return :func:`schedule_rounds`: ``play_rounds(season, rounds=1, slots=2)``."""
    return schedule_rounds


@pytest.fixture
def played_season(reference_season: PlayedSeason) -> PlayedSeason:
    """The reference season with three series done, so every reference bot has played."""
    schedule_rounds(reference_season.season, rounds=3, slots=1)
    done = reference_season.done_series()
    assert len(done) == 3, f"the reference season's series did not all finish: {done}"
    return reference_season


@pytest.fixture
def screenshot() -> Callable[[Page, str], Path]:
    """Return a function saving a full-page PNG of the page under var/test-artifacts/screenshots/ and checking it."""

    def take(page: Page, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        path.unlink(missing_ok=True)  # a stale file from an earlier run must not pass the check
        page.screenshot(path=str(path), full_page=True)
        data = path.read_bytes()
        assert data.startswith(PNG_SIGNATURE), f"{path} is not a PNG"
        assert len(data) > 1000, f"{path} is only {len(data)} bytes"
        return path

    return take


@pytest.fixture
def reload_until() -> Callable[..., None]:
    """Return a function reloading a page until a condition holds: ``reload_until(page, lambda: ..., "what")``."""

    def wait(page: Page, condition: Callable[[], bool], what: str, timeout_s: float = 30) -> None:
        deadline = time.monotonic() + timeout_s
        while not condition():
            if time.monotonic() > deadline:
                pytest.fail(f"waited {timeout_s:.0f} s for {what}; the page says:\n{page.inner_text('body')}")
            time.sleep(0.25)
            page.reload()

    return wait
