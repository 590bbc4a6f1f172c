"""engines/checks.py: the integer checks every engine makes of untrusted values."""

from __future__ import annotations

import pytest

from engines.checks import integer_in, is_integer


@pytest.mark.parametrize(("value", "expected"), [(0, True), (-3, True), (True, False), (1.0, False), ("1", False)])
def test_it_takes_an_int_and_refuses_a_bool_a_float_or_text(value: object, expected: bool) -> None:
    assert is_integer(value) is expected


@pytest.mark.parametrize(("value", "expected"), [(1, True), (3, True), (0, False), (4, False), (True, False)])
def test_it_takes_an_integer_from_low_to_high_both_included(value: object, expected: bool) -> None:
    assert integer_in(value, 1, 3) is expected
