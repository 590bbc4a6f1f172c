"""Two referees forced onto one preferred slot, in two processes, never run bots as one host uid.

A bot runs as host uid ``uid_base + slot * 8 + player``; the kernel counts
RLIMIT_NPROC per uid host-wide, and uids decide who may signal whom. Here a
referee in a subprocess (another Celery pool process, or another match-worker
container) runs a bot that holds every process its pids limit allows, while a
referee in this process plays a series, at the same preferred slot, whose bot
starts threads and a child process as any bot may. The running bots' uids are
read from /proc, not from the allocator's bookkeeping (workers/slots.py).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.arena.services import descendants
from workers.botpkg import load_bot_package
from workers.referee import Referee, SeriesSpec, TimeControl, run_series
from workers.sandbox import BotProcess, Limits
from workers.slots import SLOTS, UIDS_PER_SLOT

REPO = Path(__file__).resolve().parents[2]
#: The hostile suite's uid range (conftest.py), clear of production uids, and a slot of it
#: the hostile fixture does not prefer, so the two referees here are each other's only rival.
UID_BASE = 60000
PREFERRED = 9
LIMITS = Limits(memory_mb=64, pids=16, tmp_mb=8, shm_mb=8)  # RLIMIT_NPROC: pids + 4 = 20 per slot uid
#: As the hostile suite's: generous for bots that answer, so a loaded machine times nobody out.
PATIENT = TimeControl(decision_ms=3000, bank_ms=20000)

HOLDER = '''
"""Holds every task its pids limit allows, then waits in its first decision until SIGUSR1."""
import signal, sys, threading
from bots.sdk import run

signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})  # the threads inherit the mask: sigwait gets it
parked = threading.Event()
started = 0
while True:
    try:
        threading.Thread(target=parked.wait, daemon=True).start()
    except RuntimeError:
        break
    started += 1
print(f"HOSTILE holding: {started} threads", file=sys.stderr, flush=True)
released = []


def choose(observation, legal_actions):
    if not released:
        signal.sigwait({signal.SIGUSR1})
        released.append(True)
    return legal_actions[0]


run(choose)
'''

INNOCENT = '''
"""An ordinary bot: four worker threads and a child process at start-up, then the first legal action."""
import os, sys, threading
from bots.sdk import run

done = threading.Event()
threads = [threading.Thread(target=done.wait, daemon=True) for _ in range(4)]
for thread in threads:
    thread.start()
child = os.fork()
if child == 0:
    os._exit(0)
os.waitpid(child, 0)
done.set()
for thread in threads:
    thread.join()
print("HOSTILE innocent: 4 threads and a child process", file=sys.stderr, flush=True)
run(lambda observation, legal_actions: legal_actions[0])
'''

RUNNER = textwrap.dedent(
    """
    import json, sys, time
    sys.path[:0] = [sys.argv[1]]
    from pathlib import Path
    from workers.botpkg import load_bot_package
    from workers.referee import Referee, SeriesSpec, TimeControl, run_series
    from workers.sandbox import BotProcess, Limits
    sys.path[:0] = [sys.argv[2]]
    from test_slot_sharing import live_processes_of

    start_bots, kill, left = Referee.start_bots, BotProcess.kill, []

    def reporting_start_bots(self):
        start_bots(self)
        print(json.dumps({"slot": self.slot}), flush=True)

    def checking_kill(process):  # before the referee gives its slot back: nothing of the bot may be left
        kill(process)
        deadline = time.monotonic() + 5
        while live_processes_of(process.uid) and time.monotonic() < deadline:
            time.sleep(0.02)
        left.extend(live_processes_of(process.uid))

    Referee.start_bots, BotProcess.kill = reporting_start_bots, checking_kill
    packages, work, slot = Path(sys.argv[3]), Path(sys.argv[4]), int(sys.argv[5])
    bots = [load_bot_package(packages / name, work) for name in ("holder", "polite")]
    document = run_series(SeriesSpec(
        bots=bots, sandbox="bwrap", slot=slot, uid_base=int(sys.argv[6]), games=2,
        time_control=TimeControl(decision_ms=60000, bank_ms=120000),
        limits=Limits(memory_mb=64, pids=16, tmp_mb=8, shm_mb=8),
    ))
    print(json.dumps({"forfeits": [game["forfeit"] for game in document["games"]], "left": left}), flush=True)
    """
)


def make_bot(directory: Path, name: str, source: str) -> Path:
    directory.mkdir(parents=True)
    (directory / "bot.toml").write_text(f'name = "{name}"\nentry = "main.py"\ngames = ["watch"]\n')
    (directory / "main.py").write_text(source)
    return directory


def status_of(pid: int | str) -> dict[str, str] | None:
    try:
        with open(f"/proc/{pid}/status") as handle:
            return {key: value.strip() for key, value in (line.split(":", 1) for line in handle if ":" in line)}
    except OSError:
        return None


def live(status: dict[str, str] | None) -> bool:
    return status is not None and not status["State"].startswith(("Z", "X"))


def uid_of(status: dict[str, str]) -> int:
    return int(status["Uid"].split()[0])


def live_processes_of(uid: int | None) -> list[int]:
    """Return the host's live (not zombie) processes whose real uid is ``uid``."""
    if uid is None:
        return []
    found = []
    for name in filter(str.isdigit, os.listdir("/proc")):
        status = status_of(name)
        if live(status) and uid_of(status) == uid:  # type: ignore[arg-type]
            found.append(int(name))
    return found


def tasks_of(uid: int) -> int:
    """Return how many tasks (threads included) the host runs as ``uid``: what RLIMIT_NPROC counts."""
    return sum(int(status_of(pid)["Threads"]) for pid in live_processes_of(uid) if status_of(pid))  # type: ignore[index]


#: Every uid a bot of this test's uid base can run as.
SUITE_UIDS = range(UID_BASE, UID_BASE + SLOTS * UIDS_PER_SLOT)


def bot_uids(pids: list[int]) -> set[int]:
    """Return the uids of the live, unprivileged processes among ``pids``."""
    statuses = [status_of(pid) for pid in pids]
    return {uid_of(status) for status in statuses if live(status) and uid_of(status) != 0}  # type: ignore[arg-type]


@pytest.fixture
def holder_runner(sandbox_ready: None, tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """A referee in a subprocess whose bot holds its pids limit and waits for SIGUSR1; yield it and its slot."""
    packages = tmp_path / "packages"
    make_bot(packages / "holder", "holder", HOLDER)
    make_bot(packages / "polite", "polite", (REPO / "tests/workers/hostile/polite/main.py").read_text())
    arguments = (REPO, Path(__file__).parent, packages, tmp_path / "work", PREFERRED, UID_BASE)
    runner = subprocess.Popen([sys.executable, "-c", RUNNER, *map(str, arguments)], stdout=subprocess.PIPE, text=True)
    assert runner.stdout is not None
    try:
        yield runner, json.loads(runner.stdout.readline())["slot"]
    finally:
        if runner.poll() is None:
            runner.kill()  # its bots die with it (--die-with-parent)
        runner.wait()
        runner.stdout.close()


def test_a_bot_holding_its_process_limit_in_another_process_does_not_stop_a_series_preferring_its_slot(
    holder_runner: tuple[subprocess.Popen[str], int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner, runner_slot = holder_runner
    holder_uid = UID_BASE + runner_slot * 8
    deadline = time.monotonic() + 60
    while tasks_of(holder_uid) < LIMITS.pids:  # bubblewrap's two, the bot, and threads up to the cgroup's limit
        assert runner.poll() is None, "the holder's referee ended early"
        assert time.monotonic() < deadline, f"the holder never reached its pids limit: {tasks_of(holder_uid)} tasks"
        time.sleep(0.02)

    # While the holder waits on its turn, this process referees a series preferring the same slot.
    samples: list[tuple[set[int], set[int]]] = []  # (uids in the runner's process tree, in this process's)

    def sample() -> None:
        # This process may referee other series meanwhile (a suite's living ladder in a thread, as the
        # embedded platform runs them): only the uids of this test's range are the two series' bots.
        # Ours from one walk that never enters the runner: a process the runner's tree started
        # after `theirs` was read would otherwise count as ours too.
        theirs = {runner.pid, *descendants(runner.pid)}
        ours = bot_uids(descendants(os.getpid(), prune=frozenset({runner.pid})))
        samples.append((bot_uids(list(theirs)), {uid for uid in ours if uid in SUITE_UIDS}))

    start_bots, kill = Referee.start_bots, BotProcess.kill
    started: list[tuple[set[int], set[int]]] = []
    left: list[int] = []

    def start_and_look(self: Referee) -> None:
        start_bots(self)
        sample()  # every bot of this series exists now, each as its uid (set before bubblewrap's exec)
        started.append(samples[-1])

    def checking_kill(process: BotProcess) -> None:  # before the referee gives its slot back
        kill(process)
        deadline = time.monotonic() + 5
        while live_processes_of(process.uid) and time.monotonic() < deadline:
            time.sleep(0.02)
        left.extend(live_processes_of(process.uid))

    monkeypatch.setattr(Referee, "start_bots", start_and_look)
    monkeypatch.setattr(BotProcess, "kill", checking_kill)
    innocent = load_bot_package(make_bot(tmp_path / "innocent", "innocent", INNOCENT), tmp_path / "work")
    polite = load_bot_package(REPO / "tests/workers/hostile/polite", tmp_path / "work")
    spec = SeriesSpec(bots=[innocent, polite], sandbox="bwrap", slot=PREFERRED, uid_base=UID_BASE, games=2,
                      time_control=PATIENT, limits=LIMITS)  # fmt: skip
    outcome: dict[str, Any] = {}

    def play() -> None:
        try:
            outcome["document"] = run_series(spec)
        except BaseException as exc:  # reported below
            outcome["error"] = exc

    series = threading.Thread(target=play)
    series.start()
    while series.is_alive():
        sample()
        time.sleep(0.01)
    series.join()
    assert "error" not in outcome, outcome["error"]
    document = outcome["document"]

    # What its author sees: the bot started its threads and its child, and played its series out.
    forfeits = [game["forfeit"] for game in document["games"]]
    assert forfeits == [None, None], (forfeits, document["stderr"][0]["text"][-2000:])
    assert "HOSTILE innocent: 4 threads and a child process" in document["stderr"][0]["text"]
    # What /proc showed while both series ran: never one uid in both referees' process trees.
    ((theirs, ours),) = started
    assert holder_uid in theirs
    assert len(ours) == 2, started  # this series' two bots, each of its own uid
    assert all(not theirs & ours for theirs, ours in samples), [sorted(a & b) for a, b in samples if a & b][:3]
    assert left == []

    # Let the holder answer: its series ends normally and leaves nothing behind either.
    for pid in descendants(runner.pid):
        status = status_of(pid)
        if live(status) and uid_of(status) == holder_uid and status["Name"] == "python3":  # type: ignore[arg-type,index]
            os.kill(pid, signal.SIGUSR1)
    assert runner.stdout is not None
    assert json.loads(runner.stdout.readline()) == {"forfeits": [None, None], "left": []}
    assert runner.wait(timeout=60) == 0
