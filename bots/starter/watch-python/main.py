"""A starter Watch bot: take a winning move when there is one, otherwise play at random.

Copy this directory, rename the bot in bot.toml, and make ``choose`` smarter.
README.md beside this file says how to run it against the reference bots.
"""

from __future__ import annotations

import random
import sys

from bots.sdk import run

# Watch numbers its actions; a pawn move to square s is action MOVE_BASE + s,
# and SQUARE_NAMES[s] is the square's name ("b3"), the key used in the
# observation's "board" and "pawns".
from engines.watch.game import MOVE_BASE, SQUARE_NAMES


class StarterPolicy:
    """Wins at once when it can; every other choice is random."""

    name = "starter"

    def __init__(self, seed: int | None = None) -> None:
        # The referee hands every bot a seed: use it, and your games replay exactly.
        self.rng = random.Random(seed)

    def choose(self, observation: dict, legal_actions: list[int]) -> int:
        """Return one of ``legal_actions``.

        The observation (see docs/protocol.md) holds, among others:
        ``phase`` ("dress", "white_pawn", "black_pawn" or "move"), ``pawn``
        (your pawn, "white" or "black"), ``board`` (square name -> colour name,
        or None for a square whose tile is gone) and ``pawns`` (pawn -> square).
        """
        if observation["phase"] == "move":
            board = observation["board"]
            mine = observation["pawn"]
            theirs = "black" if mine == "white" else "white"
            their_square = observation["pawns"][theirs]
            for action in legal_actions:
                target = SQUARE_NAMES[action - MOVE_BASE]
                # You win by moving onto the other pawn, or onto a tile of the
                # colour the other pawn stands on.
                if target == their_square or board[target] == board[their_square]:
                    return action
        # Anything else (placing tiles, placing pawns, no winning move): at random.
        return self.rng.choice(legal_actions)

    def on_game_over(self, message: dict) -> None:
        """Called after every game: stdout belongs to the protocol, so log to stderr."""
        # outcome is null when the game ended in a forfeit; the forfeit says why.
        ending = message["outcome"] or message["forfeit"]
        print(f"game {message['game_index']} over: {ending['reason']}", file=sys.stderr)


# The sandbox runs this file as __main__; the guard lets tests import StarterPolicy.
if __name__ == "__main__":
    run(StarterPolicy)
