"""Creates kernel AIO contexts until refused: fs.aio-nr is one count for the whole host.

Holding them all (fs.aio-max-nr, 65,536 events by default) breaks AIO for
every other program on the host (databases use it), and the count is a
number the other bot can read.
"""

import ctypes
import os
import sys

from bots.sdk import run

libc = ctypes.CDLL(None, use_errno=True)
SYS_IO_SETUP, SYS_IO_SUBMIT = 206, 209


def report(probe, outcome):
    print(f"HOSTILE {probe}: {outcome}", file=sys.stderr, flush=True)


contexts = []
for _ in range(64):
    context = ctypes.c_ulong(0)
    if libc.syscall(SYS_IO_SETUP, 4096, ctypes.byref(context)) != 0:
        report("io_setup", f"OSError: {os.strerror(ctypes.get_errno())} after {len(contexts)}")
        break
    contexts.append(context)
else:
    report("io_setup", f"OK {len(contexts)}")
result = libc.syscall(SYS_IO_SUBMIT, 0, 0, 0)
report("io_submit", f"OK {result}" if result >= 0 else f"OSError: {os.strerror(ctypes.get_errno())}")

run(lambda observation, legal_actions: legal_actions[0])
