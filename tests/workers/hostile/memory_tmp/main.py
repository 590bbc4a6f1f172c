"""Fills /tmp until the file system refuses, reports how far it got, then plays."""

import sys

from bots.sdk import run

written = 0
try:
    with open("/tmp/hoard", "wb") as hoard:
        while True:
            hoard.write(b"\x01" * (1 << 20))
            hoard.flush()
            written += 1
except OSError as exc:
    print(f"HOSTILE tmp: {written} MiB written, then {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)

run(lambda observation, legal_actions: legal_actions[0])
