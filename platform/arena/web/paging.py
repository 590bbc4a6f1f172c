"""Pagination of long lists, forgiving of a bad ?page= (it falls back and says so)."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page, Paginator
from django.http import HttpRequest


def page_of(request: HttpRequest, items: Any, per_page: int, param: str = "page") -> tuple[Page, str | None]:
    """Return the requested page of ``items`` and, when ?page= was unusable, a notice saying what is shown instead."""
    paginator = Paginator(items, per_page)
    raw = request.GET.get(param, "1")
    shown = raw if len(raw) <= 20 else raw[:20] + "…"
    try:
        number = int(raw)
    except ValueError:
        return paginator.page(1), f"Page “{shown}” is not a page number; showing page 1."
    if number < 1:
        return paginator.page(1), f"Pages start at 1, not {number}; showing page 1."
    if number > paginator.num_pages:
        last = paginator.num_pages
        return paginator.page(last), f"There is no page {number}: there are {last}; showing page {last}."
    return paginator.page(number), None
