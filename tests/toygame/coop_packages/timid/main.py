from bots.sdk import run

# A player that always takes the safe move (1 a move, against 2 on average for risky).
run(lambda observation, legal_actions: "safe")
