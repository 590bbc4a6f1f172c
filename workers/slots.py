"""Host-wide leases of worker slots, so that every running bot has a host uid no other running bot has.

A sandboxed bot runs as host uid ``uid_base + slot * 8 + player``
(workers/sandbox.py). The kernel counts ``RLIMIT_NPROC`` per uid across the
whole host, and a uid decides who may signal, trace or read whom, so no two
series may run bots in one slot at the same time, whichever process,
container or pid namespace referees them. A pid says nothing across those:
two Celery pool processes, or two match-worker containers each numbering its
own processes from 1, would pick the same slot from their pids.

So a slot is leased under a lock that every referee on the host sees: one
file per slot in a directory (``ARENA_SLOT_DIR``, default
``/run/arena-slots``, made ``0700`` and owned by root; docker-compose.yml
mounts the host's directory into every match-worker container), held with
``flock(LOCK_EX | LOCK_NB)`` for the length of the series. The file is named
for the uids it protects (``uids-100056-100063``), so workers with different
``uid_base`` values are kept apart exactly where their uids meet (all workers
of a host should use the same ``uid_base``, the default, so that ranges line
up). An flock lock belongs to an open file, not to a process: two series in
threads of one process open the file each and exclude each other too, and
the kernel drops the lock when the last descriptor of it is closed, so a
killed worker leaves no stale lease behind.

A lease tries its preferred slot first (a referee prefers the one its pid
gives, :func:`preferred_slot`, which spreads processes over the slots) and
then each next slot in turn until it locks one.

Without root a bot runs as its author's own uid (there are no slot uids: see
``start_bot``), so there is nothing to lease: a lease is its preferred slot
and locks nothing.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import threading
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

#: Worker slots: bot uids run from uid_base to uid_base + SLOTS * UIDS_PER_SLOT - 1.
SLOTS = 8192
#: Host uids per slot, one per seat of a series (at most six players; eight keeps slots aligned).
UIDS_PER_SLOT = 8
DEFAULT_UID_BASE = 100000
DEFAULT_SLOT_DIR = "/run/arena-slots"
SLOT_DIR_VARIABLE = "ARENA_SLOT_DIR"


class SlotError(RuntimeError):
    """No slot could be leased; the message says why."""


class SlotsExhausted(SlotError):
    """Every slot is leased by a running series."""


@dataclass(eq=False)
class SlotLease:
    """A worker slot held for a series: its uids are this lease's until :meth:`release`."""

    slot: int
    uid_base: int
    lock_file: Path | None  # None: nothing locked (no root, so no slot uids)
    _fd: int | None = field(default=None, repr=False)

    @property
    def first_uid(self) -> int:
        return self.uid_base + self.slot * UIDS_PER_SLOT

    @property
    def uids(self) -> range:
        """The host uids of this slot's seats: bot ``i`` runs as ``uids[i]``."""
        return range(self.first_uid, self.first_uid + UIDS_PER_SLOT)

    @property
    def locked(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Give the slot back (once its bots are gone); releasing twice does nothing."""
        with _REGISTRY_LOCK:
            fd, self._fd = self._fd, None
            _HELD.discard(self)
        if fd is not None:
            os.close(fd)  # the last descriptor of the lock: the kernel drops it

    def __enter__(self) -> SlotLease:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.release()


#: The locked leases this process holds: what start_bot checks a slot uid against.
_HELD: set[SlotLease] = set()
_REGISTRY_LOCK = threading.Lock()


def _forget_after_fork() -> None:
    # A forked child (a Celery pool process, or a bot between fork and exec) shares its parent's
    # lock descriptors; closing its copies leaves the parent's locks held (never LOCK_UN here:
    # that would unlock the parent's too). The child holds no lease of its own.
    global _REGISTRY_LOCK
    for lease in _HELD:
        if lease._fd is not None:
            with contextlib.suppress(OSError):
                os.close(lease._fd)
            lease._fd = None
    _HELD.clear()
    _REGISTRY_LOCK = threading.Lock()


os.register_at_fork(after_in_child=_forget_after_fork)


def slot_dir() -> Path:
    """Return the directory of the host's slot locks: ``$ARENA_SLOT_DIR``, else /run/arena-slots."""
    return Path(os.environ.get(SLOT_DIR_VARIABLE) or DEFAULT_SLOT_DIR)


def preferred_slot(pid: int | None = None) -> int:
    """Return the slot process ``pid`` (default: this one) tries first: its pid modulo :data:`SLOTS`."""
    return (os.getpid() if pid is None else pid) % SLOTS


def lock_name(first_uid: int) -> str:
    """Return the name of the lock file of the slot whose first uid is ``first_uid``."""
    return f"uids-{first_uid}-{first_uid + UIDS_PER_SLOT - 1}"


def lease_slot(
    preferred: int | None = None,
    uid_base: int = DEFAULT_UID_BASE,
    *,
    directory: Path | None = None,
    slots: int = SLOTS,
) -> SlotLease:
    """Lease the first free slot from ``preferred`` on (wrapping round ``slots``) and return the lease.

    ``preferred`` None: the slot this process's pid gives (:func:`preferred_slot`).

    As root the lease is a lock in ``directory`` (default :func:`slot_dir`)
    held until :meth:`SlotLease.release`; raises :class:`SlotsExhausted` when
    every slot is taken and :class:`SlotError` when the directory cannot be
    trusted. Without root it is ``preferred`` itself and locks nothing.
    """
    if preferred is None:
        preferred = preferred_slot() % slots
    for name, value in (("slot", preferred), ("uid_base", uid_base), ("slots", slots)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{name} must be an integer, not {value!r}")
    if not 0 < slots <= SLOTS:
        raise ValueError(f"slots must be from 1 to {SLOTS}, not {slots}")
    if not 0 <= preferred < slots:
        raise ValueError(f"a worker slot is from 0 to {slots - 1}, not {preferred}")
    if uid_base < 1:
        raise ValueError(f"uid_base must be above 0 (uid 0 is root), not {uid_base}")
    if os.geteuid() != 0:
        return SlotLease(slot=preferred, uid_base=uid_base, lock_file=None)
    directory = slot_dir() if directory is None else directory
    directory_fd = _open_slot_dir(directory)
    try:
        for step in range(slots):
            slot = (preferred + step) % slots
            name = lock_name(uid_base + slot * UIDS_PER_SLOT)
            fd = _open_lock(directory, directory_fd, name)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            except BaseException:
                os.close(fd)
                raise
            lease = SlotLease(slot=slot, uid_base=uid_base, lock_file=directory / name, _fd=fd)
            with _REGISTRY_LOCK:
                _HELD.add(lease)
            return lease
    finally:
        os.close(directory_fd)
    last_uid = uid_base + slots * UIDS_PER_SLOT - 1
    raise SlotsExhausted(
        f"all {slots} worker slots (bot uids {uid_base} to {last_uid}) are leased by running series "
        f"on this host (locks in {directory}); try again when a series has ended"
    )


def holds_uid(uid: int) -> bool:
    """Return whether this process holds a locked lease on the slot of ``uid``."""
    with _REGISTRY_LOCK:
        return any(lease.locked and uid in lease.uids for lease in _HELD)


def _open_slot_dir(directory: Path) -> int:
    """Return a descriptor of ``directory``, made 0700 if missing; refuse one another user could plant locks in."""
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise SlotError(f"the slot directory {directory} is not a directory (a symlink?): refusing it") from None
        raise SlotError(f"cannot use the slot directory {directory} ({SLOT_DIR_VARIABLE}): {exc.strerror}") from None
    info = os.fstat(fd)
    if info.st_uid != os.geteuid():
        os.close(fd)
        raise SlotError(
            f"the slot directory {directory} belongs to uid {info.st_uid}, not to this worker's "
            f"{os.geteuid()}: another user could hold or fake its locks; remove it or set {SLOT_DIR_VARIABLE}"
        )
    if stat.S_IMODE(info.st_mode) & 0o077:
        os.fchmod(fd, 0o700)  # e.g. a directory docker made for a bind mount (0755)
    return fd


def _open_lock(directory: Path, directory_fd: int, name: str) -> int:
    try:
        flags = os.O_RDONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC  # a fifo would not block
        fd = os.open(name, flags, 0o600, dir_fd=directory_fd)
    except OSError as exc:
        raise SlotError(f"cannot open the slot lock {directory / name}: {exc.strerror}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise SlotError(f"the slot lock {directory / name} is not a regular file")
    return fd
