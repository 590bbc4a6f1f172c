"""Text a bot wrote, made safe to store and show: no NUL, no control characters, no terminal escapes.

(And :func:`quote`: untrusted input quoted in an error message, short and visible.)

A bot's stderr goes into the result document (PostgreSQL's jsonb refuses
``\\u0000``, so one NUL would fail the recording and void the series), onto
web pages, and to an author's terminal (``arena play --show-logs``), where an
escape sequence could rewrite the screen or the window title. Newlines and
tabs stay; every other C0 or C1 control character, and DEL, becomes U+FFFD;
ANSI escape sequences (CSI, OSC and the two-byte ones) are removed whole.

Unicode's bidirectional controls (the characters with the Bidi_Control
property: the embeddings and overrides U+202A-U+202E, the isolates
U+2066-U+2069, the marks U+200E, U+200F and U+061C) become U+FFFD too: one
right-to-left override makes the rest of a line, on a page or in a terminal,
read backwards, so a bot could make its log say what it does not.
"""

from __future__ import annotations

import re

#: ESC [ ... final byte (CSI), ESC ] ... BEL or ESC \ (OSC), and other two-byte ESC sequences; the 8-bit CSI too.
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[ -~]|\x9b[0-?]*[ -/]*[@-~]")
#: Unicode's Bidi_Control characters: they reorder the text around them when it is shown.
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_CONTROLS = re.compile(f"[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f{BIDI_CONTROLS}]")
REPLACEMENT = "\ufffd"


def sanitise(text: str) -> str:
    """Return ``text`` without escape sequences and with other control characters (bidi ones too) replaced."""
    return _CONTROLS.sub(REPLACEMENT, _ESCAPES.sub("", text))


def decode(data: bytes) -> str:
    """Return bytes a bot wrote as safe text (invalid UTF-8 replaced too)."""
    return sanitise(data.decode("utf-8", "replace"))


#: The most characters of a bot's (or a client's) input an error message quotes.
QUOTE_LIMIT = 80


def quote(value: object, limit: int = QUOTE_LIMIT, *, marks: bool = True) -> str:
    """Return untrusted ``value`` as an error message may show it: a short prefix, every character visible.

    A string is shown in single quotes (without them when ``marks`` is false); anything
    else as its ``repr``. At most ``limit`` characters of it are shown: a longer one is cut,
    followed by "…" and its length, so a 60,000-character name in bot.toml gives a line, not
    60 KB of echo. Within the prefix, undecodable bytes (kept as surrogates) show as
    ``\\xNN``, and every character that is not printable (controls, bidirectional controls,
    other invisible formatting) as its escape, as Python's ``repr`` writes it.
    """
    text = value if isinstance(value, str) else repr(value)
    prefix = text[:limit].encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    shown = "".join(char if char.isprintable() else ascii(char)[1:-1] for char in prefix)
    if marks and isinstance(value, str):
        shown = f"'{shown}'"
    if len(text) > limit:
        shown += f"… ({len(text):,} characters)"
    return shown
