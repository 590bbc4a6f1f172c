import os

from bots.sdk import run


def play(observation, legal_actions):
    # Plays the player role well, and crashes the first time it is asked to be the GM.
    if observation["role"] == "gm":
        os._exit(3)
    return "risky"


run(play)
