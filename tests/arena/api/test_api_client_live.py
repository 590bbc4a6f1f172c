"""``arena upload`` and ``arena status`` (workers/apiclient.py) against the real app on a live server.

Tasks run in-process here (no broker), so an upload's validation series runs
in the sandbox as soon as the upload is committed, as in the demo.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arena.api.tokens import issue_token
from arena.bots.models import BotVersion
from workers.cli import main

pytestmark = pytest.mark.django_db(transaction=True)

REPO = Path(__file__).resolve().parents[3]
STARTER = REPO / "bots" / "starter" / "watch-python"


@pytest.fixture
def arena(live_server: Any, owner: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, settings: Any) -> Callable:
    """Return a function running ``arena ARGS`` as owner against the live server: (exit code, stdout, stderr)."""
    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    _, key = issue_token(owner, "cli")
    monkeypatch.setenv("ARENA_TOKEN", key)
    monkeypatch.setenv("ARENA_SERVER", live_server.url)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))

    def run(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
        code = main(list(args))
        captured = capsys.readouterr()
        assert key not in captured.out + captured.err  # the token is never printed
        return code, captured.out, captured.err

    return run


def crashing_bot(tmp_path: Path) -> Path:
    bot = tmp_path / "crasher"
    bot.mkdir()
    (bot / "bot.toml").write_text('name = "crasher"\nentry = "main.py"\ngames = ["watch"]\n')
    (bot / "main.py").write_text("import sys\nsys.exit(3)\n")
    return bot


def test_upload_with_wait_shows_the_version_become_active(arena: Callable, owner: Any, capsys: Any) -> None:
    code, out, err = arena("upload", str(STARTER), "--bot", "starter", "--wait", capsys=capsys)
    assert code == 0, err
    assert "Uploaded starter version 1" in out
    assert "starter v1: active" in out
    assert BotVersion.objects.get(bot__owner=owner, bot__name="starter").status == "active"


def test_upload_with_wait_prints_why_validation_failed(arena: Callable, tmp_path: Path, capsys: Any) -> None:
    code, out, _ = arena("upload", str(crashing_bot(tmp_path)), "--bot", "crasher", "--wait", capsys=capsys)
    assert code == 1
    assert "crasher v1: failed validation: watch: validation series: game 1, its move 1" in out


def test_a_refused_archive_shows_the_servers_reason(arena: Callable, tmp_path: Path, capsys: Any) -> None:
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"this is no zip")
    code, _, err = arena("upload", str(junk), "--bot", "junk", capsys=capsys)
    assert code == 2
    assert "arena upload: the server refused it: archive: junk.zip: not a bot directory, .zip or .tar.gz" in err
    assert not BotVersion.objects.exists()


def test_status_lists_my_bots_with_their_ratings(arena: Callable, recorded_season: Any, capsys: Any) -> None:
    code, out, _ = arena("status", capsys=capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("owner on http://")
    assert lines[1].split()[:4] == ["Bot", "Version", "Status", "Uploaded"]
    (row,) = [line for line in lines if line.startswith("chatty")]
    assert "active" in row
    assert "API ladder (provisional)" in row
    assert "greedy" not in out  # mallory's bot


def test_status_of_one_bot_that_does_not_exist(arena: Callable, capsys: Any) -> None:
    code, out, _ = arena("status", "--bot", "nothing", capsys=capsys)
    assert code == 0
    assert "owner has no bot named 'nothing'" in out


def test_a_bad_token_says_where_to_get_one(
    arena: Callable, live_server: Any, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    monkeypatch.setenv("ARENA_TOKEN", "wa_not-a-real-key")
    code, _, err = arena("status", capsys=capsys)
    assert code == 1
    assert f"your token was refused: create one at {live_server.url}/account/tokens/" in err
    assert "wa_not-a-real-key" not in err


def test_too_many_uploads_say_when_to_retry(arena: Callable, tmp_path: Path, settings: Any, capsys: Any) -> None:
    settings.ARENA_UPLOAD_RATE = "1/h"
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"this is no zip")
    assert arena("upload", str(junk), "--bot", "junk", capsys=capsys)[0] == 2
    code, _, err = arena("upload", str(junk), "--bot", "junk", capsys=capsys)
    assert code == 1
    assert "too many requests: try again in" in err
    assert "seconds" in err
