"""Allocates (and touches) heap memory without end, one MiB at a time."""

import sys

hoard = []
while True:
    hoard.append(b"\x01" * (1 << 20))
    if len(hoard) % 16 == 0:
        print(f"HOSTILE heap: {len(hoard)} MiB", file=sys.stderr, flush=True)
