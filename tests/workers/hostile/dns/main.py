"""Tries name lookups (the Internet, the compose services, localhost). Reports, then plays."""

import socket
import sys
import time

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


for name in ("example.com", "redis", "postgres", "localhost"):
    started = time.monotonic()
    attempt(f"lookup {name}", lambda name=name: sorted({info[4][0] for info in socket.getaddrinfo(name, 80)}))
    report(f"lookup {name} took", f"{time.monotonic() - started:.3f} s")

run(lambda observation, legal_actions: legal_actions[0])
