"""Starts threads until the pids limit refuses one, reports how many it got, then plays."""

import sys
import threading

from bots.sdk import run

parked = threading.Event()
started = 0
while True:
    try:
        threading.Thread(target=parked.wait, daemon=True).start()
    except RuntimeError as exc:
        print(f"HOSTILE threads: {started} started, then {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        break
    started += 1

run(lambda observation, legal_actions: legal_actions[0])
