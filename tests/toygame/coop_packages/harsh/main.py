from bots.sdk import run

# A GM that always raises the alarm by the most it may.
run(lambda observation, legal_actions: "raise 2")
