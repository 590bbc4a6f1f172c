"""Forks four children that spin for ever, then plays: the children must not run off turn."""

import os

from bots.sdk import run

for _ in range(4):
    if os.fork() == 0:
        while True:
            pass

run(lambda observation, legal_actions: legal_actions[0])
