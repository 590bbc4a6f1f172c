import os

from bots.sdk import run

decisions = 0


def play(observation, legal_actions):
    # Plays well through its two validation games (ten decisions), then crashes in its third game.
    global decisions
    decisions += 1
    if decisions > 2 * 5:
        os._exit(3)
    return 0 if observation["card"] >= 5 else 1


run(play)
