"""The template filters that write a change with its sign: ``signed`` (with an arrow) and ``change``."""

from __future__ import annotations

import pytest

from arena.web.templatetags.arena_web import change, signed


@pytest.mark.parametrize(
    ("value", "digits", "shown"),
    [
        (1.254, 2, "▲ +1.25"),
        (-0.5, 2, "▼ −0.50"),
        (0, 2, "→ 0.00"),
        (-0.004, 2, "→ 0.00"),
        (0.004, 2, "→ 0.00"),
        (3, 1, "▲ +3.0"),
        (None, 2, "–"),
    ],
)
def test_signed_shows_an_arrow_and_a_sign(value: float | None, digits: int, shown: str) -> None:
    assert signed(value, digits) == shown


@pytest.mark.parametrize(
    ("value", "digits", "shown"),
    [
        (1.254, 2, "+1.25"),
        (-0.5, 2, "−0.50"),
        (0, 2, "0.00"),
        (-0.004, 2, "0.00"),
        (-12, 0, "−12"),
        (None, 2, "–"),
        ("", 2, "–"),
    ],
)
def test_change_shows_a_sign_and_a_dash_for_none(value: float | None, digits: int, shown: str) -> None:
    assert change(value, digits) == shown
