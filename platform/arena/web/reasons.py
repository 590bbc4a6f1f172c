"""Why a game ended, in words: the game's own reasons (its engine declares them) and the referee's forfeits.

The series page, the validation page, the forfeit history and the replay
viewer all show these words, so a reader sees "nobody could move any more",
never "tokens_out".
"""

from __future__ import annotations

import engines

#: The referee's forfeit reasons (workers/referee.py), the same for every game.
FORFEITS = {
    "illegal_action": "answered with a move the rules do not allow",
    "malformed_output": "answered with something that is not a move",
    "line_too_long": "wrote an answer longer than the protocol allows",
    "decision_timeout": "took longer than the time allowed for one move",
    "time_bank": "used up its time bank",
    "crash": "crashed",
    "early_exit": "stopped before the game was over",
    "not_reading": "stopped reading the referee's messages",
}


def reason_words(game_name: str) -> dict[str, str]:
    """Return every reason code of ``game_name`` (its own and the forfeits) with its words."""
    words = dict(FORFEITS)
    if game_name in engines.names():
        words.update(engines.get(game_name).info.reasons)
    return words


def in_words(game_name: str, reason: str) -> str:
    """Return ``reason`` in words; a code with no words is shown as it is, with its underscores spaced."""
    return reason_words(game_name).get(reason, reason.replace("_", " "))
