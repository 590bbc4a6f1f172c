from bots.sdk import run

# A player that always takes the risky move (4 or nothing: 2 a move on average, against 1 for safe).
run(lambda observation, legal_actions: "risky")
