"""Four children that send SIGCONT to one another in a ring, counting their work in shared memory.

A freeze that SIGSTOPs processes one by one is undone by a member not yet
stopped. Each request, the bot reports on stderr how far the children got
while it was off turn (between its last answer and this request) and how
long that was: ``offturn <increments> <seconds>``, and on turn
``onturn <increments> <seconds>`` measured over a short busy wait.
"""

import mmap
import os
import signal
import struct
import sys
import time

CHILDREN = 4
shared = mmap.mmap(-1, 8 * CHILDREN)


def total() -> int:
    return sum(struct.unpack_from("q", shared, 8 * i)[0] for i in range(CHILDREN))


for index in range(CHILDREN):
    if os.fork() == 0:
        count = 0
        while True:
            count += 1
            struct.pack_into("q", shared, 8 * index, count)
            os.killpg(os.getpgrp(), signal.SIGCONT)  # wake every stopped member of the group, siblings too

from bots.sdk import run  # noqa: E402

answered = None


def play(observation, legal_actions):
    global answered
    now, count = time.monotonic(), total()
    if answered is not None:
        sys.stderr.write(f"offturn {count - answered[1]} {now - answered[0]:.4f}\n")
    start, first = time.monotonic(), total()
    time.sleep(0.02)  # on turn: let the children run and measure their pace
    sys.stderr.write(f"onturn {total() - first} {time.monotonic() - start:.4f}\n")
    sys.stderr.flush()
    answered = (time.monotonic(), total())
    return legal_actions[0]


run(play)
