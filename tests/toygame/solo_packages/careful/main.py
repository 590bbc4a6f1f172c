from bots.sdk import run

# Takes the larger of the card and ten minus it: high from 5 up.
run(lambda observation, legal_actions: 0 if observation["card"] >= 5 else 1)
