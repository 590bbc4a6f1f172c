"""Think on the opponent's time, woken by the messages that are not a request.

``game_start`` and ``game_over`` are written to a bot off its turn. A bot left
running because it was waiting for the referee would be woken by them, and
could then think while the opponent makes the next game's first move: this
one counts until its next request is there to read (at most 2 s). At each
request it reports ``notice <increments> <seconds>`` (its work since the last
notice) to stderr.
"""

import json
import os
import select
import sys
import time

buffered = b""
owed = None


def messages():
    global buffered
    while True:
        while b"\n" not in buffered:
            chunk = os.read(0, 65536)
            if not chunk:
                return
            buffered += chunk
        line, buffered = buffered.split(b"\n", 1)
        yield json.loads(line)


def ponder():
    started, count = time.monotonic(), 0
    while time.monotonic() - started < 2 and b"\n" not in buffered:
        count += 1
        if count % 1000 == 0 and select.select([0], [], [], 0)[0]:
            break
    return count, time.monotonic() - started


for message in messages():
    kind = message.get("type")
    if kind in ("game_start", "game_over"):
        count, seconds = ponder()
        owed = (count + (owed or (0, 0))[0], seconds + (owed or (0, 0))[1])
    elif kind == "request":
        if owed is not None:
            sys.stderr.write(f"notice {owed[0]} {owed[1]:.4f}\n")
            sys.stderr.flush()
            owed = None
        sys.stdout.write(json.dumps({"action": message["legal_actions"][0]}) + "\n")
        sys.stdout.flush()
    elif kind == "series_over":
        break
