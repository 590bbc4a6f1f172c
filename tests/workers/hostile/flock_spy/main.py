"""Locks the read-only files both bots of a series see, and tests for the other's locks.

Both seats run this bot. Without a stop, a lock taken by one bot on a file
bind-mounted into both sandboxes (the same inode) is seen by the other: one
bit a file and a turn. Every lock call reports its outcome; then it plays.
"""

import fcntl
import os
import struct
import sys

from bots.sdk import run

F_OFD_GETLK, F_OFD_SETLK = 36, 37


def report(probe, outcome):
    print(f"HOSTILE {probe}: {outcome}", file=sys.stderr, flush=True)


def attempt(probe, action):
    try:
        result = action()
    except Exception as exc:
        report(probe, f"{type(exc).__name__}: {exc}")
    else:
        report(probe, f"OK {result!r}"[:2000])


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

run(lambda observation, legal_actions: legal_actions[0])
