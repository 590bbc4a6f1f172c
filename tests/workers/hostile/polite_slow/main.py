"""A well-behaved opponent that takes 40 ms a move, so the bot it plays waits frozen for a while."""

import time

from bots.sdk import run


def choose(observation, legal_actions):
    time.sleep(0.04)
    return legal_actions[0]


run(choose)
