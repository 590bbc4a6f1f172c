"""The README's main command as a new user runs it: the site it serves keeps the ladder running.

``manage.py demo`` is started as a subprocess on a free port with a fresh
``var/`` (SQLite, no broker: the embedded default). In a real browser a new
user signs up and uploads the Watch starter kit; the bot is validated, and
with nothing else done by the test the served site's own ladder plays it:
within a few minutes its series appear in the season page's live part
(which refreshes by itself), it has played at least five series and is on
the season's leaderboard with a rating. Ctrl-C then stops the command
cleanly.

A second test uploads a starter bot that crashes: its owner follows the bot
page's link to the validation series and reads the traceback there.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import tarfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.arena.e2e.conftest import REPO
from tests.arena.e2e.test_upload_to_leaderboard import sign_up, upload, version_status
from tests.arena.services import free_port

#: Long: run first, so the suite's workers overlap it with the rest (tests/conftest.py).
pytestmark = pytest.mark.slow

STARTER = REPO / "bots" / "starter" / "watch-python"
#: The demo's own rounds and validations before it serves, on a slow shared machine.
START_TIMEOUT_S = 240
#: "Within a few minutes" of the upload.
CLIMB_TIMEOUT_S = 240


def interrupt(process: subprocess.Popen[bytes], log: Path, timeout_s: float = 120) -> int:
    """Send ``process`` SIGINT and return its exit code once it has stopped.

    One that does not stop within ``timeout_s`` fails the test with what it was doing: it runs
    with PYTHONFAULTHANDLER=1, so SIGABRT makes it write every thread's stack to its log.
    """
    process.send_signal(signal.SIGINT)
    try:
        return process.wait(timeout_s)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGABRT)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        output = log.read_text(errors="replace")
        pytest.fail(f"not stopped {timeout_s:.0f} s after Ctrl-C; its threads then:\n{output[-12000:]}")


class MainCommand:
    """``manage.py demo`` running in a subprocess, its output collected in a file."""

    def __init__(self, var_dir: Path, port: int) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.log = var_dir.parent / "demo.log"
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("ARENA_", "DJANGO_")) and key != "DJANGO_ALLOW_ASYNC_UNSAFE"
        }
        env.update(ARENA_VAR_DIR=str(var_dir), ARENA_NO_BOOTSTRAP="1", PYTHONUNBUFFERED="1", PYTHONFAULTHANDLER="1")
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "demo", "--rounds", "1", "--quiet", "--port", str(port)],
            cwd=REPO,
            env=env,
            stdout=self.log.open("wb"),
            stderr=subprocess.STDOUT,
        )

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_serving(self) -> None:
        """Wait until the site answers on its port."""
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"manage.py demo exited with {self.process.returncode}:\n{self.output()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.5)
        pytest.fail(f"manage.py demo did not serve within {START_TIMEOUT_S} s:\n{self.output()}")

    def interrupt(self, timeout_s: float = 120) -> int:
        """Press Ctrl-C (SIGINT) and return the exit code; fail with every thread's stack if it does not stop."""
        return interrupt(self.process, self.log, timeout_s)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def main_command(tmp_path: Path) -> Iterator[MainCommand]:
    command = MainCommand(tmp_path / "var", free_port())
    try:
        yield command
    finally:
        command.kill()


@pytest.fixture
def starter_archive(tmp_path: Path) -> Path:
    """The Watch starter kit packed as .tar.gz, as its README tells an author to upload it."""
    archive = tmp_path / "starter.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for path in sorted(STARTER.iterdir()):
            tar.add(path, arcname=path.name)
    return archive


def validated(page: Page, deadline: float) -> str:
    """Reload the open bot page until its v1 is no longer validating (or ``deadline``); return its status."""
    while version_status(page) == "validating" and time.monotonic() < deadline:
        time.sleep(1)
        page.reload()
    return version_status(page)


def leaderboard_row(page: Page, bot: str) -> dict[str, str]:
    """Return ``bot``'s row on the open season page as {"series": ..., "rating": ...} (the cells' text), or {}."""
    board = page.locator("table.leaderboard")
    headings = [text.strip() for text in board.locator("thead th").all_inner_texts()]
    row = board.get_by_role("row").filter(has=page.get_by_role("link", name=bot, exact=True))
    if row.count() != 1:
        return {}
    cells = [text.strip() for text in row.get_by_role("cell").all_inner_texts()]
    series = next(i for i, heading in enumerate(headings) if heading.startswith("Series"))
    rating = next(i for i, heading in enumerate(headings) if "3σ" in heading)
    return {"series": cells[series], "rating": cells[rating]}


def test_the_served_site_plays_an_uploaded_bot_by_itself(
    page: Page, main_command: MainCommand, starter_archive: Path, screenshot: object
) -> None:
    main_command.wait_serving()
    site = main_command.url

    sign_up(page, site, "dora")
    upload(page, "doras-bot", starter_archive)
    deadline = time.monotonic() + CLIMB_TIMEOUT_S
    assert validated(page, deadline) == "active", page.inner_text("body")

    page.goto(site)
    page.get_by_role("link", name=re.compile(r"^Demo season \d")).first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Demo season")
    season_url = page.url
    # The live part of the season page moves by itself: doras-bot's series show up without a reload.
    expect(page.locator("section#live")).to_contain_text("doras-bot", timeout=120_000)
    screenshot(page, "season-live")  # type: ignore[operator]
    row: dict[str, str] = {}
    while time.monotonic() < deadline:
        row = leaderboard_row(page, "doras-bot")
        if row and int(row["series"] or 0) >= 5:
            break
        time.sleep(3)
        page.goto(season_url)
    assert row, f"doras-bot is not on the leaderboard after {CLIMB_TIMEOUT_S} s:\n{main_command.output()[-3000:]}"
    assert int(row["series"]) >= 5, f"doras-bot played only {row['series']} series: {row}"
    assert re.fullmatch(r"-?\d+\.\d+", row["rating"]), row  # a rating, not "Not rated yet"
    screenshot(page, "living-ladder")  # type: ignore[operator]

    assert main_command.interrupt() == 0, main_command.output()[-3000:]
    assert "Stopped;" in main_command.output()


CRASH = "raise RuntimeError('my model file is missing')\n"


def test_a_crashing_bots_owner_reads_the_traceback_on_the_validation_page(
    page: Page, main_command: MainCommand, tmp_path: Path, screenshot: object
) -> None:
    archive = tmp_path / "crasher.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(STARTER / "bot.toml", arcname="bot.toml")
        main = tmp_path / "main.py"
        main.write_text(CRASH)  # the kit's manifest, an entry point that raises at start
        tar.add(main, arcname="main.py")
    main_command.wait_serving()
    sign_up(page, main_command.url, "eve")
    upload(page, "eves-bot", archive)
    assert validated(page, time.monotonic() + CLIMB_TIMEOUT_S) == "failed validation", page.inner_text("body")
    expect(page.get_by_text("Failed its validation series")).to_be_visible()
    page.get_by_role("link", name="Validation series").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Validation of eves-bot v1")
    expect(page.get_by_text("validation series: game 1, its move 1: crash:").first).to_be_visible()
    log = page.locator("pre.log").first
    expect(log).to_contain_text("Traceback (most recent call last)")
    expect(log).to_contain_text("RuntimeError: my model file is missing")
    screenshot(page, "validation-series")  # type: ignore[operator]
