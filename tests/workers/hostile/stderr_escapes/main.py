"""Plays the first legal action, writing NUL, controls and escape sequences to stderr on each move.

A NUL in the result document would be refused by PostgreSQL's jsonb and void
the series; the escapes would clear an author's terminal or retitle it; the
bidirectional controls would make the log read backwards on the owner's page.
"""

import sys

from bots.sdk import run

POISON = (
    "before\x00nul \x1b[2J\x1b[31mred\x1b[0m \x1b]0;pwned title\x07 bell\x07 del\x7f back\x08 tab\tafter\n"
    "rtl \u202egol eht\u202c iso \u2067x\u2069 marks \u200e\u200f\u061c\n"
)


def play(observation, legal_actions):
    sys.stderr.write(POISON)
    sys.stderr.flush()
    return legal_actions[0]


run(play)
