"""Opens pseudo-terminals until refused: the host counts them all against one limit (kernel.pty.max).

A bot holding them all would stop every other program on the host from
getting a terminal (sshd, docker exec), and their count is a number the other
bot can read.
"""

import os
import sys

from bots.sdk import run


def report(probe, outcome):
    print(f"HOSTILE {probe}: {outcome}", file=sys.stderr, flush=True)


held = []
try:
    for _ in range(200):
        held.append(os.openpty())
except OSError as exc:
    report("openpty", f"{type(exc).__name__}: {exc} after {len(held)}")
else:
    report("openpty", f"OK {len(held)}")
for path in ("/dev/ptmx", "/dev/pts/ptmx", "/dev/tty"):
    try:
        os.close(os.open(path, os.O_RDWR | os.O_NOCTTY))
    except OSError as exc:
        report(f"open {path}", f"{type(exc).__name__}: {exc}")
    else:
        report(f"open {path}", "OK opened")
report("dev", f"OK {sorted(os.listdir('/dev'))}")

run(lambda observation, legal_actions: legal_actions[0])
