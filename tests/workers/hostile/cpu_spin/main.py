"""Reads its first request, then spins on the CPU for ever."""

from bots.sdk import run


def choose(observation, legal_actions):
    while True:
        pass


run(choose)
