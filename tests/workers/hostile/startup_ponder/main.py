"""Precompute at start-up, hoping to do it while the opponent makes the first move.

A bot's start-up (imports, tables) belongs to its first decision, which has a
start-up allowance for it. Started, and then left running while its sandbox
was still being set up, it could instead work through the other bot's first
decisions. This one counts for a second of its own CPU time before it reads
anything (CPU time, not wall time: stopped part way, it still has the rest to
do once resumed), and reports ``startup <increments> <seconds>`` to stderr.
"""

import sys
import time

started, count = time.process_time(), 0
while time.process_time() - started < 1.0:
    count += 1
sys.stderr.write(f"startup {count} {time.process_time() - started:.4f}\n")
sys.stderr.flush()

from bots.sdk import run  # noqa: E402

run(lambda observation, legal_actions: legal_actions[0])
