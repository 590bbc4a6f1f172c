"""Template filters of the pages: series points as the rulebook writes them, signed changes, percentages."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.http import QueryDict

from engines.text import format_points

register = template.Library()


@register.filter
def points(value: Decimal | float | None) -> str:
    """Return series points as the rulebook writes them (1½), or an en dash when not recorded yet."""
    if value is None:
        return "–"
    number = float(value)
    if abs(number * 2 - round(number * 2)) < 1e-9 and number >= 0:
        return format_points(number)
    return f"{number:g}"


#: The arrow :func:`signed` puts before a change of each sign.
ARROWS = {"+": "▲", "−": "▼", "": "→"}


def _sign_and_size(value: float, digits: int) -> tuple[str, str]:
    """Return the sign ("+", "−", or "" for zero) and the size of ``value`` rounded to ``digits``."""
    rounded = round(value, digits)
    sign = "+" if rounded > 0 else "−" if rounded < 0 else ""
    return sign, f"{abs(rounded):.{digits}f}"


@register.filter
def signed(value: float | None, digits: int = 2) -> str:
    """Return a change with its sign and arrow: "▲ +1.25", "▼ −0.50", "→ 0.00"."""
    if value is None:
        return "–"
    sign, size = _sign_and_size(value, digits)
    return f"{ARROWS[sign]} {sign}{size}"


@register.filter
def change(value: float | None, digits: int = 2) -> str:
    """Return a rating change with its sign: "+1.25", "−0.50", "0.00"; "–" when there is none."""
    if not isinstance(value, int | float):  # None, or "" from a template lookup through None
        return "–"
    sign, size = _sign_and_size(value, digits)
    return f"{sign}{size}"


@register.filter
def percent(value: float | None, digits: int = 0) -> str:
    """Return a share of 1 as a percentage ("62%")."""
    if value is None:
        return "–"
    return f"{value * 100:.{digits}f}%"


@register.simple_tag(takes_context=True)
def query_with(context: template.Context, **changes: object) -> str:
    """Return the current query string with ``changes`` applied (a page or sort link keeps the rest)."""
    query: QueryDict = context["request"].GET.copy()
    for key, value in changes.items():
        if value is None:
            query.pop(key, None)
        else:
            query[key] = str(value)
    encoded = query.urlencode()
    return f"?{encoded}" if encoded else "?"
