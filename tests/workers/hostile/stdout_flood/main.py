"""Writes to stdout for ever and never ends the line: from its first request, or (flood_at_start) at once."""

import os
import sys

if not os.path.exists("/bot/flood_at_start"):
    for line in sys.stdin.buffer:  # start, game_start, then the first request
        if b'"type":"request"' in line:
            break
chunk = b"x" * 65536
while True:
    os.write(1, chunk)
