"""The browser tests' own set-up: Debian's chromium, never a downloaded browser, and a loud failure without it."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page


def test_it_fails_with_the_install_command_when_chromium_is_missing(
    require_chromium: Callable[[Path], Path], tmp_path: Path
) -> None:
    with pytest.raises(pytest.fail.Exception, match=r"apt-get install chromium") as failure:
        require_chromium(tmp_path / "no-chromium-here")
    assert "playwright install" in str(failure.value)  # ... and says not to download one


def test_it_drives_the_system_chromium(page: Page) -> None:
    version = subprocess.run(["/usr/bin/chromium", "--version"], capture_output=True, text=True, check=True).stdout
    expected = re.search(r"\b(\d+\.\d+\.\d+\.\d+)\b", version)
    assert expected, version
    browser = page.context.new_cdp_session(page).send("Browser.getVersion")
    assert browser["product"].endswith(f"Chrome/{expected.group(1)}"), (browser["product"], version)
