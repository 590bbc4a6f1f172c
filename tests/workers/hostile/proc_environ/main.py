"""Reads every visible process's environment and command line (and a host pid's). Reports, then plays.

targets.json beside this file (written by the test) holds the referee's host pid.
"""

import json
import os
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


def read(path):
    with open(path, "rb") as handle:
        return handle.read().replace(b"\0", b" ").decode("utf-8", "replace")


with open("/bot/targets.json") as handle:
    targets = json.load(handle)
pids = sorted(int(name) for name in os.listdir("/proc") if name.isdigit())
report("pids", pids)
report("own environ", sorted(os.environ))
for pid in [*pids, targets["referee_pid"]]:
    attempt(f"environ {pid}", lambda pid=pid: read(f"/proc/{pid}/environ"))
    attempt(f"cmdline {pid}", lambda pid=pid: read(f"/proc/{pid}/cmdline"))

run(lambda observation, legal_actions: legal_actions[0])
