"""A bot whose code ran and failed forfeits; a sandbox that never started is the platform's failure.

Inside the sandbox, before any bot code, the launcher writes a marker to the
bot's stderr. A bot that dies after it crashed (a forfeit, its fault); a bot
process that dies without it never ran, so the series fails as an
infrastructure error instead of costing the bot a game. So is a bot whose
cgroup vanished before it could join it: the series fails with a
SandboxFailure naming the cgroup (a match worker retries it, the CLI says it
in one line), and nothing of either bot is left.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from workers import cli, sandbox
from workers.botpkg import load_bot_package
from workers.cgroups import BotCgroup
from workers.referee import CRASH, SandboxFailure

WATCH_BOTS = Path(__file__).resolve().parents[2] / "bots" / "watch" / "packages"


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


def vanish_on_start(monkeypatch: pytest.MonkeyPatch, when: str, nth: int) -> list[Path]:
    """Make the ``nth`` bot cgroup made from now on vanish ``when`` its bot starts; return its directories.

    ``after creation``: right after :func:`create_bot_cgroup` made it, before the OOM watch (v1)
    opens its files; ``before joining``: just before the bot's process is forked to join it.
    The directories are empty (no process has joined), so removing them is what a sweep would do.
    """
    made: list[BotCgroup] = []
    gone: list[Path] = []
    create, command = sandbox.create_bot_cgroup, sandbox.bwrap_command

    def remove(group: BotCgroup) -> None:
        for directory in group.dirs.values():
            directory.rmdir()
            gone.append(directory)

    def creating(*args: Any, **kwargs: Any) -> BotCgroup | None:
        group = create(*args, **kwargs)
        assert group is not None, "this test needs cgroups"
        made.append(group)
        if when == "after creation" and len(made) == nth:
            remove(group)
        return group

    def commanding(*args: Any, **kwargs: Any) -> list[str]:
        if when == "before joining" and len(made) == nth:
            remove(made[-1])
        return command(*args, **kwargs)

    monkeypatch.setattr(sandbox, "create_bot_cgroup", creating)
    monkeypatch.setattr(sandbox, "bwrap_command", commanding)
    return gone


@pytest.mark.parametrize("when", ["after creation", "before joining"])
def test_a_cgroup_that_vanishes_under_a_starting_bot_fails_the_series_and_leaves_nothing(
    arena, monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    # The second bot's cgroup goes: the first bot is running by then and must be stopped too.
    gone = vanish_on_start(monkeypatch, when, nth=2)
    second = arena.package("polite", files={"bot.toml": 'name = "second"\nentry = "main.py"\n'})
    with pytest.raises(SandboxFailure) as failure:
        arena.play("polite", second)
    message = str(failure.value)
    assert message.startswith("the sandbox could not start second: the bot's cgroup vanished before the bot"), message
    assert gone  # v1: a directory per controller; v2: one
    assert all(str(directory) in message for directory in gone), message
    assert "\n" not in message
    assert arena.wait_no_survivors(arena.uids()) == []
    assert [str(d) for group in arena.cgroups for d in group.dirs.values() if d.exists()] == []


def test_the_cli_says_in_one_line_that_a_bots_cgroup_vanished(
    sandbox_ready: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    gone = vanish_on_start(monkeypatch, "before joining", nth=1)
    code = cli.main(["play", "watch", str(WATCH_BOTS / "greedy"), str(WATCH_BOTS / "random"), "--games", "2"])
    captured = capsys.readouterr()
    assert code == cli.EXIT_ERROR
    assert captured.out == ""
    assert captured.err.startswith("arena play: the sandbox could not start greedy: the bot's cgroup vanished")
    assert str(gone[0]) in captured.err
    assert captured.err.count("\n") == 1, captured.err  # one line, no traceback
