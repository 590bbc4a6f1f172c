"""Reads the host-wide numbers another bot could move: a channel between the two seats.

Free memory, forks since boot, running processes, open files, load, locks,
interrupts: a sender changes one on its turn (allocates, forks, opens), the
receiver reads it on its own. Each probe reports what it could read.
"""

import ctypes
import os
import sys

from bots.sdk import run


def report(probe, outcome):
    print(f"HOSTILE {probe}: {outcome}", file=sys.stderr, flush=True)


def attempt(probe, action):
    try:
        result = action()
    except Exception as exc:
        report(probe, f"{type(exc).__name__}: {exc}")
    else:
        report(probe, f"OK {result!r}"[:300])


def read(path):
    with open(path) as handle:
        return handle.read()


for path in ("/proc/meminfo", "/proc/stat", "/proc/loadavg", "/proc/vmstat", "/proc/uptime", "/proc/locks",
             "/proc/interrupts", "/proc/softirqs", "/proc/diskstats", "/proc/schedstat", "/proc/zoneinfo",
             "/proc/buddyinfo", "/proc/swaps", "/proc/sys/fs/file-nr", "/proc/sys/fs/inode-nr",
             "/proc/sys/fs/aio-nr", "/proc/sys/kernel/pty/nr", "/proc/sys/kernel/random/entropy_avail",
             "/proc/pressure/cpu", "/proc/pressure/memory", "/sys/fs/cgroup/memory.stat"):  # fmt: skip
    attempt(f"read {path}", lambda path=path: read(path))
attempt("list /proc/sys", lambda: os.listdir("/proc/sys"))
libc = ctypes.CDLL(None, use_errno=True)
info = ctypes.create_string_buffer(256)
result = libc.sysinfo(info)
report("sysinfo", f"OK {result}" if result == 0 else f"OSError: {os.strerror(ctypes.get_errno())}")
attempt("own status", lambda: read("/proc/self/status").splitlines()[0])
attempt("cpu_count", os.cpu_count)

run(lambda observation, legal_actions: legal_actions[0])
