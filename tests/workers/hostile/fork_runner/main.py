"""A child that forks and exits for ever: its pid changes all the time, so it is hard to stop.

The bot itself plays; the runner burns CPU and must not run while the bot is off turn.
"""

import os

from bots.sdk import run

if os.fork() == 0:
    while True:
        try:
            if os.fork() > 0:
                os._exit(0)
        except OSError:
            pass

run(lambda observation, legal_actions: legal_actions[0])
