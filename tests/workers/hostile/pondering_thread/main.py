"""A second thread thinks while the main one waits for the next request.

The referee may leave a bot unfrozen only if its single task is blocked
reading its stdin; a second thread must be stopped with it. Each request the
bot reports on stderr how far the thread got off turn and on turn
(``offturn``/``onturn <increments> <seconds>``, as sigcont_ring does).
"""

import sys
import threading
import time

count = 0


def ponder():
    global count
    while True:
        count += 1


threading.Thread(target=ponder, daemon=True).start()

from bots.sdk import run  # noqa: E402

answered = None


def play(observation, legal_actions):
    global answered
    now, seen = time.monotonic(), count
    if answered is not None:
        sys.stderr.write(f"offturn {seen - answered[1]} {now - answered[0]:.4f}\n")
    start, first = time.monotonic(), count
    time.sleep(0.02)  # on turn: let the thread run and measure its pace
    sys.stderr.write(f"onturn {count - first} {time.monotonic() - start:.4f}\n")
    sys.stderr.flush()
    answered = (time.monotonic(), count)
    return legal_actions[0]


run(play)
