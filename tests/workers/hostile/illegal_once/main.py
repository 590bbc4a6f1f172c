"""Plays its first request with an action id no game has: an illegal_action forfeit."""

import json
import sys

for line in sys.stdin:
    if json.loads(line).get("type") == "request":
        sys.stdout.write('{"action": 987654}\n')
        sys.stdout.flush()
