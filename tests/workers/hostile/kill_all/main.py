"""Kills its parent, pid 1, every process it may signal, and a host process of its own uid. Reports, then plays.

targets.json beside this file (written by the test) holds the host pid of a process with this bot's uid.
"""

import json
import os
import signal
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
        report(probe, f"OK {result!r}"[:2000])


with open("/bot/targets.json") as handle:
    targets = json.load(handle)
report("parent", os.getppid())
attempt("kill parent", lambda: os.kill(os.getppid(), signal.SIGKILL))
attempt("kill 1", lambda: os.kill(1, signal.SIGKILL))
attempt("kill -1", lambda: os.kill(-1, signal.SIGKILL))
attempt("kill host pid", lambda: os.kill(targets["host_pid"], signal.SIGKILL))
attempt("pids left", lambda: sorted(int(name) for name in os.listdir("/proc") if name.isdigit()))

run(lambda observation, legal_actions: legal_actions[0])
