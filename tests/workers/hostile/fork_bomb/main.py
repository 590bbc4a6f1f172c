"""Fork bomb: every process forks for ever. The pids cgroup caps it; nobody answers the referee."""

import os
import sys

first = os.getpid()
failures = 0
while True:
    try:
        os.fork()
    except OSError as exc:
        failures += 1
        if failures == 1 and os.getpid() == first:
            print(f"HOSTILE fork: {exc}", file=sys.stderr, flush=True)
