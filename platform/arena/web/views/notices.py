"""The signed-in user's notices: versions that failed validation or were disabled, newest first."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from arena.bots.models import Notice
from arena.web.paging import page_of

PER_PAGE = 50


@login_required
def notices(request: HttpRequest) -> HttpResponse:
    """List the user's notices (?page=); the ones shown become read."""
    page, notice = page_of(request, Notice.objects.filter(user=request.user), PER_PAGE)
    unread = [item.pk for item in page.object_list if not item.read]
    response = render(
        request,
        "web/notices.html",
        {"page": page, "unread": set(unread), "notices": [notice] if notice else []},
    )
    Notice.objects.filter(pk__in=unread).update(read=True)
    return response
