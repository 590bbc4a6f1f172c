"""Rate limits of the web forms (django-ratelimit), answered with a 429 page that says when to retry.

django-ratelimit's own decorator raises PermissionDenied (a 403); a limited
visitor should instead learn that they are limited and for how long, so the
counting is django-ratelimit's and the answer is ours.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_ratelimit.core import get_usage

View = Callable[..., HttpResponse]


def too_many_requests(request: HttpRequest, retry_after_s: int, what: str) -> HttpResponse:
    """Return the 429 page: what was limited and in how many seconds to try again (also as Retry-After)."""
    retry_after_s = max(1, retry_after_s)
    response = render(
        request,
        "429.html",
        {"retry_after": retry_after_s, "what": what, "minutes": -(-retry_after_s // 60)},
        status=429,
    )
    response["Retry-After"] = str(retry_after_s)
    return response


def rate_limited(*, group: str, key: str, rate_setting: str, what: str, method: str = "POST") -> Callable[[View], View]:
    """Limit a view to ``settings.<rate_setting>`` requests (like "10/m") per ``key`` ("ip", "user").

    The rate is read on every request, so a test or an operator's override applies at once.
    """

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            usage = get_usage(
                request,
                group=group,
                key=key,
                rate=getattr(settings, rate_setting),
                method=method,
                increment=True,
            )
            if usage is not None and usage["should_limit"]:
                return too_many_requests(request, usage["time_left"], what)
            return view(request, *args, **kwargs)

        return limited

    return decorate


#: The one upload quota of a user, shared by the site's form and the API (ARENA_UPLOAD_RATE).
UPLOADS = {"group": "uploads", "key": "user", "rate_setting": "ARENA_UPLOAD_RATE"}


def upload_usage(request: Any, increment: bool) -> dict[str, Any] | None:
    """Return django-ratelimit's usage of the user's upload quota (counting this request if ``increment``)."""
    return get_usage(
        request,
        group=UPLOADS["group"],
        key=UPLOADS["key"],
        rate=getattr(settings, UPLOADS["rate_setting"]),
        method="POST",
        increment=increment,
    )
