"""The well-behaved opponent: the first legal action, every time."""

from bots.sdk import run

run(lambda observation, legal_actions: legal_actions[0])
