"""Answers every request with 30,000 nested arrays: a RecursionError in a referee that parses it naively."""

import sys

for line in sys.stdin:
    if '"request"' in line:
        sys.stdout.write("[" * 30000 + "]" * 30000 + "\n")
        sys.stdout.flush()
