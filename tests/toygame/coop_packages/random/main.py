import random

from bots.sdk import run


class Random:
    """Either role: a legal move at random, from the seed the referee gives (a series replays the same)."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def choose(self, observation, legal_actions):
        return self.rng.choice(legal_actions)


run(Random)
