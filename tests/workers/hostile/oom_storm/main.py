"""A fork storm of memory hogs: every child allocates until it is killed, and the bot starts another.

Each kernel OOM kill writes a report of dozens of lines to the host's kernel
log; a bot doing this for its whole decision time would flood it. The bot
itself answers nothing: it keeps the storm going.
"""

import os
import sys


def hog():
    hoard = []
    while True:
        hoard.append(b"\x01" * (1 << 20))


children = set()
started = 0
while True:
    while len(children) < 8:
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            hog()
        children.add(pid)
        started += 1
        if started % 8 == 0:
            print(f"HOSTILE children started: {started}", file=sys.stderr, flush=True)
    try:
        pid, _status = os.wait()
    except ChildProcessError:
        continue
    children.discard(pid)
