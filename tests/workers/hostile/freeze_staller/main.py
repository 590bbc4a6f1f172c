"""Fills its pids limit with children that fork, exit and SIGCONT one another, to make freezing slow.

Stopping such a tree takes many rounds of signals, and the kernel freezer
waits for each task: time the referee spends on this bot. It must be this
bot's time (charged to its clock, a forfeit past the limit), never the
opponent's and never an unbounded stall of the series.
"""

import os
import signal
import sys

from bots.sdk import run


def churn():
    while True:
        try:
            os.killpg(0, signal.SIGCONT)
            if os.fork() > 0:
                os._exit(0)
        except OSError:
            pass


started = 0
for _ in range(12):
    try:
        if os.fork() == 0:
            churn()
        started += 1
    except OSError:
        break
print(f"HOSTILE children: OK {started}", file=sys.stderr, flush=True)

run(lambda observation, legal_actions: legal_actions[0])
