"""Maps anonymous memory without end and touches every page."""

import mmap
import sys

maps = []
while True:
    region = mmap.mmap(-1, 1 << 20)
    region.write(b"\x01" * (1 << 20))
    maps.append(region)
    if len(maps) % 16 == 0:
        print(f"HOSTILE mmap: {len(maps)} MiB", file=sys.stderr, flush=True)
