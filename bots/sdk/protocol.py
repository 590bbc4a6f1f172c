"""The bot protocol's message names and the one encoder on the SDK's hot path.

docs/protocol.md is the language-neutral specification (forfeit reasons
included: they belong to the referee, workers/referee.py).
"""

from __future__ import annotations

import json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

PROTOCOL_VERSION = 1

# Referee -> bot message types, in the order a series sends them.
START = "start"
GAME_START = "game_start"
REQUEST = "request"
GAME_OVER = "game_over"
SERIES_OVER = "series_over"
MESSAGE_TYPES = (START, GAME_START, REQUEST, GAME_OVER, SERIES_OVER)


class ProtocolError(ValueError):
    """A line that is not a message of this protocol, or an answer the SDK cannot send."""


def encode_action(action: Any) -> bytes:
    """Return the reply line for ``action``: an action id (int) or a move in the game's notation (str)."""
    if type(action) is int:  # the fast path: almost every answer
        return b'{"action": %d}\n' % action
    if isinstance(action, str):
        return b'{"action": %s}\n' % json.dumps(action).encode()
    if isinstance(action, bool):
        raise ProtocolError(f"a policy returned {action!r}; return an action id from legal_actions")
    try:
        # Integer-like values (numpy integers, IntEnum members) are action ids too.
        return b'{"action": %d}\n' % action.__index__()
    except (AttributeError, TypeError):
        raise ProtocolError(
            f"a policy returned {type(action).__name__} {action!r}; "
            "return an action id from legal_actions (int) or a move in the game's notation (str)"
        ) from None
