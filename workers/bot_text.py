"""Text a bot wrote, made safe to store and show: no NUL, no control characters, no terminal escapes.

A bot's stderr goes into the result document (PostgreSQL's jsonb refuses
``\\u0000``, so one NUL would fail the recording and void the series), onto
web pages, and to an author's terminal (``arena play --show-logs``), where an
escape sequence could rewrite the screen or the window title. Newlines and
tabs stay; every other C0 or C1 control character, and DEL, becomes U+FFFD;
ANSI escape sequences (CSI, OSC and the two-byte ones) are removed whole.
"""

from __future__ import annotations

import re

#: ESC [ ... final byte (CSI), ESC ] ... BEL or ESC \ (OSC), and other two-byte ESC sequences; the 8-bit CSI too.
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[ -~]|\x9b[0-?]*[ -/]*[@-~]")
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
REPLACEMENT = "\ufffd"


def sanitise(text: str) -> str:
    """Return ``text`` without escape sequences and with other control characters replaced."""
    return _CONTROLS.sub(REPLACEMENT, _ESCAPES.sub("", text))


def decode(data: bytes) -> str:
    """Return bytes a bot wrote as safe text (invalid UTF-8 replaced too)."""
    return sanitise(data.decode("utf-8", "replace"))
