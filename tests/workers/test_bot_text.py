"""workers.bot_text: a bot's text made safe for a document, a page and a terminal."""

from __future__ import annotations

import pytest

from workers.bot_text import REPLACEMENT, decode, sanitise


@pytest.mark.parametrize(
    ("raw", "safe"),
    [
        ("plain\ttext\n", "plain\ttext\n"),
        ("a\x00b", f"a{REPLACEMENT}b"),
        ("\x1b[2J\x1b[1;31mred\x1b[0m", "red"),
        ("\x1b]0;title\x07after", "after"),
        ("\x1b]8;;http://evil\x1b\\link", "link"),
        ("\x1bcreset", "reset"),
        ("\x9b31mcsi8", "csi8"),
        ("del\x7f\x85nel", f"del{REPLACEMENT}{REPLACEMENT}nel"),
        ("é ü 漢字 😀", "é ü 漢字 😀"),
    ],
)
def test_it_keeps_text_and_drops_what_a_terminal_or_jsonb_would_act_on(raw: str, safe: str) -> None:
    assert sanitise(raw) == safe


def test_invalid_utf8_is_replaced_not_raised() -> None:
    assert decode(b"ok \xff\xfe \x00") == f"ok {REPLACEMENT}{REPLACEMENT} {REPLACEMENT}"
