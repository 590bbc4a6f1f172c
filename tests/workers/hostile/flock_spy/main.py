"""Locks the read-only files both bots of a series see, and tests for the other's locks.

Both seats run this bot. Without a stop, a lock taken by one bot on a file
bind-mounted into both sandboxes (the same inode) is seen by the other: one
bit a file and a turn. Every lock call reports its outcome; then it plays.
The ``upper bits`` probes make the same ``fcntl`` calls with the upper 32 bits
of the command set: the kernel reads the command as a 32-bit int and ignores
them, so a filter must too.
"""

import ctypes
import fcntl
import os
import struct
import sys

from bots.sdk import run

F_OFD_GETLK, F_OFD_SETLK = 36, 37
SYS_FCNTL = {"x86_64": 72, "aarch64": 25}[os.uname().machine]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def report(probe, outcome):
    print(f"HOSTILE {probe}: {outcome}", file=sys.stderr, flush=True)


def attempt(probe, action):
    try:
        result = action()
    except Exception as exc:
        report(probe, f"{type(exc).__name__}: {exc}")
    else:
        report(probe, f"OK {result!r}"[:2000])


def upper_bits_lock(handle, lock):
    buffer = ctypes.create_string_buffer(lock)
    command = ctypes.c_long((1 << 32) | F_OFD_SETLK)  # the kernel sees F_OFD_SETLK
    if libc.syscall(ctypes.c_long(SYS_FCNTL), ctypes.c_long(handle.fileno()), command, buffer) == -1:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))
    return "locked"


SHARED = (os.__file__, "/arena/engines/__init__.py", "/bot/main.py")
handles = [open(path, "rb") for path in SHARED]  # noqa: SIM115 - held for the whole series
for path, handle in zip(SHARED, handles, strict=True):
    attempt(f"flock {path}", lambda h=handle: fcntl.flock(h, fcntl.LOCK_SH | fcntl.LOCK_NB))
    attempt(f"lockf {path}", lambda h=handle: fcntl.lockf(h, fcntl.LOCK_SH | fcntl.LOCK_NB))
    lock = struct.pack("hhqqi4x", fcntl.F_RDLCK, 0, 0, 0, 0)
    attempt(f"ofd lock {path}", lambda h=handle, lock=lock: len(fcntl.fcntl(h, F_OFD_SETLK, lock)))
    attempt(f"getlk {path}", lambda h=handle, lock=lock: len(fcntl.fcntl(h, fcntl.F_GETLK, lock)))
    attempt(f"ofd getlk {path}", lambda h=handle, lock=lock: len(fcntl.fcntl(h, F_OFD_GETLK, lock)))
    attempt(f"lease {path}", lambda h=handle: fcntl.fcntl(h, fcntl.F_SETLEASE, fcntl.F_RDLCK))
    attempt(f"ofd lock upper bits {path}", lambda h=handle, lock=lock: upper_bits_lock(h, lock))

run(lambda observation, legal_actions: legal_actions[0])
