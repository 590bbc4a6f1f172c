"""Puts a socket with a 1 ms receive timeout on fd 0 and thinks between its timeouts.

The referee may leave a bot unfrozen when it is blocked in read(0, ...) on the
referee's pipe; a read on fd 0 that wakes by itself (a socket with
SO_RCVTIMEO) must not count. Requests come on a copy of the pipe; off turn
the bot alternates 1 ms reads on fd 0 with work. Each request it reports on
stderr how far it got off turn and on turn (``offturn``/``onturn
<increments> <seconds>``, as sigcont_ring does).
"""

import contextlib
import os
import select
import socket
import struct
import sys
import time

requests = os.dup(0)
mine, _ = socket.socketpair()
mine.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, struct.pack("ll", 0, 1000))
os.dup2(mine.fileno(), 0)
count = 0


class Pondering:
    """What the SDK reads requests from: while none is there, think between 1 ms reads of fd 0."""

    def __init__(self):
        self.pending = b""

    def readline(self):
        global count
        while b"\n" not in self.pending:
            if select.select([requests], [], [], 0)[0]:
                chunk = os.read(requests, 65536)
                if not chunk:
                    break
                self.pending += chunk
                continue
            with contextlib.suppress(OSError):
                os.read(0, 1)  # blocks in read(0, ...) for 1 ms
            end = time.monotonic() + 0.0005
            while time.monotonic() < end:
                count += 1
        line, _, self.pending = self.pending.partition(b"\n")
        return line + b"\n" if line or self.pending else b""


from bots.sdk import run  # noqa: E402

answered = None


def play(observation, legal_actions):
    global answered, count
    now = time.monotonic()
    if answered is not None:
        sys.stderr.write(f"offturn {count - answered[1]} {now - answered[0]:.4f}\n")
    start, first = time.monotonic(), count
    while time.monotonic() - start < 0.02:
        count += 1
    sys.stderr.write(f"onturn {count - first} {time.monotonic() - start:.4f}\n")
    sys.stderr.flush()
    answered = (time.monotonic(), count)
    return legal_actions[0]


run(play, stdin=Pondering())
