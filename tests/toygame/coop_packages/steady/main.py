from bots.sdk import run


def play(observation, legal_actions):
    # No roles in its bot.toml, so it plays both: the safe move as a player, a raise of 1 as the GM.
    return "raise 1" if observation["role"] == "gm" else "safe"


run(play)
