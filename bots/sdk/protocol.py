"""The bot protocol's message names and the codec on the SDK's hot path.

docs/protocol.md is the language-neutral specification (forfeit reasons
included: they belong to the referee, workers/referee.py).

The codec is the standard library's own C scanner and string encoder
(``_json``, what ``json.loads`` and ``json.dumps`` run), called without the
``json`` package: importing that package brings ``re`` and ``enum`` and costs
a sandboxed bot about 4 ms of its start (docs/benchmarks.md). ``json`` is
imported only to describe a line that is not JSON.
"""

from __future__ import annotations

from _json import encode_basestring_ascii as _quote
from _json import make_scanner as _make_scanner

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

PROTOCOL_VERSION = 2

# Referee -> bot message types, in the order a series sends them.
START = "start"
GAME_START = "game_start"
REQUEST = "request"
GAME_OVER = "game_over"
SERIES_OVER = "series_over"
MESSAGE_TYPES = (START, GAME_START, REQUEST, GAME_OVER, SERIES_OVER)


class ProtocolError(ValueError):
    """A line that is not a message of this protocol, or an answer the SDK cannot send."""


def _constant(name: str) -> float:
    return {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}[name]


class _Reading:
    """What ``json.JSONDecoder()`` gives the C scanner: the same defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = staticmethod(_constant)


_scan = _make_scanner(_Reading())  # type: ignore[arg-type]  # the C scanner reads these attributes
_WHITESPACE = " \t\n\r"


def loads(line: str | bytes) -> Any:
    """Return the value of one JSON text, as ``json.loads`` reads it (a ``bytes`` line is UTF-8).

    Raises ``ValueError`` (``json.JSONDecodeError`` or ``UnicodeDecodeError``)
    for anything that is not one JSON text, like ``json.loads``.
    """
    text = line if isinstance(line, str) else line.decode("utf-8")
    start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, end = _scan(text, start)
    except StopIteration as stop:
        raise _decode_error("Expecting value", text, stop.value) from None
    if end != len(text) and text[end:].strip(_WHITESPACE):
        raise _decode_error("Extra data", text, end + len(text[end:]) - len(text[end:].lstrip(_WHITESPACE)))
    return value


def _decode_error(message: str, text: str, position: int) -> ValueError:
    from json import JSONDecodeError

    return JSONDecodeError(message, text, position)


def encode_action(action: Any) -> bytes:
    """Return the reply line for ``action``: an action id (int) or a move in the game's notation (str)."""
    if type(action) is int:  # the fast path: almost every answer
        return b'{"action": %d}\n' % action
    if isinstance(action, str):
        return b'{"action": %s}\n' % _quote(action).encode()
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
