"""One control group per bot: memory, pids and CPU limits, freezing, and killing everything.

Both cgroup versions are supported, chosen per host:

* **v2** (production hosts): one directory under the worker's own cgroup with
  ``memory.max``, ``memory.swap.max``, ``pids.max``, ``cpu.max``;
  ``cgroup.freeze`` and ``cgroup.kill``. Because v2 forbids processes in a
  cgroup whose children have controllers, the worker first moves itself into
  a ``supervisor`` leaf beside the bots.
* **v1** (these development machines): one directory per controller hierarchy
  (``memory``, ``pids``, ``cpu``, ``cpuacct``, ``freezer``), each optional but
  memory and pids.

A bot process joins its cgroup before it execs (``join_from_child`` runs in the
child between fork and exec, while it is still root), so nothing it forks can
start outside. Creating cgroups needs root (or a delegated v2 subtree);
:func:`create_bot_cgroup` returns None when the host offers neither, and the
sandbox falls back to rlimits.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)

CGROUP_ROOT = Path("/sys/fs/cgroup")
V1_CONTROLLERS = ("memory", "pids", "cpu", "cpuacct", "freezer")
CPU_PERIOD_US = 100_000


@dataclass(frozen=True)
class CgroupLimits:
    """What a bot's cgroup enforces."""

    memory_bytes: int
    pids: int
    cpu_cores: float  # CPU bandwidth cap, in cores


def _own_paths() -> dict[str, str]:
    """Return this process's cgroup path per v1 controller, and under "" for v2."""
    paths: dict[str, str] = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if not controllers:
            paths[""] = path
        for controller in controllers.split(","):
            paths[controller] = path
    return paths


def detect_version(root: Path = CGROUP_ROOT) -> int | None:
    """Return 2 or 1 for the cgroup version that offers memory and pids here, or None."""
    controllers = root / "cgroup.controllers"
    if controllers.exists():
        available = set(controllers.read_text().split())
        return 2 if {"memory", "pids"} <= available else None
    if (root / "memory" / "cgroup.procs").exists() and (root / "pids" / "cgroup.procs").exists():
        return 1
    return None


class BotCgroup:
    """The control group(s) of one bot. Use :func:`create_bot_cgroup`."""

    def __init__(self, version: int, dirs: dict[str, Path]) -> None:
        self.version = version
        self.dirs = dirs  # controller -> directory; v2 has one entry under ""
        # cgroup.procs files, opened now so the child only writes (no path lookups after fork).
        self._procs_files = [str(d / "cgroup.procs") for d in dirs.values()]
        self._members_file = str(dirs["" if version == 2 else "pids"] / "cgroup.procs")
        self._kernel_frozen = False
        self._stopped: set[int] = set()  # what freeze() stopped, for thaw()
        self._resists = False  # its processes resumed one another off turn: kernel-freeze it from then on
        self._out_of_memory = False
        #: v1: an eventfd the kernel signals when the cgroup runs out of memory (see watch_memory).
        self.oom_fd: int | None = None
        self._oom_control_fd: int | None = None
        self._count_fd: int | None = None  # pids.current, kept open: read once or twice a decision

    # -- running out of memory ------------------------------------------------------
    # Every kernel OOM kill writes a report of dozens of lines to the host's kernel log, and a
    # bot whose children allocate and are replaced would write hundreds a second. So a bot is
    # out at its first OOM, whole: v2 kills the group at once (memory.oom.group, one report);
    # v1 has no group kill, so its OOM killer is off for the bot's cgroup
    # (memory.oom_control) and the kernel signals an eventfd instead, on which the referee
    # kills the cgroup itself: no report at all.
    def watch_memory(self) -> None:
        """Arrange for the whole bot to die at its first OOM, without a flood of kernel reports."""
        if self.version == 2:
            with contextlib.suppress(OSError):
                _write(self.dirs[""] / "memory.oom.group", "1")
            return
        memory = self.dirs["memory"]
        efd = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)
        control = os.open(memory / "memory.oom_control", os.O_RDONLY | os.O_CLOEXEC)
        try:
            _write(memory / "cgroup.event_control", f"{efd} {control}")
            _write(memory / "memory.oom_control", "1")
        except OSError:
            os.close(efd)
            os.close(control)
            return
        self.oom_fd, self._oom_control_fd = efd, control

    def check_memory(self) -> bool:
        """Return True once the cgroup has run out of memory (v1: read the eventfd; never blocks)."""
        if self.oom_fd is not None and not self._out_of_memory:
            with contextlib.suppress(BlockingIOError, OSError):
                self._out_of_memory = os.eventfd_read(self.oom_fd) > 0
        return self._out_of_memory

    # -- joining ----------------------------------------------------------------
    def join_from_child(self) -> None:
        """Move the calling process into this cgroup; meant for ``preexec_fn``."""
        for path in self._procs_files:
            fd = os.open(path, os.O_WRONLY)
            try:
                os.write(fd, b"0")
            finally:
                os.close(fd)

    # -- state --------------------------------------------------------------------
    def pids(self) -> list[int]:
        """Return every process in the cgroup."""
        # Raw os calls: this runs three times a decision (freeze twice, thaw
        # once). The file must be reopened each time: v1 serves a snapshot
        # per open descriptor.
        try:
            fd = os.open(self._members_file, os.O_RDONLY)
        except FileNotFoundError:
            return []
        try:
            return [int(p) for p in os.read(fd, 65536).split()]
        finally:
            os.close(fd)

    def task_count(self) -> int | None:
        """Return how many tasks (threads of every process) the cgroup holds now, or None if unknown."""
        try:
            if self._count_fd is None:
                directory = self.dirs["" if self.version == 2 else "pids"]
                self._count_fd = os.open(directory / "pids.current", os.O_RDONLY | os.O_CLOEXEC)
            return int(os.pread(self._count_fd, 32, 0))
        except (OSError, ValueError, KeyError):
            return None

    def cpu_seconds(self) -> float:
        """Return the CPU time used by everything in the cgroup so far."""
        try:
            if self.version == 2:
                for line in (self.dirs[""] / "cpu.stat").read_text().splitlines():
                    key, value = line.split()
                    if key == "usage_usec":
                        return int(value) / 1e6
                return 0.0
            if "cpuacct" in self.dirs:
                return int((self.dirs["cpuacct"] / "cpuacct.usage").read_text()) / 1e9
        except (FileNotFoundError, ValueError):
            pass
        return 0.0

    def memory_peak_bytes(self) -> int | None:
        """Return the highest memory use seen, where the kernel reports it."""
        name = "memory.peak" if self.version == 2 else "memory.max_usage_in_bytes"
        directory = self.dirs["" if self.version == 2 else "memory"]
        try:
            return int((directory / name).read_text())
        except (FileNotFoundError, ValueError):
            return None

    def oom_killed(self) -> bool:
        """Return True if the bot ran out of memory (the kernel killed a process here, or v1 reported it)."""
        if self.check_memory():
            return True
        try:
            if self.version == 2:
                for line in (self.dirs[""] / "memory.events").read_text().splitlines():
                    key, value = line.split()
                    if key == "oom_kill" and int(value):
                        return True
                return False
            text = (self.dirs["memory"] / "memory.oom_control").read_text()
            return any(line.split()[0] == "oom_kill" and int(line.split()[1]) > 0 for line in text.splitlines())
        except (FileNotFoundError, ValueError, IndexError):
            return False

    # -- freezing -----------------------------------------------------------------
    # A bot off turn is stopped with SIGSTOP sent to every process in its
    # cgroup, which is cheaper than a v1 kernel freezer round trip (docs/benchmarks.md).
    # After the signals the referee waits until the targets really are stopped
    # (so a fork they were in the middle of has finished and its child is in
    # the member list), then re-reads the members. If processes keep appearing
    # (a fork-and-exit chain outruns the signals), or a member is found running
    # again once all were signalled (they SIGCONT one another), the kernel
    # freezer, which also catches tasks forked while it freezes and ignores
    # SIGCONT, takes over for that turn.
    def freeze(self, exclude: frozenset[int] = frozenset()) -> None:
        """Stop every process in the cgroup but ``exclude`` (it cannot think on someone else's time)."""
        if self._resists and self._kernel_freeze(True):
            # This bot's processes undid SIGSTOPs before: the kernel freezer from the start, every turn.
            self._kernel_frozen = True
            return
        seen: set[int] = set(exclude)
        stopped = self._stopped
        for attempt in range(3):
            fresh = [pid for pid in self.pids() if pid not in seen]
            if not fresh:
                if self._all_stopped(seen - exclude) or self._all_stopped_soon(seen - exclude):
                    return
                self._resists = True
                # One of them was sent SIGCONT by another before that one stopped (a ring of
                # processes resuming one another kept running off turn): the kernel freezer holds
                # whatever signals they send.
                break
            if attempt == 2:
                break
            for pid in fresh:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGSTOP)
            for pid in fresh:
                _wait_stopped(pid)
            seen.update(fresh)
            stopped.update(fresh)
        self._kernel_frozen = self._kernel_freeze(True) or self._kernel_frozen
        for pid in self.pids():  # without a kernel freezer, stop what is there now
            if pid not in seen:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGSTOP)
                stopped.add(pid)

    def _all_stopped_soon(self, pids: set[int], tries: int = 5) -> bool:
        """True if every one of ``pids`` is stopped at once within a few looks (a task in the middle of a
        system call, a mount of a starting sandbox say, stops when it returns from it). Nothing new
        may have joined meanwhile."""
        for _ in range(tries):
            time.sleep(0.002)
            if set(self.pids()) - pids:
                return False
            if self._all_stopped(pids):
                return True
        return False

    @staticmethod
    def _all_stopped(pids: set[int]) -> bool:
        """True if every thread of every one of ``pids`` is stopped now (or gone)."""
        for pid in pids:
            with contextlib.suppress(OSError):
                for tid in os.listdir(f"/proc/{pid}/task"):
                    if not _task_stopped(f"/proc/{pid}/task/{tid}/stat"):
                        return False
        return True

    def thaw(self) -> None:
        """Let the processes run again: exactly those :meth:`freeze` stopped.

        Nothing new can appear while they are stopped (or kernel-frozen), so
        the member list need not be read again.
        """
        if self._kernel_frozen:
            self._kernel_freeze(False)
            self._kernel_frozen = False
        for pid in self._stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        self._stopped = set()

    def _kernel_freeze(self, frozen: bool) -> bool:
        if self.version == 2:
            (self.dirs[""] / "cgroup.freeze").write_text("1" if frozen else "0")
            return True
        if "freezer" in self.dirs:
            (self.dirs["freezer"] / "freezer.state").write_text("FROZEN" if frozen else "THAWED")
            return True
        return False

    # -- ending -------------------------------------------------------------------
    def kill_all(self) -> None:
        """SIGKILL every process in the cgroup, including ones that forked or daemonised."""
        if self.version == 2 and (self.dirs[""] / "cgroup.kill").exists():
            (self.dirs[""] / "cgroup.kill").write_text("1")
            return
        # v1 (and old v2): freeze so nothing forks while we kill, kill, then thaw
        # so the kernel delivers the SIGKILLs.
        for _ in range(50):
            pids = self.pids()
            if not pids:
                break
            with contextlib.suppress(OSError):
                if not self._kernel_freeze(True):
                    self.freeze()
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                self._kernel_freeze(False)
            time.sleep(0.002)

    def remove(self) -> bool:
        """Kill what is left and delete the cgroup directories; True if every one is gone.

        A directory goes only once no process is left in it, so True also says
        that everything the bot started has exited.
        """
        self.kill_all()
        for fd in (self.oom_fd, self._oom_control_fd, self._count_fd):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.oom_fd = self._oom_control_fd = self._count_fd = None
        removed = True
        for directory in self.dirs.values():
            for _ in range(100):
                try:
                    directory.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:  # busy until the last killed process is reaped
                    time.sleep(0.01)
            else:
                removed = False
        return removed

    def _signal_all(self, sig: int) -> None:
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)


def _task_stopped(stat_path: str) -> bool:
    try:
        with open(stat_path, "rb") as handle:
            stat = handle.read()
    except OSError:
        return True  # gone
    return stat[stat.rindex(b")") + 2 : stat.rindex(b")") + 3] in (b"T", b"t", b"Z", b"X")


def _wait_stopped(pid: int, timeout: float = 0.05) -> None:
    """Wait until every thread of ``pid`` has stopped (or the process is gone)."""
    deadline = time.monotonic() + timeout
    tasks = [f"/proc/{pid}/stat"]
    with contextlib.suppress(OSError):
        threads = os.listdir(f"/proc/{pid}/task")
        if len(threads) > 1:
            tasks = [f"/proc/{pid}/task/{tid}/stat" for tid in threads]
    for task in tasks:
        while not _task_stopped(task) and time.monotonic() < deadline:
            os.sched_yield()  # on one core, let it run to its stop


def _write(path: Path, value: str) -> None:
    path.write_text(value)


def _v2_parent(root: Path, own: str) -> Path:
    """Return the cgroup under which bot cgroups go, moving this process into a leaf if needed."""
    parent = root / own.lstrip("/")
    wanted = {"memory", "pids", "cpu"}
    enabled = set((parent / "cgroup.subtree_control").read_text().split())
    missing = (wanted & set((parent / "cgroup.controllers").read_text().split())) - enabled
    if missing:
        if parent != root:
            # No internal processes: leave the parent for a leaf before enabling controllers.
            supervisor = parent / "arena-supervisor"
            supervisor.mkdir(exist_ok=True)
            for pid in (parent / "cgroup.procs").read_text().split():
                with contextlib.suppress(OSError):
                    _write(supervisor / "cgroup.procs", pid)
        _write(parent / "cgroup.subtree_control", " ".join(f"+{c}" for c in sorted(missing)))
    return parent


STALE_AFTER_SECONDS = 60
#: Every bot cgroup's name starts with this (then 12 hex digits).
BOT_PREFIX = "arena-bot-"


def sweep_stale_cgroups(
    root: Path = CGROUP_ROOT, min_age: float = STALE_AFTER_SECONDS, prefix: str = BOT_PREFIX
) -> int:
    """Remove empty bot cgroups left by a worker that was killed; return how many went.

    Only cgroups older than ``min_age`` go, so a concurrent worker's cgroup
    that its bot has not joined yet is safe. Only names starting with
    ``prefix`` (itself starting with ``arena-bot-``) are looked at: a test
    sweeps the cgroups it made, under a prefix of its own, and no other.
    """
    if not prefix.startswith(BOT_PREFIX):
        raise ValueError(f"a sweep takes bot cgroups only: its prefix must start with {BOT_PREFIX!r}")
    removed = 0
    now = time.time()
    for directory in _bot_cgroups(root, prefix):
        try:
            if (directory / "cgroup.procs").read_text().strip() or now - directory.stat().st_mtime < min_age:
                continue
            directory.rmdir()
            removed += 1
        except OSError:  # gone meanwhile, or not a cgroup
            continue
    return removed


def _bot_cgroups(root: Path, prefix: str) -> Iterator[Path]:
    """Yield every directory below ``root`` whose name starts with ``prefix``, not looking inside them.

    Other workers make and remove bot cgroups all the while: a directory that vanishes
    between being listed and being read is passed over (``os.walk`` skips what it cannot
    list), never an error. Symbolic links (co-mounted controllers) are not followed.
    """
    for parent, subdirectories, _ in os.walk(root):
        ours = [name for name in subdirectories if name.startswith(prefix)]
        for name in ours:
            yield Path(parent) / name
        subdirectories[:] = [name for name in subdirectories if not name.startswith(BOT_PREFIX)]


_SWEPT: list[bool] = []


def create_bot_cgroup(
    limits: CgroupLimits, root: Path = CGROUP_ROOT, own_paths: dict[str, str] | None = None
) -> BotCgroup | None:
    """Return a new cgroup with ``limits`` applied, or None where this host cannot make one.

    ``own_paths`` (this process's cgroup per controller, "" for v2) is read
    from /proc/self/cgroup unless given. Any other failure (a directory that
    vanished meanwhile) raises ``OSError`` and leaves no directory behind.
    """
    version = detect_version(root)
    if version is None:
        return None
    if not _SWEPT:  # once per worker process
        _SWEPT.append(True)
        try:
            sweep_stale_cgroups(root)
        except OSError as exc:  # tidying up after others never fails this bot's start
            logger.warning("could not sweep stale bot cgroups under %s: %s", root, exc)
    name = f"{BOT_PREFIX}{uuid.uuid4().hex[:12]}"
    own = own_paths if own_paths is not None else _own_paths()
    quota = max(1000, int(limits.cpu_cores * CPU_PERIOD_US))
    made: list[Path] = []
    try:
        if version == 2:
            directory = _v2_parent(root, own.get("", "/")) / name
            directory.mkdir()
            made.append(directory)
            _write(directory / "memory.max", str(limits.memory_bytes))
            with contextlib.suppress(FileNotFoundError):
                _write(directory / "memory.swap.max", "0")
            _write(directory / "pids.max", str(limits.pids))
            with contextlib.suppress(FileNotFoundError):
                _write(directory / "cpu.max", f"{quota} {CPU_PERIOD_US}")
            return BotCgroup(2, {"": directory})
        dirs: dict[str, Path] = {}
        for controller in V1_CONTROLLERS:
            hierarchy = root / controller
            if not (hierarchy / "cgroup.procs").exists():
                continue
            directory = hierarchy / own.get(controller, "/").lstrip("/") / name
            # Hosts that co-mount controllers (cpu,cpuacct) show one directory twice.
            if directory.resolve() not in {d.resolve() for d in made}:
                directory.mkdir()
                made.append(directory)
            dirs[controller] = directory
        memory = dirs["memory"]
        _write(memory / "memory.limit_in_bytes", str(limits.memory_bytes))
        with contextlib.suppress(OSError):  # absent without swap accounting
            _write(memory / "memory.memsw.limit_in_bytes", str(limits.memory_bytes))
        _write(dirs["pids"] / "pids.max", str(limits.pids))
        if "cpu" in dirs:
            with contextlib.suppress(OSError):
                _write(dirs["cpu"] / "cpu.cfs_period_us", str(CPU_PERIOD_US))
                _write(dirs["cpu"] / "cpu.cfs_quota_us", str(quota))
        return BotCgroup(1, dirs)
    except OSError as exc:
        # Nothing made stays behind: not where this host refuses cgroups (then there are none
        # here), nor where a directory vanished while its limits were written (an error).
        for directory in reversed(made):
            with contextlib.suppress(OSError):
                directory.rmdir()
        if isinstance(exc, PermissionError):
            return None
        raise
