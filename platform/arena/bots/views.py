"""The artifact store over HTTP: match workers on any host fetch bot archives by signed URL.

Only a URL signed by :func:`arena.bots.artifacts.archive_url` within its
lifetime gets the file; anything else is a 403 saying why, an unknown archive
a 404. The path is the archive's content address, so what is served is what
the worker checks.
"""

from __future__ import annotations

from django.core import signing
from django.http import FileResponse, HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from arena.bots.artifacts import archive_key, archive_path, check_token


@require_safe
def archive(request: HttpRequest, prefix: str, sha256: str, archive_format: str) -> HttpResponse:
    """Serve one stored archive to the holder of a valid signed URL."""
    if prefix != sha256[:2]:
        return _refuse(404, "no such archive")
    key = archive_key(sha256, archive_format)
    token = request.GET.get("token", "")
    try:
        check_token(key, token)
    except signing.SignatureExpired:
        return _refuse(403, "this archive link has expired; the platform signs a new one when it sends a series again")
    except signing.BadSignature:
        return _refuse(403, "this archive link is not signed by this platform")
    path = archive_path(sha256, archive_format)
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        return _refuse(404, "no such archive")
    response = FileResponse(handle, content_type="application/octet-stream")
    response["Cache-Control"] = "private, max-age=0, no-store"
    return response


def _refuse(status: int, message: str) -> HttpResponse:
    return HttpResponse(message + "\n", status=status, content_type="text/plain; charset=utf-8")
