"""Ignores the polite signals and sleeps past every deadline."""

import signal
import time

from bots.sdk import run

for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGPIPE):
    signal.signal(sig, signal.SIG_IGN)


def choose(observation, legal_actions):
    while True:
        time.sleep(3600)


run(choose)
