"""Answers every request with an action id of 5,001 digits (a ValueError in a naive json.loads)."""

import sys

for line in sys.stdin:
    if '"request"' in line:
        sys.stdout.write('{"action": 1' + "0" * 5000 + "}\n")
        sys.stdout.flush()
