"""Watches the read-only files both bots see, to learn which ones the other opens.

inotify on a file bind-mounted into both sandboxes reports the other bot's
opens and reads (which modules it imports, which data files it consults).
"""

import ctypes
import os
import sys

from bots.sdk import run

libc = ctypes.CDLL(None, use_errno=True)
IN_OPEN, IN_ACCESS = 0x20, 0x1


def report(probe, outcome):
    print(f"HOSTILE {probe}: {outcome}", file=sys.stderr, flush=True)


def call(probe, result):
    report(probe, f"OK {result}" if result >= 0 else f"OSError: {os.strerror(ctypes.get_errno())}")
    return result


fd = call("inotify_init1", libc.inotify_init1(os.O_NONBLOCK))
call("inotify_init", libc.inotify_init())
for path in (os.__file__, "/arena/engines/__init__.py", "/bot"):
    call(f"watch {path}", libc.inotify_add_watch(fd, path.encode(), IN_OPEN | IN_ACCESS))
call("fanotify_init", libc.syscall(300, 0, 0))

run(lambda observation, legal_actions: legal_actions[0])
