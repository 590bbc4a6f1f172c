"""A child floods stderr for ever while the bot plays."""

import os

from bots.sdk import run

if os.fork() == 0:
    chunk = b"E" * 4096
    while True:
        os.write(2, chunk)

run(lambda observation, legal_actions: legal_actions[0])
