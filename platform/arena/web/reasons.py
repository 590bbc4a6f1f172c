"""Why a game ended, in words: the game's own reasons (its engine declares them) and the referee's forfeits.

The series page, the validation page, the forfeit history and the replay
viewer all show these words, so a reader sees "nobody could move any more",
never "tokens_out".
"""

from __future__ import annotations

from workers.referee import FORFEIT_WORDS as FORFEITS
from workers.referee import reason_words

__all__ = ["FORFEITS", "in_words", "reason_words"]


def in_words(game_name: str, reason: str) -> str:
    """Return ``reason`` in words; a code with no words is shown as it is, with its underscores spaced."""
    return reason_words(game_name).get(reason, reason.replace("_", " "))
