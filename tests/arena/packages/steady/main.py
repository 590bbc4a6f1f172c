"""A well-behaved bot that thinks 25 ms a decision, then takes the first legal action."""

import time

from bots.sdk import run


def choose(observation, legal_actions):
    time.sleep(0.025)
    return legal_actions[0]


run(choose)
