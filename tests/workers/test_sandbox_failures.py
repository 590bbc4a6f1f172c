"""A bot whose code ran and failed forfeits; a sandbox that never started is the platform's failure.

Inside the sandbox, before any bot code, the launcher writes a marker to the
bot's stderr. A bot that dies after it crashed (a forfeit, its fault); a bot
process that dies without it never ran, so the series fails as an
infrastructure error instead of costing the bot a game.
"""

from __future__ import annotations

import pytest

from workers import sandbox
from workers.botpkg import load_bot_package
from workers.referee import CRASH, SandboxFailure


def test_it_blames_the_sandbox_not_the_bot_when_bubblewrap_cannot_start(arena, monkeypatch) -> None:
    real = sandbox.bwrap_command

    def broken(*args, **kwargs):
        argv = real(*args, **kwargs)
        return [argv[0], "--ro-bind", "/nonexistent-arena-source", "/broken", *argv[1:]]

    monkeypatch.setattr(sandbox, "bwrap_command", broken)
    with pytest.raises(SandboxFailure, match=r"the sandbox could not start hostile_no_start.*nonexistent-arena-source"):
        arena.play(arena.package("polite", files={"bot.toml": 'name = "hostile_no_start"\nentry = "main.py"\n'}))
    assert arena.wait_no_survivors(arena.uids()) == []


def test_a_python_bot_that_dies_at_once_forfeits_as_a_crash(arena) -> None:
    series = arena.play(arena.package("polite", files={"main.py": "raise SystemExit(3)\n"}))
    forfeit = series.assert_forfeit(CRASH)
    assert "exited with code 3" in forfeit["detail"]


def test_a_shell_bot_that_dies_at_once_forfeits_as_a_crash(arena, tmp_path) -> None:
    bot = tmp_path / "quitter"
    bot.mkdir()
    (bot / "bot.toml").write_text('name = "quitter"\nentry = "run"\n')
    (bot / "run").write_text("#!/bin/sh\necho leaving >&2\nexit 4\n")
    (bot / "run").chmod(0o755)
    series = arena.play(load_bot_package(bot, tmp_path / "work"))
    forfeit = series.assert_forfeit(CRASH)
    assert "exited with code 4" in forfeit["detail"]
    assert series.document["stderr"][0]["text"] == "leaving\n"


HELLO_BOT = "import sys\nprint('hello', file=sys.stderr)\nfrom bots.sdk import run\nrun(lambda o, legal: legal[0])\n"


def test_the_marker_is_not_part_of_the_bots_log(arena) -> None:
    series = arena.play(arena.package("polite", files={"main.py": HELLO_BOT}))
    series.assert_completed()
    assert series.document["stderr"][0]["text"] == "hello\n"
    assert sandbox.STARTED_MARKER.decode() not in series.document["stderr"][1]["text"]
