"""Checks of untrusted values that every engine makes: an integer, an integer in a range.

A bool is an ``int`` to Python, but ``True`` is no action, seat or count: these
checks refuse it. Each caller words its own error, so the messages stay the
game's own.
"""

from __future__ import annotations

from typing import TypeGuard


def is_integer(value: object) -> TypeGuard[int]:
    """Return True if ``value`` is an int and not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def integer_in(value: object, low: int, high: int) -> TypeGuard[int]:
    """Return True if ``value`` is an int, not a bool, from ``low`` to ``high`` (both included)."""
    return is_integer(value) and low <= value <= high
