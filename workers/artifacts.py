"""Bot archives for a match worker: fetched by URL, checked by sha256, cached by sha256.

A series spec names each archive by its content (``sha256``) and by where to
get it (``archive``):

- an ``http(s)://`` URL, signed by the platform and expiring
  (arena/bots/artifacts.py): the worker downloads it with a size limit and a
  timeout, checks the sha256 while it writes, and keeps it in its cache under
  that sha256, so another series with the same version fetches nothing;
- a ``file://`` URL or a path, for a worker that shares the platform's files
  (the embedded default runs its "workers" as threads of the platform).

Nothing the URL's server says is trusted: the name in the cache comes from
the spec's sha256 and a format the worker recognises, and a file whose content
does not hash to that sha256 is never used. The worker holds no credentials;
the signature in the URL is all the platform asks for.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from workers.botpkg import MAX_ARCHIVE_BYTES, file_sha256

SHA256 = re.compile(r"[0-9a-f]{64}")
FORMATS = (".tar.gz", ".zip")
CHUNK = 64 * 1024
CONNECT_TIMEOUT_S = 10.0  # per socket operation: connecting, then each read
DOWNLOAD_DEADLINE_S = 120.0  # the whole download: a server trickling bytes cannot hold a worker


class ArtifactError(RuntimeError):
    """An archive could not be fetched or is not what the spec says (the task retries)."""


class LocationError(ValueError):
    """An archive location this worker cannot use at all (the spec is wrong; not retried)."""


def local_path(location: str) -> Path | None:
    """Return the path of a ``file://`` URL or plain path, or None for a network URL."""
    parsed = urllib.parse.urlparse(location)
    if parsed.scheme in ("", "file"):
        return Path(urllib.parse.unquote(parsed.path))
    if parsed.scheme in ("http", "https"):
        return None
    raise LocationError(f"unsupported archive location {location!r}: use an http(s) URL, a file:// URL or a path")


def archive_suffix(location: str) -> str:
    """Return the archive format of ``location`` from its path (``.tar.gz`` or ``.zip``)."""
    path = urllib.parse.urlparse(location).path
    for suffix in FORMATS:
        if path.endswith(suffix):
            return suffix
    raise LocationError(f"archive location {location!r} names neither a .tar.gz nor a .zip file")


def fetch_archive(
    location: str,
    sha256: str,
    cache_dir: Path,
    *,
    max_bytes: int = MAX_ARCHIVE_BYTES,
    deadline_s: float = DOWNLOAD_DEADLINE_S,
) -> Path:
    """Return a local file holding the archive at ``location``, whose content must hash to ``sha256``.

    Raises :class:`ArtifactError` when it cannot be read or fetched or does not
    match, :class:`LocationError` for a location or sha256 no worker could use.
    """
    if not isinstance(sha256, str) or not SHA256.fullmatch(sha256):
        raise LocationError(f"a spec's archive sha256 must be 64 lower-case hex digits, not {sha256!r}")
    path = local_path(location)
    if path is not None:
        try:
            digest = file_sha256(path)
        except OSError as exc:
            raise ArtifactError(f"cannot read bot archive {location}: {exc.strerror or exc}") from None
        if digest != sha256:
            raise ArtifactError(f"bot archive {location} has sha256 {digest}, not the expected {sha256}")
        return path
    cached = cache_dir / "archives" / f"{sha256}{archive_suffix(location)}"
    if cached.is_file():
        return cached
    cached.parent.mkdir(parents=True, exist_ok=True)
    _download(location, sha256, cached, max_bytes, deadline_s)
    return cached


@contextlib.contextmanager
def replacing(target: Path) -> Iterator[tuple[IO[bytes], Path]]:
    """Write a file beside ``target`` and rename it into place when the block ends; on any error remove it.

    A reader never sees half a file. Yields the open file and its temporary path
    (to check it before it replaces ``target``).
    """
    handle, incoming = tempfile.mkstemp(prefix=".incoming-", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            yield out, Path(incoming)
        os.replace(incoming, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(incoming)
        raise


def _download(url: str, sha256: str, target: Path, max_bytes: int, deadline_s: float) -> None:
    shown = url.split("?", 1)[0]  # never log the signature
    digest = hashlib.sha256()
    size = 0
    deadline = time.monotonic() + deadline_s
    request = urllib.request.Request(url, headers={"User-Agent": "watch-arena-worker"})
    with replacing(target) as (out, _incoming), _open(request, shown) as response:
        while chunk := response.read(CHUNK):
            size += len(chunk)
            if size > max_bytes:
                raise ArtifactError(f"bot archive {shown} is larger than the {max_bytes} byte limit")
            if time.monotonic() > deadline:
                raise ArtifactError(f"fetching bot archive {shown} took longer than {deadline_s:g} s")
            digest.update(chunk)
            out.write(chunk)
        if digest.hexdigest() != sha256:
            raise ArtifactError(f"bot archive {shown} has sha256 {digest.hexdigest()}, not the expected {sha256}")


def _open(request: urllib.request.Request, shown: str) -> Any:
    try:
        return urllib.request.urlopen(request, timeout=CONNECT_TIMEOUT_S)  # http(s) only: local_path() refused the rest
    except urllib.error.HTTPError as exc:
        reason = exc.read(300).decode("utf-8", "replace").strip() or exc.reason
        raise ArtifactError(f"fetching bot archive {shown} failed: HTTP {exc.code}: {reason}") from None
    except (urllib.error.URLError, OSError) as exc:
        why = getattr(exc, "reason", None) or exc
        raise ArtifactError(f"fetching bot archive {shown} failed: {why}") from None
