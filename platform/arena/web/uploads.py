"""Receiving a bot archive: a size cap while the upload streams in, and a private copy under its own name."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.http import HttpRequest
from django.utils.text import get_valid_filename

from workers.botpkg import MAX_ARCHIVE_BYTES

#: Room for the form's other fields and the multipart framing around the archive.
FORM_OVERHEAD_BYTES = 64 * 1024


def megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB"


def too_big_message(size: int | None, limit: int) -> str:
    """Return what to tell an uploader whose archive is over the limit."""
    what = f"is {megabytes(size)}" if size else "is too big"
    return (
        f"The archive {what}, over the {megabytes(limit)} limit; leave out data the bot does not need "
        "(build output, caches, virtualenvs) and upload it again."
    )


class CappedUploadHandler(FileUploadHandler):
    """Stop reading an upload once it passes ``limit`` bytes, and say so on ``request.upload_too_big``.

    Without it Django would write a client's whole body to disk before the
    form could refuse it. The rest of the body is discarded, not stored, so
    the form can still answer with the error.
    """

    def __init__(self, request: HttpRequest, limit: int = MAX_ARCHIVE_BYTES) -> None:
        super().__init__(request)
        self.limit = limit
        self.received = 0
        request.upload_too_big = None  # type: ignore[attr-defined]

    def handle_raw_input(
        self, input_data: Any, META: Any, content_length: int, boundary: Any, encoding: Any = None
    ) -> None:
        if content_length and content_length > self.limit + FORM_OVERHEAD_BYTES:
            self.request.upload_too_big = content_length  # type: ignore[attr-defined]

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.received = 0
        if self.request.upload_too_big:  # type: ignore[attr-defined]
            raise StopUpload(connection_reset=False)

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        self.received += len(raw_data)
        if self.received > self.limit:
            self.request.upload_too_big = self.received  # type: ignore[attr-defined]
            raise StopUpload(connection_reset=False)
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None


@contextmanager
def saved_upload(upload: UploadedFile) -> Iterator[Path]:
    """Write ``upload`` to a private temporary folder under its own (cleaned) name and yield the path.

    The name matters: error messages about the archive quote it, and the
    user should recognise their file, not a temporary name. The folder is
    removed afterwards whatever happens.
    """
    name = get_valid_filename(Path(upload.name or "").name) or "upload"
    if len(name) > 100:
        name = name[-100:]
    with tempfile.TemporaryDirectory(prefix="arena-upload-") as folder:
        path = Path(folder) / name
        with path.open("wb") as out:
            for chunk in upload.chunks():
                out.write(chunk)
        yield path
