"""Fixtures for running bots through the real sandbox and checking that the host is untouched.

``arena`` runs a series between a bot from ``hostile/`` and a well-behaved
opponent through everything a match worker uses (bubblewrap, cgroups, the
seccomp filter, a uid per slot) and, after every series, checks the host: no
process of the bots' uids is left running, the bots' cgroups are gone, and
the canary secret put in the referee's environment appears nowhere in the
result document. docs/sandbox.md maps each bot to the layer it tests.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import workers.sandbox
from workers.botpkg import BotPackage, load_bot_package
from workers.cgroups import BotCgroup
from workers.referee import SeriesSpec, TimeControl, run_series
from workers.sandbox import BotProcess, Limits, sandbox_problem
from workers.slots import SlotLease, lease_slot

HOSTILE = Path(__file__).parent / "hostile"
UID_BASE = 60000
#: Bots run as UID_BASE + slot * 8 + player. Each test leases its slot host-wide
#: (workers/slots.py) for its whole length, preferring SLOT (uids 60056 and
#: 60057), and checks exactly its slot's uids: another copy of the suite running
#: beside it leases another slot, so neither confuses the other's bots with its own.
SLOT = 7
CANARY_VARIABLE = "ARENA_CANARY_SECRET"

#: Small limits: hostile bots hit them fast.
LIMITS = Limits(memory_mb=64, pids=16, tmp_mb=8, shm_mb=8, cpu_seconds=60)
#: For bots that answer: generous, so a loaded machine does not time them out
#: (a bot's start-up runs inside its first decision).
PATIENT = TimeControl(decision_ms=3000, bank_ms=20000)
#: For bots that are expected not to answer: short, so the suite stays fast.
SHORT = TimeControl(decision_ms=300, bank_ms=3000)
#: The referee's extra allowance for a bot's first answer (start-up and imports), shortened likewise.
START_TIMEOUT_MS = 500


def bot_uids(slot: int, players: int = 2) -> list[int]:
    """Return the uids the bots of a series at ``slot`` run as."""
    return [UID_BASE + slot * 8 + player for player in range(players)]


@dataclass(frozen=True)
class HostProcess:
    pid: int
    uid: int
    state: str  # as in /proc/<pid>/status: "R (running)", "Z (zombie)", ...
    cmdline: str

    @property
    def zombie(self) -> bool:
        return self.state.startswith(("Z", "X"))

    def __str__(self) -> str:
        return f"{self.pid} uid={self.uid} {self.state} {self.cmdline[:100]}"


def processes_of(uids: Iterable[int]) -> list[HostProcess]:
    """Return every process on the host whose real or effective uid is in ``uids`` (zombies too)."""
    wanted = set(uids)
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status") as handle:
                status = dict(line.split(":", 1) for line in handle if ":" in line)
            real, effective = (int(value) for value in status["Uid"].split()[:2])
            if real not in wanted and effective not in wanted:
                continue
            with open(f"/proc/{name}/cmdline", "rb") as handle:
                cmdline = handle.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except (OSError, KeyError, ValueError):
            continue  # gone meanwhile
        found.append(HostProcess(int(name), effective, status["State"].strip(), cmdline))
    return found


def wait_no_survivors(uids: Iterable[int], timeout: float = 5.0, spare: Iterable[int] = ()) -> list[HostProcess]:
    """Wait up to ``timeout`` s until no process of ``uids`` but ``spare`` runs; return the survivors.

    Zombies run nothing and are not survivors; see test_no_zombie_is_left_to_the_host_init
    for why bubblewrap leaves some for the host's init to reap.
    """
    uids, spare = list(uids), set(spare)
    deadline = time.monotonic() + timeout
    while True:
        left = [p for p in processes_of(uids) if not p.zombie and p.pid not in spare]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.02)


def reports(text: str) -> dict[str, str]:
    """Return the ``HOSTILE <probe>: <outcome>`` lines a hostile bot wrote to stderr, by probe."""
    found = {}
    for line in text.splitlines():
        if line.startswith("HOSTILE ") and ": " in line:
            probe, outcome = line[len("HOSTILE ") :].split(": ", 1)
            found[probe] = outcome
    return found


@dataclass
class Series:
    """A finished series: the result document and what the arena measured."""

    document: dict[str, Any]
    hostile: int  # the series player that is the bot under test
    cpu_seconds: list[float | None]  # per player: its cgroup's CPU time, read just before it was killed
    frozen: list[tuple[float, float]]  # per player: (CPU seconds used off turn, wall seconds off turn)

    @property
    def forfeits(self) -> list[dict[str, Any]]:
        return [game["forfeit"] for game in self.document["games"] if game["forfeit"] is not None]

    def stderr(self, player: int | None = None) -> str:
        player = self.hostile if player is None else player
        return self.document["stderr"][player]["text"]

    def reports(self, player: int | None = None) -> dict[str, str]:
        return reports(self.stderr(player))

    def decision_ms(self, player: int) -> list[float]:
        """Return the time each of ``player``'s answered decisions took."""
        return [
            action["ms"]
            for game in self.document["games"]
            for action in game["actions"]
            if game["seats"][action["seat"]] == player
        ]

    def assert_forfeit(self, reason: str) -> dict[str, Any]:
        """Assert the hostile bot, and only it, forfeited (ending the series) for ``reason``; return the forfeit."""
        assert len(self.forfeits) == 1, self.forfeits
        forfeit = self.forfeits[0]
        assert forfeit["player"] == self.hostile, forfeit
        assert forfeit["reason"] == reason, forfeit
        assert self.document["games"][-1]["forfeit"] is forfeit  # the forfeit ended the series
        return forfeit

    def assert_completed(self) -> None:
        """Assert every planned game was played out, with no forfeit."""
        assert self.forfeits == [], (self.forfeits, self.stderr())
        assert len(self.document["games"]) == self.document["games_planned"]


@dataclass
class Arena:
    """Runs series through the real sandbox, at the slot the test has leased, and checks the host after each one."""

    tmp_path: Path
    canary: str
    lease: SlotLease
    cgroups: list[BotCgroup] = field(default_factory=list)
    cpu_log: list[float | None] = field(default_factory=list)
    frozen: dict[int, list[Any]] = field(default_factory=dict)  # bot uid -> [cpu, wall, since]

    # Test modules cannot import conftest (importlib import mode): they reach these through the fixture.
    limits = LIMITS
    patient = PATIENT
    short = SHORT
    start_timeout_ms = START_TIMEOUT_MS
    uid_base = UID_BASE
    hostile_dir = HOSTILE
    uids_of = staticmethod(bot_uids)
    processes_of = staticmethod(processes_of)
    wait_no_survivors = staticmethod(wait_no_survivors)

    @property
    def slot(self) -> int:
        """The slot this test leased: every series it plays runs its bots there."""
        return self.lease.slot

    def uids(self, players: int = 2) -> list[int]:
        """Return the uids the bots of this test's series run as."""
        return bot_uids(self.slot, players)

    def reap_own_zombies(self, uids: Iterable[int] | None = None) -> None:
        """Reap this process's zombie children of the bots' ``uids`` (orphans adopted as a subreaper)."""
        for process in processes_of(self.uids() if uids is None else uids):
            if process.zombie:
                with contextlib.suppress(ChildProcessError):  # not our child: the host's init reaps it
                    os.waitpid(process.pid, os.WNOHANG)

    def package(
        self, name: str, targets: dict[str, Any] | None = None, files: dict[str, str] | None = None
    ) -> BotPackage:
        """Load ``hostile/<name>``; with ``targets`` (targets.json) or ``files``, from a copy that holds them."""
        source = HOSTILE / name
        if targets is not None or files:
            copies = self.tmp_path / "packages"
            copy = copies / name
            while copy.exists():  # a second copy of one bot, with other targets
                copy = copies / f"{copy.name}-"
            shutil.copytree(source, copy)
            if targets is not None:
                (copy / "targets.json").write_text(json.dumps(targets))
            for file_name, text in (files or {}).items():
                (copy / file_name).write_text(text)
            source = copy
        return load_bot_package(source, self.tmp_path / "work")

    def play(
        self,
        hostile: BotPackage | str,
        opponent: BotPackage | str = "polite",
        *,
        hostile_player: int = 0,
        time_control: TimeControl = PATIENT,
        limits: Limits = LIMITS,
        spare: Iterable[int] = (),
        **spec: Any,
    ) -> Series:
        """Run a two-game series with the hostile bot as ``hostile_player``, then check the host.

        ``spare``: host pids of the bots' uids that the test itself started and may outlive the series.
        """
        hostile = self.package(hostile) if isinstance(hostile, str) else hostile
        opponent = self.package(opponent) if isinstance(opponent, str) else opponent
        bots = [opponent, opponent]
        bots[hostile_player] = hostile
        spec.setdefault("start_timeout_ms", START_TIMEOUT_MS)
        series_spec = SeriesSpec(
            bots=bots,
            sandbox="bwrap",
            slot=self.slot,
            uid_base=UID_BASE,
            time_control=time_control,
            limits=limits,
            **spec,
        )
        first_cgroup = len(self.cgroups)
        self.cpu_log.clear()
        self.frozen.clear()
        document = run_series(series_spec, slot_lease=self.lease)
        # In player order: each bot is first stopped when its own sandbox has started, in any order.
        never = [0.0, 0.0, None]
        frozen = [
            (round(cpu, 3), round(wall, 3))
            for cpu, wall, _ in (self.frozen.get(u, never) for u in self.uids(len(bots)))
        ]
        series = Series(document=document, hostile=hostile_player, cpu_seconds=list(self.cpu_log), frozen=frozen)
        self.assert_host_untouched(series, self.cgroups[first_cgroup:], spare)
        return series

    def assert_host_untouched(self, series: Series, cgroups: list[BotCgroup], spare: Iterable[int]) -> None:
        survivors = wait_no_survivors(self.uids(), spare=spare)
        assert not survivors, f"bot processes outlived the series: {[str(p) for p in survivors]}"
        assert len(cgroups) == 2, "every bot should have had its own cgroup"
        for group in cgroups:
            left = [str(d) for d in group.dirs.values() if d.exists()]
            assert not left, f"cgroups left behind: {left}"
        assert self.canary not in json.dumps(series.document), "the referee's environment leaked to a bot"


@pytest.fixture(scope="session")
def sandbox_ready() -> None:
    problem = sandbox_problem()
    if problem:
        pytest.skip(f"the sandbox cannot run here: {problem}")
    if os.geteuid() != 0:
        pytest.skip("the hostile-bot suite needs root (a uid per slot, cgroups)")


@pytest.fixture
def canary(monkeypatch: pytest.MonkeyPatch) -> str:
    """A secret in the referee's environment that no bot may ever see."""
    value = "canary-" + secrets.token_hex(16)
    monkeypatch.setenv(CANARY_VARIABLE, value)
    return value


@pytest.fixture
def leased_slot(sandbox_ready: None) -> Iterator[SlotLease]:
    """A worker slot leased host-wide for the test's whole length (SLOT when free), with no process of its uids.

    A slot whose uids run processes although nobody leased it (a suite of code older
    than the leases) is passed over: its survivors are not this test's to judge.
    """
    passed_over: list[SlotLease] = []
    try:
        for _ in range(16):
            lease = lease_slot(passed_over[-1].slot + 1 if passed_over else SLOT, UID_BASE)
            if not processes_of(bot_uids(lease.slot, 8)):
                break
            passed_over.append(lease)
        else:
            pytest.fail(f"processes run as the uids of every slot from {SLOT} on although nobody leased them")
    finally:
        for other in passed_over:
            other.release()
    with lease:
        yield lease


@pytest.fixture
def arena(leased_slot: SlotLease, tmp_path: Path, canary: str, monkeypatch: pytest.MonkeyPatch) -> Arena:
    """An :class:`Arena` that records the cgroups its bots get and the CPU they use, frozen or not."""
    arena = Arena(tmp_path=tmp_path, canary=canary, lease=leased_slot)
    create, kill = workers.sandbox.create_bot_cgroup, BotProcess.kill
    freeze, thaw = BotProcess.freeze, BotProcess.thaw

    def recording_create(*args: Any, **kwargs: Any) -> BotCgroup | None:
        group = create(*args, **kwargs)
        if group is not None:
            arena.cgroups.append(group)
        return group

    def recording_kill(process: BotProcess) -> None:  # the referee kills the bots in player order
        arena.cpu_log.append(process.cpu_seconds())
        kill(process)

    # CPU used off turn: from the moment freeze() returns (the bot stopped, or left blocked reading
    # its stdin because nothing but the referee could wake it) until the next thaw(), the time its
    # clock does not run. A bot must use none then, whether it was stopped or left waiting.
    # Kept by the bot's uid, which says its player (bot_uids).
    def recording_freeze(process: BotProcess, force: bool = False) -> None:
        assert process.uid is not None, "the arena's bots run as their slot's uids"
        entry = arena.frozen.setdefault(process.uid, [0.0, 0.0, None])
        freeze(process, force=force)
        if entry[2] is None and process.cgroup is not None:
            entry[2] = (process.cgroup.cpu_seconds(), time.monotonic())

    def recording_thaw(process: BotProcess) -> None:
        entry = arena.frozen.get(process.uid) if process.uid is not None else None
        if entry is not None and entry[2] is not None and process.cgroup is not None:
            cpu, since = entry[2]
            entry[0] += process.cgroup.cpu_seconds() - cpu
            entry[1] += time.monotonic() - since
            entry[2] = None
        thaw(process)

    monkeypatch.setattr(workers.sandbox, "create_bot_cgroup", recording_create)
    monkeypatch.setattr(BotProcess, "kill", recording_kill)
    monkeypatch.setattr(BotProcess, "freeze", recording_freeze)
    monkeypatch.setattr(BotProcess, "thaw", recording_thaw)
    return arena
