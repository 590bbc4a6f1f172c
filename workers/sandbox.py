"""Start an untrusted bot process inside every layer of the sandbox.

Layers, outermost first (docs/sandbox.md explains each and the hostile bot
that tests it):

1. an unprivileged host uid per worker slot (``uid_base + slot``), leased
   host-wide (workers/slots.py) and set after fork and before exec, so the
   kernel's per-user limits hold (they do not for root) and are the bot's alone;
2. a control group per bot (memory, pids, CPU bandwidth; frozen while the bot
   is not on turn; killed whole at the end) — cgroup v2 or v1, see cgroups.py;
3. rlimits as a backstop: address space, CPU seconds, processes, file size,
   open files, no core files;
4. bubblewrap: every namespace unshared (no network at all, own pid, ipc, uts,
   mount, user and cgroup namespaces), ``--die-with-parent``,
   ``--new-session``, ``--cap-drop ALL``, no further user namespaces, a
   read-only root with read-only ``/usr``, the bot directory read-only at
   ``/bot``, the Arena runtime (engines and the bot SDK) read-only at
   ``/arena``, sized tmpfs for ``/tmp`` and ``/dev/shm``;
5. a seccomp filter that refuses ptrace, keyctl, io_uring, bpf, perf events,
   userfaultfd, mount, namespaces, kernel modules and every socket family but
   AF_UNIX; what two bots could signal through (locks, inotify, AIO, the page
   cache, host-wide counters and ids); and what could wake a bot blocked
   reading its next request (timers, signal-driven I/O, seccomp filters of its
   own);
6. an empty environment and no inherited descriptors but stdin, stdout, stderr.

``mode="none"`` runs the bot as a plain child process for a bot author's own
code; it is never chosen silently (see :func:`resolve_mode`).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import errno
import functools
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workers.cgroups import BotCgroup, CgroupLimits, create_bot_cgroup
from workers.slots import holds_uid

BWRAP = "/usr/bin/bwrap"
_LIBC = ctypes.CDLL(None, use_errno=True)  # prctl and setns, which Python 3.11's os module lacks
BOT_PYTHON = "/usr/bin/python3"  # the system Python, never the platform's virtualenv
BOT_DIR = "/bot"
RUNTIME_DIR = "/arena"  # engines/ and bots/ (the SDK), read-only
#: The first bytes on a bot's stderr, written inside the sandbox before any bot code runs.
STARTED_MARKER = b"arena: bot started\n"
#: Runs a Python bot's entry file as ``python3 FILE`` would, in a fresh ``__main__`` module, after
#: putting the bot's directory and the Arena runtime on ``sys.path``. It is written out rather
#: than calling ``runpy.run_path``, which imports ``pkgutil`` and with it ``typing``, ``re`` and
#: ``enum``, a share of every sandboxed start (docs/benchmarks.md). ``exit`` and ``quit`` are what
#: the ``site`` module (not loaded: ``-S``) would have made of them.
PYTHON_LAUNCHER = (
    f"import builtins, posix, sys; posix.write(2, {STARTED_MARKER!r}); "
    f"sys.path[:0] = [{BOT_DIR!r}, {RUNTIME_DIR!r}]; sys.argv = sys.argv[1:]; "
    "builtins.exit = builtins.quit = sys.exit; "
    "main = sys.modules['__main__'] = type(sys)('__main__'); "
    "main.__file__ = sys.argv[0]; main.__builtins__ = builtins; "
    "source = open(sys.argv[0], 'rb'); code = compile(source.read(), sys.argv[0], 'exec'); source.close(); "
    "del source; exec(code, main.__dict__)"
)


def python_bot_command(entry: str) -> list[str]:
    """Return the command that runs a Python bot's ``entry`` file inside the sandbox.

    The environment stays empty, so instead of PYTHONPATH a short launcher
    puts the bot's directory and the Arena runtime on ``sys.path``. ``-S``:
    no ``site`` module, whose only work here would be a site-packages the
    sandbox hides and the distribution's ``sitecustomize`` (time at every start: docs/benchmarks.md).
    """
    return [BOT_PYTHON, "-B", "-S", "-c", PYTHON_LAUNCHER, f"{BOT_DIR}/{entry}"]


def with_started_marker(command: Sequence[str]) -> list[str]:
    """Return ``command`` so that it writes :data:`STARTED_MARKER` to stderr before anything else runs.

    Python bots get it from their launcher; any other entry point through a
    one-line shell. The referee uses it to tell a bot that crashed (its code
    ran) from a sandbox that never started (an infrastructure failure).
    """
    if PYTHON_LAUNCHER in command:
        return list(command)
    marker = STARTED_MARKER.decode().strip()
    return ["/bin/sh", "-c", f'echo "{marker}" >&2; exec "$0" "$@"', *command]


REPO_ROOT = Path(__file__).resolve().parent.parent
#: The programs of the base system a bot can run besides Python (docs/bot-package.md): a POSIX
#: shell and the tools shell bots use. Found on the host's PATH, each with the shared libraries
#: it loads; nothing else of the host's /usr is mounted.
RUNTIME_PROGRAMS = (
    "sh", "awk", "cat", "cut", "date", "echo", "env", "expr", "false", "grep", "head", "id", "ls",
    "printf", "readlink", "sed", "sleep", "sort", "tail", "test", "tr", "true", "uniq", "wc",
)  # fmt: skip
RUNTIME_PATH = "/usr/bin:/bin"
#: Files of the sandbox's own /proc that count or list what the whole host does (memory, CPU
#: time, forks, load, locks, interrupts...): each becomes an empty file, so that one bot cannot
#: signal to the other through them. Directories likewise become empty.
#: (Files only root can read, and ones that never change, like modules or partitions, need no mask:
#: every mask is one more mount at each bot's start.)
PROC_MASKED_FILES = (
    "meminfo", "stat", "loadavg", "vmstat", "zoneinfo", "buddyinfo", "pagetypeinfo", "swaps",
    "diskstats", "interrupts", "softirqs", "schedstat", "sched_debug", "locks", "uptime", "key-users",
)  # fmt: skip
PROC_MASKED_DIRS = ("sys", "pressure", "irq")
#: Device nodes of the sandbox's /dev (no pseudo-terminals: their count is host-wide).
DEVICES = ("null", "zero", "full", "random", "urandom")
RUNTIME_PACKAGES = ("engines", "bots")  # pure Python, importable by every bot
EMPTY_FILE = "empty"  # beside the staged runtime: bound over the /proc files a bot must not read
SYSTEM_DIR = "system"  # beside the staged runtime: the bots' /usr and /etc, as hard links (stage_system)
MB = 1024 * 1024

# Syscalls no bot needs and that reach kernel objects outside the sandbox's
# namespaces, or that make escapes easier.
DENIED_SYSCALLS = (
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "kcmp",
    "keyctl",
    "add_key",
    "request_key",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "unshare",
    "setns",
    "open_tree",
    "move_mount",
    "fsopen",
    "fsmount",
    "fspick",
    "init_module",
    "finit_module",
    "delete_module",
    "kexec_load",
    "kexec_file_load",
    "reboot",
    "swapon",
    "swapoff",
    "syslog",
    "acct",
    "quotactl",
    "name_to_handle_at",
    "open_by_handle_at",
    "lookup_dcookie",
    "personality",
    "iopl",
    "ioperm",
    "vhangup",
    # Channels between the two bots of a series through kernel objects they share
    # (docs/sandbox.md, "What the two bots of a series share"): locks and change
    # notifications on the read-only files both see, host-wide AIO contexts, the
    # host's process count and free memory, and the page cache's contents.
    "flock",
    "inotify_init",
    "inotify_init1",
    "inotify_add_watch",
    "fanotify_init",
    "fanotify_mark",
    "io_setup",
    "io_submit",
    "io_getevents",
    "io_pgetevents",
    "io_cancel",
    "io_destroy",
    "sysinfo",
    "mincore",
    "cachestat",
    "fadvise64",
    "readahead",
    # Timers that deliver a signal: a bot blocked reading its stdin could be woken by one and
    # think off turn, which the referee counts on not happening (BotProcess.waiting_for_referee).
    # A bot keeps time with clock_gettime (time.monotonic()).
    "alarm",
    "setitimer",
    "timer_create",
    # Installing a filter of its own: a task waiting on a seccomp user notification for its
    # read(0, ...) looks blocked in that read, and wakes when the listener goes away.
    "seccomp",
    # Kernel counters shared by the whole host, which one bot moves and the other reads:
    # eventfd ids (the lowest free number, so the ids the sender holds show), and pidfds,
    # whose inode number counts every process the host has started (the sender forks).
    "eventfd",
    "eventfd2",
    "pidfd_open",
    "pidfd_getfd",
    "pidfd_send_signal",
)
#: The only socket family a bot may create (socket, socketpair): it has no network, and every
#: other family reaches state of the host (TCP's socket and memory counts in /proc/net/sockstat
#: and /proc/net/protocols) or of its network namespace (the SNMP counters, which a pooled
#: namespace would carry to the next bot). Refused with EAFNOSUPPORT, as a kernel without the family does.
AF_UNIX = 1
CLONE_NEWUSER = 0x10000000
CLONE_PIDFD = 0x1000
#: The kernel reads fcntl's and ioctl's command, madvise's advice, prctl's option and the
#: level and name of a socket option as 32-bit ints: the filter compares the low 32 bits only,
#: or a bot would get past a rule by setting the upper ones.
LOW_32 = 0xFFFFFFFF
#: fcntl commands refused: those that take or test a record lock or a lease (F_GETLK, F_SETLK,
#: F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW, F_SETLEASE, F_GETLEASE) or ask for a signal
#: when a directory changes (F_NOTIFY), refused like flock; and those that make a file's I/O
#: signal its owner (F_SETOWN, F_SETSIG, F_SETOWN_EX): with O_ASYNC on its own stderr, a bot
#: blocked reading its stdin would get SIGIO each time the referee reads that pipe.
FCNTL_REFUSED = (5, 6, 7, 36, 37, 38, 1024, 1025, 1026, 8, 10, 15)
F_SETFL = 4
O_ASYNC = 0o20000
#: ioctl requests that set a file's async flag or owner (FIOASYNC, FIOSETOWN, SIOCSPGRP), as
#: fcntl's F_SETFL with O_ASYNC and F_SETOWN do.
IOCTL_REFUSED = (0x5452, 0x8901, 0x8902)
#: madvise advice that pushes pages of a file out of the page cache (MADV_COLD, MADV_PAGEOUT).
MADV_RECLAIM = (20, 21)
PR_SET_SECCOMP = 22
SOL_SOCKET = 1
#: Socket options refused: SO_COOKIE (a socket's cookie comes from a host-wide counter that
#: only such reads move), SO_PEERPIDFD and SO_PASSPIDFD (pidfds by another way).
SOCKOPTS_REFUSED = (("getsockopt", 57), ("getsockopt", 77), ("setsockopt", 76))


class SandboxError(RuntimeError):
    """The sandbox cannot be set up on this host; the message says what is missing."""


@dataclass(frozen=True)
class Runtime:
    """What of the host a bot sees: read-only binds (files and directories) and symlinks, in mount order."""

    binds: tuple[str, ...]
    symlinks: tuple[tuple[str, str], ...]  # (target, path)
    masked: tuple[str, ...]  # directories inside a bind covered by an empty tmpfs


@functools.cache
def bot_runtime() -> Runtime:
    """Return the bots' runtime here: the interpreter, its standard library, the base tools, their libraries.

    The interpreter is asked where its standard library is; its site-packages
    and dist-packages (where a platform's own packages would be) are covered.
    Every program's and extension module's shared libraries come from ``ldd``,
    with each symlink on the way kept as a symlink.
    """
    interpreter = os.path.realpath(BOT_PYTHON)
    code = "import sysconfig; print(sysconfig.get_paths()['stdlib']); print(sysconfig.get_config_var('DESTSHARED'))"
    probe = subprocess.run([interpreter, "-I", "-S", "-c", code], capture_output=True, text=True, check=True, env={})
    stdlib, dynload = (line.strip() for line in probe.stdout.splitlines()[:2])
    binds: dict[str, None] = {}
    links: dict[str, str] = {}
    masked = tuple(
        str(Path(stdlib) / name) for name in ("site-packages", "dist-packages") if (Path(stdlib) / name).is_dir()
    )
    programs = [BOT_PYTHON] + [found for name in RUNTIME_PROGRAMS if (found := shutil.which(name, path=RUNTIME_PATH))]
    for program in programs:
        _add_path(program, binds, links)
    binds[stdlib] = None
    for etc in ("/etc/ld.so.cache", "/etc/localtime", f"/etc/{Path(stdlib).name}"):
        if os.path.exists(etc):
            _add_path(etc, binds, links)
    elf = [path for path in binds if os.path.isfile(path)]
    if dynload and os.path.isdir(dynload):
        elf += [str(path) for path in sorted(Path(dynload).glob("*.so"))]
    for library in _shared_libraries(elf):
        _add_path(library, binds, links)
    return Runtime(binds=tuple(binds), symlinks=tuple((target, path) for path, target in links.items()), masked=masked)


def _add_path(path: str, binds: dict[str, None], links: dict[str, str]) -> None:
    """Add ``path`` to the runtime: the file it names, and every symlink on the way as a symlink."""
    for _ in range(40):
        parent = os.path.dirname(path)
        if os.path.dirname(parent) == "/" and os.path.islink(parent):  # /lib, /bin...: symlinks in every sandbox
            path = os.path.join(os.path.realpath(parent), os.path.basename(path))
            continue
        path = os.path.join(os.path.realpath(parent), os.path.basename(path))
        if not os.path.islink(path):
            binds[path] = None
            return
        target = os.readlink(path)
        links[path] = target
        path = os.path.normpath(os.path.join(parent, target))
    raise SandboxError(f"too many symlinks resolving {path} for the bot runtime")


def _shared_libraries(files: Sequence[str]) -> list[str]:
    """Return every shared library (and the dynamic loader) that ``files`` load, by ``ldd``."""
    if shutil.which("ldd") is None:
        raise SandboxError("ldd is missing (the Debian package libc-bin): the bots' runtime cannot be assembled")
    found: list[str] = []
    for start in range(0, len(files), 200):
        listed = subprocess.run(
            ["ldd", *files[start : start + 200]], capture_output=True, text=True, env={"LC_ALL": "C"}, check=False
        ).stdout
        for line in listed.splitlines():
            words = line.split()
            if "=>" in words and len(words) > words.index("=>") + 1 and words[words.index("=>") + 1].startswith("/"):
                found.append(words[words.index("=>") + 1])
            elif words and words[0].startswith("/") and not line.endswith(":"):
                found.append(words[0])  # the loader: /lib64/ld-linux-x86-64.so.2 (0x...)
    return list(dict.fromkeys(found))


@dataclass(frozen=True)
class Limits:
    """Resource limits for one bot; every value has a safe default."""

    memory_mb: int = 512
    pids: int = 64
    cpu_cores: float = 1.0  # CPU bandwidth while on turn
    cpu_seconds: int = 3600  # rlimit backstop over the whole series
    tmp_mb: int = 64
    shm_mb: int = 16
    file_size_mb: int = 64
    open_files: int = 256

    def __post_init__(self) -> None:
        for name in ("memory_mb", "pids", "cpu_seconds", "tmp_mb", "shm_mb", "file_size_mb", "open_files"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"sandbox limit {name} must be a positive integer, not {value!r}")
        if not 0 < self.cpu_cores <= 64:
            raise ValueError(f"sandbox limit cpu_cores must be in (0, 64], not {self.cpu_cores!r}")


def sandbox_problem() -> str | None:
    """Return why the sandbox cannot run here, or None when it can."""
    if not sys.platform.startswith("linux"):
        return "the sandbox needs Linux"
    if not os.access(BWRAP, os.X_OK):
        return f"bubblewrap is not installed ({BWRAP}); install the Debian package bubblewrap"
    if not os.access(BOT_PYTHON, os.X_OK):
        return f"the bot runtime {BOT_PYTHON} is missing; install the Debian package python3"
    try:
        _seccomp_module()
    except SandboxError as exc:
        return str(exc)
    return None


def resolve_mode(requested: str) -> str:
    """Return ``bwrap`` or ``none`` for a requested ``auto``/``bwrap``/``none`` mode."""
    if requested not in ("auto", "bwrap", "none"):
        raise ValueError(f"sandbox mode must be auto, bwrap or none, not {requested!r}")
    if requested == "none":
        return "none"
    problem = sandbox_problem()
    if problem:
        hint = "; to run your own bots unsandboxed on your own machine pass --no-sandbox" if requested == "auto" else ""
        raise SandboxError(problem + hint)
    return "bwrap"


def _seccomp_module() -> Any:
    try:
        import pyseccomp
    except ImportError as exc:
        raise SandboxError(f"the seccomp binding is missing ({exc}); reinstall from requirements.lock") from None
    return pyseccomp


def seccomp_program() -> bytes:
    """Return the compiled BPF filter that bubblewrap loads for every bot."""
    seccomp = _seccomp_module()
    refuse = seccomp.ERRNO(errno.EPERM)
    rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for name in DENIED_SYSCALLS:
        with contextlib.suppress(RuntimeError, ValueError, OSError):  # not on this architecture
            rules.add_rule(refuse, name)
    for call in ("socket", "socketpair"):
        # Any other family, and AF_UNIX with upper bits set (the kernel would read AF_UNIX): refused.
        rules.add_rule(seccomp.ERRNO(errno.EAFNOSUPPORT), call, seccomp.Arg(0, seccomp.NE, AF_UNIX))
    for command in FCNTL_REFUSED:
        rules.add_rule(refuse, "fcntl", seccomp.Arg(1, seccomp.MASKED_EQ, LOW_32, command))
    rules.add_rule(refuse, "fcntl", seccomp.Arg(1, seccomp.MASKED_EQ, LOW_32, F_SETFL),
                   seccomp.Arg(2, seccomp.MASKED_EQ, O_ASYNC, O_ASYNC))  # fmt: skip
    for request in IOCTL_REFUSED:
        rules.add_rule(refuse, "ioctl", seccomp.Arg(1, seccomp.MASKED_EQ, LOW_32, request))
    for advice in MADV_RECLAIM:
        rules.add_rule(refuse, "madvise", seccomp.Arg(2, seccomp.MASKED_EQ, LOW_32, advice))
    rules.add_rule(refuse, "prctl", seccomp.Arg(0, seccomp.MASKED_EQ, LOW_32, PR_SET_SECCOMP))
    for call, option in SOCKOPTS_REFUSED:
        rules.add_rule(refuse, call, seccomp.Arg(1, seccomp.MASKED_EQ, LOW_32, SOL_SOCKET),
                       seccomp.Arg(2, seccomp.MASKED_EQ, LOW_32, option))  # fmt: skip
    rules.add_rule(refuse, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_PIDFD, CLONE_PIDFD))
    # New user namespaces: clone's flags can be checked; clone3 passes them in
    # memory a filter cannot read, so it answers ENOSYS and libc falls back to clone.
    rules.add_rule(refuse, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER))
    with contextlib.suppress(RuntimeError, ValueError, OSError):
        rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    with tempfile.TemporaryFile() as handle:
        rules.export_bpf(handle)
        handle.seek(0)
        return handle.read()


@functools.cache
def _cached_seccomp_program() -> bytes:
    return seccomp_program()


def precompile(runtime: Path) -> None:
    """Compile the staged engines and SDK with the bots' interpreter, so no bot compiles them at start.

    The sandbox's ``/arena`` is read-only and bots run with ``-B``: without
    these ``.pyc`` files every bot compiled the SDK and what it imports from
    source, a share of its start-up (docs/benchmarks.md). They are checked
    by nothing but their hash (``unchecked-hash``): the copy never changes, so
    no bot stats every source file either. Our own code only; a bot's package
    is never compiled outside the sandbox. Best effort: without the
    interpreter, bots compile as before.
    """
    if not os.access(BOT_PYTHON, os.X_OK):
        return
    command = [BOT_PYTHON, "-I", "-m", "compileall", "-q", "--invalidation-mode", "unchecked-hash", str(runtime)]
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(command, check=False, timeout=120, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


class Staging:
    """A world-readable copy of the bot runtime and the bots, outside any private home directory.

    bubblewrap runs as the slot's unprivileged uid and must be able to read
    what it binds; a copy also freezes the code a series runs with. One
    staging area serves every series of a worker process (:func:`shared_staging`);
    bots are copied once per content hash.
    """

    def __init__(self, parent: str | None = None) -> None:
        sweep_stale_staging(Path(parent or tempfile.gettempdir()))
        self.root = Path(tempfile.mkdtemp(prefix=f"arena-stage-{os.getpid()}-", dir=parent))
        self.root.chmod(0o755)
        self.runtime = self.root / "runtime"
        self.runtime.mkdir()
        for package in RUNTIME_PACKAGES:
            shutil.copytree(
                REPO_ROOT / package,
                self.runtime / package,
                ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "tests"),
            )
        (self.root / EMPTY_FILE).touch()
        self._bots: dict[str, Path] = {}
        self._lock = threading.Lock()
        precompile(self.runtime)
        _make_world_readable(self.root)
        # After the chmod above: the hard links share their inodes (and modes) with the host's files.
        # Without the bots' Python (a bot author's machine running --no-sandbox) there is nothing to stage.
        # Where the runtime cannot be assembled, a sandboxed start says why (bwrap_command).
        if os.access(BOT_PYTHON, os.X_OK):
            with contextlib.suppress(SandboxError, OSError, subprocess.CalledProcessError):
                stage_system(self.root / SYSTEM_DIR, bot_runtime())

    def add_bot(self, source: Path, key: str) -> Path:
        """Return a staged copy of the bot directory ``source`` whose content hash is ``key``.

        Safe from several threads (the embedded platform runs series side by
        side in one process): one copy per key, and no two under one name.
        """
        with self._lock:
            if key not in self._bots:
                target = self.root / f"bot-{len(self._bots) + 1}"
                shutil.copytree(source, target, symlinks=False)
                _make_world_readable(target)
                self._bots[key] = target
            return self._bots[key]

    def cleanup(self) -> None:
        """Delete the staging area."""
        shutil.rmtree(self.root, ignore_errors=True)


def stage_system(target: Path, runtime: Runtime) -> bool:
    """Lay the bots' runtime out under ``target`` (``usr/``, ``etc/``...) as hard links to the host's files.

    bubblewrap then mounts two or three directories instead of one bind per
    file, which shortens every bot's start (docs/benchmarks.md). The links are the host's
    inodes (nothing is copied, nothing can change: the mounts are read-only).
    Where the host refuses (another file system, protected hard links for a
    user who does not own the files), nothing is left and the sandbox binds
    file by file.
    """
    try:
        for path in runtime.binds:
            destination = target / path.lstrip("/")
            _make_dirs(destination.parent, target)
            if os.path.isdir(path):
                masked = {os.path.basename(p) for p in runtime.masked if os.path.dirname(p) == path}
                shutil.copytree(
                    path,
                    destination,
                    symlinks=True,
                    copy_function=os.link,
                    ignore=lambda directory, names, path=path, masked=masked: masked if directory == path else set(),
                    dirs_exist_ok=True,
                )
            elif not destination.exists():
                os.link(path, destination)
        for link_target, path in runtime.symlinks:
            destination = target / path.lstrip("/")
            _make_dirs(destination.parent, target)
            if not destination.is_symlink():
                os.symlink(link_target, destination)
    except (OSError, shutil.Error):
        shutil.rmtree(target, ignore_errors=True)
        return False
    return True


def _make_dirs(directory: Path, root: Path) -> None:
    """``mkdir -p`` with mode 755 whatever the umask (the bots' uids must traverse them)."""
    missing = []
    while not directory.exists():
        missing.append(directory)
        directory = directory.parent
    for path in reversed(missing):
        path.mkdir()
        path.chmod(0o755)
    root.chmod(0o755)


def sweep_stale_staging(parent: Path) -> int:
    """Delete staging areas whose worker process is gone; return how many."""
    removed = 0
    for path in parent.glob("arena-stage-*-*"):
        pid = path.name.split("-")[2]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            shutil.rmtree(path, ignore_errors=True)
            removed += 1
    return removed


_SHARED: list[Staging] = []
_SHARED_LOCK = threading.Lock()


def shared_staging() -> Staging:
    """Return this process's staging area (made once, by whichever thread asks first), removed at exit."""
    with _SHARED_LOCK:
        if not _SHARED:
            staging = Staging()
            atexit.register(staging.cleanup)
            _SHARED.append(staging)
        return _SHARED[0]


def _make_world_readable(root: Path) -> None:
    for directory, _dirnames, filenames in os.walk(root):
        os.chmod(directory, 0o755)
        for name in filenames:
            path = os.path.join(directory, name)
            mode = os.stat(path).st_mode
            os.chmod(path, 0o755 if mode & 0o111 else 0o644)


#: The number of read(2), for seeing a bot blocked reading its stdin (None elsewhere: always freeze).
READ_SYSCALL = {"x86_64": b"0", "aarch64": b"63"}.get(os.uname().machine)
#: Looks (a yield of the processor between them) for a bot that has answered to reach its next read.
WAIT_FOR_READ_TRIES = 8


@dataclass
class _TaskWatch:
    """One task's /proc files, kept open so each look is one ``pread``."""

    pid: int
    syscall_fd: int
    schedstat_fd: int
    stdin_link: str
    expected_stdin: str

    @classmethod
    def open(cls, pid: int, our_end: int) -> _TaskWatch:
        syscall_fd = os.open(f"/proc/{pid}/syscall", os.O_RDONLY | os.O_CLOEXEC)
        try:
            schedstat_fd = os.open(f"/proc/{pid}/schedstat", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            os.close(syscall_fd)
            raise
        expected = f"pipe:[{os.fstat(our_end).st_ino}]"
        return cls(pid, syscall_fd, schedstat_fd, f"/proc/{pid}/fd/0", expected)

    def reading_stdin(self) -> bool:
        """True if the task is blocked in read(0, ...) now."""
        fields = os.pread(self.syscall_fd, 256, 0).split(maxsplit=2)
        return len(fields) >= 2 and fields[0] == READ_SYSCALL and fields[1] == b"0x0"

    def times_scheduled(self) -> bytes:
        """The task's count of times it was given a processor (schedstat's third field)."""
        return os.pread(self.schedstat_fd, 128, 0).split()[2]

    def close(self) -> None:
        for fd in (self.syscall_fd, self.schedstat_fd):
            with contextlib.suppress(OSError):
                os.close(fd)


@dataclass
class BotProcess:
    """A running bot: its pipes, its process and its cgroup."""

    popen: subprocess.Popen[bytes]
    cgroup: BotCgroup | None
    sandboxed: bool
    frozen: bool = False
    uid: int | None = None  # the slot uid it runs as, when that is not ours: its orphans are ours to reap
    _supervisor_pids: frozenset[int] | None = None
    _watch: _TaskWatch | None = None  # the bot's only task, while it has one: see waiting_for_referee
    netns: int | None = None  # its network namespace from NETNS_POOL, given back by kill()

    @property
    def pid(self) -> int:
        return self.popen.pid

    def freeze(self, force: bool = False) -> None:
        """Stop the bot and everything it started (cgroup freezer, else SIGSTOP).

        A bot that cannot run before its next request (:meth:`waiting_for_referee`)
        is left as it is: stopping and resuming it would cost four context
        switches and a dozen system calls for nothing. ``force`` stops it
        anyway: the referee is about to write to it off its turn (``game_over``,
        ``game_start``), which would wake it.
        """
        if self.frozen:
            return
        if self.cgroup is not None:
            if not force and self.waiting_for_referee():
                return
            self.cgroup.freeze(self._supervisors())
        else:
            self._signal_unsandboxed(signal.SIGSTOP)
        self.frozen = True

    def thaw(self) -> None:
        """Let the bot run again."""
        if not self.frozen:
            return
        if self.cgroup is not None:
            # Everything the freeze stopped, supervisors included: the first
            # freeze can stop the sandbox's pid 1 if bubblewrap forks it just
            # after _supervisors() looked, and it must run again.
            self.cgroup.thaw()
        else:
            self._signal_unsandboxed(signal.SIGCONT)
        self.frozen = False

    def waiting_for_referee(self) -> bool:
        """True if nothing of the bot can run until the referee writes its next request.

        That holds when its only task (besides bubblewrap's two, which run no
        bot code) is blocked reading its stdin, the referee's pipe, and was not
        scheduled while we looked: seen blocked in ``read(0, ...)`` (T1), the
        cgroup then holding no other task (T2), and seen blocked again (T3), its
        count of times scheduled unchanged from before T1 to after T3. Then it
        was blocked throughout, so it created nothing after T1, and nothing else
        existed at T2 to create anything or to signal it afterwards. Only a
        write to its stdin (ours) or a signal can wake it. Every message the
        referee writes to it off its turn is written with it stopped
        (``freeze(force=True)``). The seccomp filter refuses whatever would
        deliver a signal by itself: the timers (``alarm``, ``setitimer``,
        ``timer_create``), signal-driven I/O (``F_SETOWN``, ``F_SETOWN_EX``,
        ``F_SETSIG``, ``O_ASYNC``, ``FIOASYNC``, ``FIOSETOWN``, ``SIOCSPGRP``:
        the referee reads its pipes during every decision) and seccomp's own
        user notification (docs/sandbox.md, "What can wake a waiting bot");
        its pid namespace and uid keep every other bot from signalling it.
        Anything else (a second task, another system call, a file that is not
        ours on fd 0, a /proc file we may not read) and the bot is frozen as
        usual. A bot that has just answered and not yet reached its read gets
        the processor for a moment (``sched_yield``, a few times) first.
        """
        cgroup, supervisors = self.cgroup, self._supervisor_pids
        if READ_SYSCALL is None or cgroup is None or supervisors is None or self.popen.stdin is None:
            return False
        watch = self._watch or self._watch_only_task(cgroup, supervisors, self.popen.stdin.fileno())
        if watch is None:
            return False
        try:
            for attempt in range(WAIT_FOR_READ_TRIES):
                scheduled = watch.times_scheduled()
                if watch.reading_stdin():
                    break
                if attempt == WAIT_FOR_READ_TRIES - 1:
                    return False
                os.sched_yield()
            if os.readlink(watch.stdin_link) != watch.expected_stdin:
                return False
            if cgroup.task_count() != len(supervisors) + 1:
                return False
            return watch.reading_stdin() and watch.times_scheduled() == scheduled
        except (OSError, ValueError, IndexError):
            self._unwatch()
            return False

    def _watch_only_task(self, cgroup: BotCgroup, supervisors: frozenset[int], stdin: int) -> _TaskWatch | None:
        """Open the /proc files of the bot's only task, if it has just one (else None)."""
        tasks = [pid for pid in cgroup.pids() if pid not in supervisors]
        if len(tasks) != 1:
            return None
        try:
            self._watch = _TaskWatch.open(tasks[0], stdin)
        except OSError:
            return None
        return self._watch

    def _unwatch(self) -> None:
        if self._watch is not None:
            self._watch.close()
            self._watch = None

    def _signal_unsandboxed(self, sig: int) -> None:
        # Without a cgroup: the bot's process group (it leads a session of its
        # own), or, where it is sandboxed without cgroups, its process tree.
        if self.sandboxed:
            _signal_tree(self.popen.pid, sig)
        else:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.popen.pid, sig)

    def _supervisors(self) -> frozenset[int]:
        # bubblewrap's own two processes (the monitor we started and the
        # sandbox's pid 1) run no bot code and need no stopping; skipping them
        # saves four context switches a decision. Learnt once both exist.
        if self._supervisor_pids is None:
            children = _children(self.popen.pid)
            if not children:
                return frozenset({self.popen.pid})
            self._supervisor_pids = frozenset({self.popen.pid, *children})
        return self._supervisor_pids

    def cpu_seconds(self) -> float | None:
        """Return the CPU time the bot and its children used, where the cgroup counts it."""
        return None if self.cgroup is None else self.cgroup.cpu_seconds()

    def kill(self) -> None:
        """Kill the bot and every process it left, then release its cgroup."""
        self._unwatch()
        if self.cgroup is not None:
            self.cgroup.kill_all()
        else:
            _signal_tree(self.popen.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self.popen.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=5)
        for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
        removed = False
        if self.cgroup is not None:
            removed = self.cgroup.remove()
            self.cgroup = None
        if self.uid is not None:
            _reap_orphans(self.uid)
        if self.netns is not None:
            NETNS_POOL.release(self.netns, reusable=removed)
            self.netns = None


PR_SET_CHILD_SUBREAPER = 36


@functools.cache
def _adopt_orphans() -> bool:
    """Become the reaper of orphans among this process's descendants.

    bubblewrap's monitor (our child) exits as soon as the bot does, without
    reaping the sandbox's pid 1; that zombie is reparented to the nearest
    subreaper, else to the host's (or container's) init. Until someone reaps
    it, it counts against the slot uid's RLIMIT_NPROC, and a worker running
    series back to back (or under an init that never reaps) soon has every
    bubblewrap fail with "Can't fork for pid 1". So the worker adopts them and
    :func:`_reap_orphans` reaps them.
    """
    try:
        return _LIBC.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _reap_orphans(uid: int, timeout: float = 1.0) -> None:
    """Reap this process's children that run as ``uid`` (a dead bot's adopted orphans)."""
    deadline = time.monotonic() + timeout
    while True:
        waiting = False
        for child in _own_children():
            try:
                with open(f"/proc/{child}/status") as handle:
                    owner = next((line.split()[1] for line in handle if line.startswith("Uid:")), None)
                if owner != str(uid):
                    continue
                reaped, _status = os.waitpid(child, os.WNOHANG)
            except (OSError, ChildProcessError):
                continue
            waiting = waiting or reaped == 0
        if not waiting or time.monotonic() > deadline:
            return
        time.sleep(0.005)


def _own_children() -> list[int]:
    found = []
    with contextlib.suppress(OSError):
        for task in os.listdir("/proc/self/task"):
            with contextlib.suppress(OSError), open(f"/proc/self/task/{task}/children") as handle:
                found += [int(child) for child in handle.read().split()]
    return found


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(child) for child in handle.read().split()]
    except OSError:
        return []


def _descendants(pid: int) -> list[int]:
    found, stack = [], [pid]
    while stack:
        parent = stack.pop()
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{parent}/task"):
                with open(f"/proc/{parent}/task/{task}/children") as handle:
                    for child in handle.read().split():
                        found.append(int(child))
                        stack.append(int(child))
    return found


def _signal_tree(pid: int, sig: int) -> None:
    for target in [pid, *_descendants(pid)]:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(target, sig)


CLONE_NEWNET = 0x40000000
#: Run by the host's Python to make one empty network namespace: it unshares, says so, and waits
#: for the worker to open the namespace before it exits (the open descriptor keeps it alive).
NETNS_MAKER = (
    "import ctypes, os, sys\n"
    f"if ctypes.CDLL(None, use_errno=True).unshare({CLONE_NEWNET:#x}) != 0:\n"
    "    sys.exit('unshare(CLONE_NEWNET): ' + os.strerror(ctypes.get_errno()))\n"
    "os.write(1, b'ready\\n')\n"
    "sys.stdin.buffer.read()\n"
)


class NetnsPool:
    """Empty network namespaces for sandboxed bots, each holding one running bot at a time.

    A namespace per bot is the network layer (nothing to connect to, not even a
    loopback that is up), but creating one for a process in a fresh cgroup and
    destroying it when the bot exits is the largest single cost of a bot's start
    (docs/benchmarks.md). So a worker keeps the namespaces it made, as
    open descriptors, and hands a free one to the next bot, which enters it
    before bubblewrap starts (``setns``, as root). A namespace is given back
    only when every process of its bot has exited (its cgroup could be removed)
    and it holds no socket (:func:`netns_sockets`): a bot may create unix
    sockets only (the seccomp filter), with no capability over the namespace,
    so a socket is the one thing of it that could outlive its processes there
    (unix sockets passed to one another in a cycle wait for the kernel's
    collector), and the SNMP and other counters of ``/proc/net`` never move.
    Otherwise it is closed and dies with whatever still holds it.
    """

    def __init__(self) -> None:
        self._free: list[int] = []
        self._lock = threading.Lock()
        self._made = 0
        os.register_at_fork(after_in_child=self._forget)

    def acquire(self) -> int:
        """Return the descriptor of a network namespace no running bot is in (made if none is free)."""
        with self._lock:
            if self._free:
                return self._free.pop()
        fd = _make_netns()
        with self._lock:
            self._made += 1
        return fd

    def release(self, fd: int, reusable: bool) -> None:
        """Take back ``fd``; ``reusable`` only when every process of its bot has exited.

        A namespace that still holds a socket after the kernel has had
        :data:`NETNS_EMPTY_WAIT` seconds to collect unreachable ones is closed instead.
        """
        if reusable and not _netns_empties(fd):
            reusable = False
        if reusable:
            with self._lock:
                self._free.append(fd)
        else:
            with contextlib.suppress(OSError):
                os.close(fd)

    @property
    def made(self) -> int:
        """How many namespaces this process has made."""
        return self._made

    def _forget(self) -> None:
        # A forked child (a prefork worker) must not hand out its parent's namespaces: two
        # processes would each give the same one to a bot at the same time.
        for fd in self._free:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._free = []
        self._lock = threading.Lock()


#: How long a released namespace may take to lose its last sockets (unix sockets in a cycle of
#: descriptors passed to one another, which the kernel's collector frees) before it is closed.
NETNS_EMPTY_WAIT = 2.0


def netns_sockets(fd: int) -> int | None:
    """Return how many sockets the network namespace ``fd`` holds, or None if it cannot be looked at.

    Read as ``sockets: used`` of its ``/proc/net/sockstat``: the calling thread
    enters the namespace (``setns`` moves only the calling thread) and comes
    back at once. A thread that cannot come back is an error.
    """
    own = os.open("/proc/thread-self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
    try:
        try:
            _enter_netns(fd)
        except OSError:
            return None
        try:
            with open("/proc/thread-self/net/sockstat") as handle:
                return int(handle.readline().split()[2])  # "sockets: used N"
        except (OSError, ValueError, IndexError):
            return None
        finally:
            try:
                _enter_netns(own)
            except OSError as exc:
                raise SandboxError(f"cannot return to the worker's network namespace: {exc}") from exc
    finally:
        os.close(own)


def _netns_empties(fd: int) -> bool:
    """True once the namespace ``fd`` holds no socket, within :data:`NETNS_EMPTY_WAIT` seconds."""
    left = netns_sockets(fd)
    if left != 0 and left is not None:
        # Unreachable unix sockets wait for the kernel's collector, which runs when a unix
        # socket that could close a cycle is released anywhere: release one.
        socket.socket(socket.AF_UNIX).close()
        deadline = time.monotonic() + NETNS_EMPTY_WAIT
        while left and time.monotonic() < deadline:
            time.sleep(0.002)
            left = netns_sockets(fd)
    return left == 0


def _make_netns() -> int:
    """Make an empty network namespace and return an open descriptor of it."""
    maker = subprocess.Popen(
        [BOT_PYTHON, "-I", "-S", "-c", NETNS_MAKER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={},
        close_fds=True,
    )
    assert maker.stdin is not None
    assert maker.stdout is not None
    assert maker.stderr is not None
    try:
        if maker.stdout.readline() != b"ready\n":
            raise SandboxError(f"cannot make a network namespace for a bot: {maker.stderr.read().decode().strip()}")
        fd = os.open(f"/proc/{maker.pid}/ns/net", os.O_RDONLY | os.O_CLOEXEC)
        if os.fstat(fd).st_ino == os.stat("/proc/self/ns/net").st_ino:
            os.close(fd)
            raise SandboxError("cannot make a network namespace for a bot: it is the worker's own")
        return fd
    finally:
        maker.stdin.close()
        maker.wait()
        maker.stdout.close()
        maker.stderr.close()


NETNS_POOL = NetnsPool()


def _enter_netns(fd: int) -> None:
    """Move the calling process into the network namespace ``fd`` (root only; for ``preexec_fn``)."""
    if _LIBC.setns(fd, CLONE_NEWNET) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"setns(CLONE_NEWNET): {os.strerror(error)}")


def bwrap_command(
    command: Sequence[str],
    bot_dir: Path,
    runtime_dir: Path,
    limits: Limits,
    seccomp_fd: int,
    *,
    own_netns: bool = True,
) -> list[str]:
    """Return the bubblewrap command line that runs ``command`` (paths inside the sandbox).

    ``own_netns=False`` when the bot has already entered an empty network
    namespace of the worker's pool (:class:`NetnsPool`): every other namespace is new.
    """
    namespaces = ["--unshare-all"] if own_netns else ["--unshare-ipc", "--unshare-pid", "--unshare-uts",
                                                      "--unshare-cgroup-try"]  # fmt: skip
    argv = [
        BWRAP,
        *namespaces,
        "--unshare-user",
        "--disable-userns",
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--hostname",
        "arena-bot",
        "--clearenv",
    ]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        host = Path("/") / name
        if host.is_symlink():
            argv += ["--symlink", os.readlink(host), f"/{name}"]
    system = runtime_dir.with_name(SYSTEM_DIR)
    if system.is_dir():  # staged as hard links: one bind per top-level directory
        for top in sorted(os.listdir(system)):
            argv += ["--ro-bind", str(system / top), f"/{top}"]
    else:
        runtime = bot_runtime()
        for path in runtime.binds:
            argv += ["--ro-bind", path, path]
        for target, path in runtime.symlinks:
            argv += ["--symlink", target, path]
        for path in runtime.masked:
            argv += ["--tmpfs", path, "--remount-ro", path]
    empty = runtime_dir.with_name(EMPTY_FILE)
    argv += ["--proc", "/proc"]
    for name in PROC_MASKED_FILES:
        if os.path.exists(f"/proc/{name}"):
            argv += ["--ro-bind", str(empty), f"/proc/{name}"]
    for name in PROC_MASKED_DIRS:
        if os.path.isdir(f"/proc/{name}"):
            argv += ["--tmpfs", f"/proc/{name}", "--remount-ro", f"/proc/{name}"]
    argv += ["--perms", "0755", "--size", "65536", "--tmpfs", "/dev"]
    for name in DEVICES:
        argv += ["--dev-bind", f"/dev/{name}", f"/dev/{name}"]
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1"),
                         ("stderr", "/proc/self/fd/2")):  # fmt: skip
        argv += ["--symlink", target, f"/dev/{name}"]
    argv += [
        "--perms",
        "1777",
        "--size",
        str(limits.tmp_mb * MB),
        "--tmpfs",
        "/tmp",
        "--perms",
        "1777",
        "--size",
        str(limits.shm_mb * MB),
        "--tmpfs",
        "/dev/shm",
        "--remount-ro",
        "/dev",
        "--ro-bind",
        str(bot_dir),
        BOT_DIR,
    ]
    argv += ["--ro-bind", str(runtime_dir), RUNTIME_DIR]
    argv += [
        "--remount-ro",
        "/",
        "--chdir",
        BOT_DIR,
        "--seccomp",
        str(seccomp_fd),
        "--",
        *command,
    ]
    return argv


def backstop_rlimits(limits: Limits, own_uid: bool) -> list[tuple[int, int]]:
    """Return the rlimits set on a sandboxed bot; ``own_uid`` when it runs as a slot uid of its own."""
    rlimits = [
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_CPU, limits.cpu_seconds),
        (resource.RLIMIT_FSIZE, limits.file_size_mb * MB),
        (resource.RLIMIT_NOFILE, limits.open_files),
        # Address space is a coarse backstop to the cgroup (which counts real use):
        # allow generous virtual reservations beyond the memory limit.
        (resource.RLIMIT_AS, limits.memory_mb * MB * 4 + 512 * MB),
    ]
    if own_uid:
        # RLIMIT_NPROC counts every process of the uid: the bot's plus
        # bubblewrap's two. Run as a bot author's own uid (no root, so no slot
        # uid), it would count their whole desktop session and stop bubblewrap
        # from starting, so there only the cgroup (if any) limits processes.
        rlimits.append((resource.RLIMIT_NPROC, limits.pids + 4))
    return rlimits


def start_bot(
    command: Sequence[str],
    bot_dir: Path,
    *,
    runtime_dir: Path,
    limits: Limits,
    slot: int,
    mode: str = "bwrap",
    uid_base: int = 100000,
) -> BotProcess:
    """Start ``command`` (as seen inside the sandbox, cwd ``/bot``) and return the running bot.

    ``mode`` is ``bwrap`` (every layer) or ``none`` (a plain process in
    ``bot_dir``, for a bot author's own code only). As root the bot runs as
    host uid ``uid_base + slot``, which must be in a slot this process has
    leased (workers/slots.py), so that no other running bot has it. Raises
    :class:`SandboxError` when this host cannot sandbox at all (or the slot is
    not leased), and ``OSError`` saying why when this one bot could not be
    started (its cgroup vanished or could not be joined, the host refused a
    process or a file): nothing of it is left behind either way.
    """
    if mode == "none":
        host_command = [
            part.replace(BOT_DIR, str(bot_dir), 1) if part.startswith(BOT_DIR) else part for part in command
        ]
        popen = subprocess.Popen(
            with_started_marker(host_command),
            cwd=bot_dir,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={"PYTHONPATH": str(runtime_dir), "PATH": os.defpath},
            close_fds=True,
            start_new_session=True,
        )
        return BotProcess(popen=popen, cgroup=None, sandboxed=False)

    as_root = os.geteuid() == 0
    uid = uid_base + slot
    if as_root and not holds_uid(uid):
        raise SandboxError(f"bot uid {uid} is not in a worker slot this process has leased (workers/slots.py)")
    netns = NETNS_POOL.acquire() if as_root else None  # first: a SandboxError here leaves nothing behind
    cgroup: BotCgroup | None = None

    def vanished(exc: BaseException) -> OSError | None:
        """An error naming the cgroup directories that are gone, if any are (and ``exc`` is no interrupt).

        A cgroup can vanish between its creation and the child's joining it (removed by
        another process's sweep, or an operator): v1's OOM watch then finds no file, or the
        child's join fails and Popen says only that "an exception occurred in preexec_fn".
        """
        gone = [str(d) for d in cgroup.dirs.values() if not d.is_dir()] if cgroup is not None else []
        if not gone or not isinstance(exc, Exception):
            return None
        return OSError(f"the bot's cgroup vanished before the bot could join it: {', '.join(gone)}")

    seccomp_file = None
    try:
        cgroup = create_bot_cgroup(
            CgroupLimits(memory_bytes=limits.memory_mb * MB, pids=limits.pids, cpu_cores=limits.cpu_cores)
        )
        if cgroup is not None:
            cgroup.watch_memory()
        seccomp_file = tempfile.TemporaryFile()  # noqa: SIM115 - bubblewrap reads it after this returns
        seccomp_file.write(_cached_seccomp_program())
        seccomp_file.seek(0)
        seccomp_fd = seccomp_file.fileno()
        argv = bwrap_command(with_started_marker(command), bot_dir, runtime_dir, limits, seccomp_fd,
                             own_netns=netns is None)  # fmt: skip
    except BaseException as exc:
        # No process has entered the namespace or the cgroup: the one goes back to the pool, the other away.
        error = vanished(exc)
        if seccomp_file is not None:
            seccomp_file.close()
        if netns is not None:
            NETNS_POOL.release(netns, reusable=True)
        if cgroup is not None:
            cgroup.remove()
        if error is not None:
            raise error from exc
        raise
    if as_root:
        _adopt_orphans()
    rlimits = backstop_rlimits(limits, own_uid=as_root)

    def enter_sandbox() -> None:  # runs in the child between fork and exec: no imports, no allocation-heavy work
        if netns is not None:
            _enter_netns(netns)
        if cgroup is not None:
            cgroup.join_from_child()
        for which, value in rlimits:
            resource.setrlimit(which, (value, value))
        if as_root:
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)

    try:
        popen = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={},
            close_fds=True,
            pass_fds=(seccomp_fd,),
            preexec_fn=enter_sandbox,
            start_new_session=True,
        )
    except BaseException as exc:
        error = vanished(exc)
        removed = cgroup.remove() if cgroup is not None else False
        if netns is not None:
            NETNS_POOL.release(netns, reusable=removed)
        if error is None and isinstance(exc, subprocess.SubprocessError):  # the child failed before its exec
            where = f"its cgroup {', '.join(str(d) for d in cgroup.dirs.values())}, " if cgroup is not None else ""
            error = OSError(f"the bot could not enter its sandbox ({where}network namespace, limits or uid): {exc}")
        if error is not None:
            raise error from exc
        raise
    finally:
        seccomp_file.close()  # the child has its own copy of the descriptor
    return BotProcess(popen=popen, cgroup=cgroup, sandboxed=True, uid=uid if as_root else None, netns=netns)
