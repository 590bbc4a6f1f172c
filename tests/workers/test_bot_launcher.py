"""How a Python bot starts in the sandbox: its entry file as ``__main__``, with nothing imported it did not ask for."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from workers.botpkg import load_bot_package
from workers.sandbox import STARTED_MARKER, Limits, SandboxError, python_bot_command, shared_staging, start_bot
from workers.slots import UIDS_PER_SLOT, holds_uid, lease_slot

HOSTILE = Path(__file__).parent / "hostile"


def run_bot(tmp_path: Path, source: str) -> tuple[int, str]:
    """Run ``source`` as a sandboxed bot's main.py with no input; return its exit status and stderr."""
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "main.py").write_text(source)
    staging = shared_staging()
    with lease_slot(1000) as lease:  # its uids: 100000 + slot * 8 + player
        process = start_bot(
            python_bot_command("main.py"),
            staging.add_bot(bot, f"launcher-{abs(hash(source))}"),
            runtime_dir=staging.runtime,
            limits=Limits(),
            slot=lease.slot * UIDS_PER_SLOT,
        )
        try:
            _, stderr = process.popen.communicate(b"", timeout=30)
            return process.popen.returncode, stderr.decode()
        finally:
            process.kill()


def test_a_bot_on_the_sdk_starts_without_json_re_runpy_or_site(sandbox_ready: None, tmp_path: Path) -> None:
    source = (
        "import sys\n"
        "from bots.sdk import run\n"
        "heavy = ('json', 're', 'enum', 'runpy', 'pkgutil', 'typing', 'site', 'sitecustomize')\n"
        "print('LOADED', sorted(name for name in heavy if name in sys.modules), file=sys.stderr)\n"
        "run(lambda observation, legal_actions: legal_actions[0])\n"
    )
    status, stderr = run_bot(tmp_path, source)
    assert status == 0, stderr
    assert stderr.startswith(STARTED_MARKER.decode())
    assert "LOADED []" in stderr.splitlines()


def test_the_entry_file_runs_as_main_as_python_would_run_it(sandbox_ready: None, tmp_path: Path) -> None:
    source = (
        "import pickle, sys\n"
        "class Memo:\n"
        "    pass\n"
        "assert __name__ == '__main__' and __file__ == '/bot/main.py', (__name__, __file__)\n"
        "assert sys.modules['__main__'].Memo is Memo\n"
        "assert isinstance(pickle.loads(pickle.dumps(Memo())), Memo)\n"
        "assert sys.argv == ['/bot/main.py'] and sys.path[:2] == ['/bot', '/arena'], (sys.argv, sys.path)\n"
        "assert 'code' not in globals() and 'source' not in globals()\n"
        "print('REACHED', file=sys.stderr)\n"
        "exit(3)\n"
    )
    status, stderr = run_bot(tmp_path, source)
    assert "REACHED" in stderr, stderr
    assert status == 3


def test_a_bot_that_raises_shows_its_own_file_and_line(sandbox_ready: None, tmp_path: Path) -> None:
    status, stderr = run_bot(tmp_path, "x = 1\nraise RuntimeError('from the bot')\n")
    assert status == 1
    assert 'File "/bot/main.py", line 2, in <module>' in stderr
    assert "RuntimeError: from the bot" in stderr


@pytest.mark.parametrize("name", ["quit", "exit"])
def test_quit_and_exit_end_the_bot_with_their_status(sandbox_ready: None, tmp_path: Path, name: str) -> None:
    status, _ = run_bot(tmp_path, f"{name}(5)\n")
    assert status == 5


def test_series_running_side_by_side_in_one_process_get_slots_and_uids_of_their_own(
    sandbox_ready: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The embedded platform runs series in threads of one process: their bots must not share uids."""
    import threading

    import workers.referee
    from workers.referee import SeriesSpec, TimeControl, run_series

    polite = load_bot_package(HOSTILE / "polite", Path(tempfile.mkdtemp()))
    slots: list[int] = []
    both_started = threading.Barrier(2, timeout=30)
    real_start = workers.referee.start_bot

    def start_and_wait(*args, **kwargs):  # type: ignore[no-untyped-def]
        process = real_start(*args, **kwargs)
        slots.append(kwargs["slot"])
        if kwargs["slot"] % 8 == 1:  # each series' second bot: wait until the other series has its bots too
            both_started.wait()
        return process

    monkeypatch.setattr(workers.referee, "start_bot", start_and_wait)
    documents: list[dict] = []
    failures: list[BaseException] = []
    spec = SeriesSpec(bots=[polite, polite], games=2, time_control=TimeControl(decision_ms=3000, bank_ms=20000))

    def play() -> None:
        try:
            documents.append(run_series(spec))
        except BaseException as exc:  # reported below, with the series that did finish
            failures.append(exc)
            both_started.abort()

    threads = [threading.Thread(target=play) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not failures, failures
    assert len(documents) == 2
    for document in documents:
        assert [game["forfeit"] for game in document["games"]] == [None, None]
    assert len(set(slots)) == 4, slots  # four bots, four slots, so four uids
    assert not any(holds_uid(100000 + slot) for slot in slots)  # every lease given back


def test_a_bot_is_not_started_as_root_at_a_uid_of_a_slot_nobody_leased(sandbox_ready: None, tmp_path: Path) -> None:
    """start_bot called directly (tests, benchmarks) must hold the slot, as a referee does."""
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "main.py").write_text("pass\n")
    staging = shared_staging()
    with lease_slot(1000) as lease:
        unleased = (lease.slot + 1) * UIDS_PER_SLOT  # the next slot's first uid: not this process's
        with pytest.raises(SandboxError, match=f"bot uid {100000 + unleased} is not in a worker slot"):
            start_bot(python_bot_command("main.py"), staging.add_bot(bot, "unleased"), runtime_dir=staging.runtime,
                      limits=Limits(), slot=unleased)  # fmt: skip
