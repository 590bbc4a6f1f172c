"""The operators' status page (/ops/): what ``manage.py arena_status`` prints, for staff only."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from arena.seasons.status import collect_status, format_duration


def staff_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Send anonymous visitors to log in; refuse (403) a logged-in user who is not staff."""

    @wraps(view)
    @login_required
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_staff:
            raise PermissionDenied("the operators' status page is for staff; ask an administrator for access")
        return view(request, *args, **kwargs)

    return wrapper


@require_safe
@never_cache
@staff_required
def ops(request: HttpRequest) -> HttpResponse:
    """Render the pipeline's status: queues, workers, throughput, stuck and failed series, seasons."""
    status = collect_status()
    oldest = status["oldest_outstanding"]
    queues, workers = status["queues"], status["workers"]
    context = {
        "status": status,
        "queue_message": queues.get("error") or queues.get("note"),
        "queue_rows": [(name, depth) for name, depth in queues.items() if name not in ("error", "note")],
        "worker_message": workers.get("error") or workers.get("note"),
        "oldest_age": format_duration(oldest["age_seconds"]) if oldest else None,
        "validation_wait": format_duration(status["awaiting_validation"]["oldest_seconds"]),
    }
    return render(request, "seasons/ops.html", context)
