"""workers.bot_text: a bot's text made safe for a document, a page and a terminal."""

from __future__ import annotations

import pytest

from workers.bot_text import BIDI_CONTROLS, REPLACEMENT, decode, sanitise


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


def test_bidirectional_controls_are_replaced_so_no_line_reads_backwards() -> None:
    # U+202E (right-to-left override) shows "gol eht" as "the log": a bot could make its log,
    # on its owner's page or in a terminal, read as something it does not say.
    assert sanitise("ok \u202egol eht\u202c done\n") == f"ok {REPLACEMENT}gol eht{REPLACEMENT} done\n"
    for control in BIDI_CONTROLS:  # embeddings, overrides, isolates and the three marks
        assert sanitise(f"a{control}b") == f"a{REPLACEMENT}b", hex(ord(control))
    assert decode("x\u2067y\u2069z\u200f".encode()) == f"x{REPLACEMENT}y{REPLACEMENT}z{REPLACEMENT}"
    assert sorted(BIDI_CONTROLS) == sorted(
        "\u061c\u200e\u200f" + "".join(map(chr, range(0x202A, 0x202F))) + "".join(map(chr, range(0x2066, 0x206A)))
    )
    assert sanitise("עברית and العربية") == "עברית and العربية"  # right-to-left text itself stays
