"""Tries to write to its own code, /usr, /, /arena and /etc (and /tmp, which is allowed). Reports, then plays."""

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


def append(path):
    with open(path, "a") as handle:
        handle.write("# hostile was here\n")
    return "written"


for path in (
    "/bot/main.py",
    "/bot/hostile-was-here",
    "/usr/hostile-was-here",
    "/usr/lib/python3/dist-packages/hostile_was_here.py",
    "/hostile-was-here",
    "/arena/engines/__init__.py",
    "/etc/hostile-was-here",
    "/tmp/arena-hostile-was-here",
    "/dev/shm/arena-hostile-was-here",
):
    attempt(f"write {path}", lambda path=path: append(path))
attempt("chmod /bot/main.py", lambda: os.chmod("/bot/main.py", 0o777))
attempt("rename /bot/main.py", lambda: os.rename("/bot/main.py", "/bot/moved.py"))
attempt("mkdir /hostile-dir", lambda: os.mkdir("/hostile-dir"))

run(lambda observation, legal_actions: legal_actions[0])
