"""The content-addressed store of bot archives, under ``settings.ARENA_ARTIFACT_DIR``.

An archive is stored once, as ``bots/<sha[:2]>/<sha>.<format>``, whoever
uploads it and however often; the name is the sha256 of the file, so a match
worker that fetches it can check what it got. A directory is packed into a
deterministic ``.tar.gz`` first (sorted names, no timestamps or owners), so
the same files give the same archive.

Match workers on other hosts fetch archives over HTTP: :func:`archive_url`
signs a URL for one stored file that expires after
``ARENA_ARTIFACT_URL_TTL_S``, served by :mod:`arena.bots.views`. The signature
only grants reading that one file for a while; the worker still checks the
sha256 of what it receives (workers/artifacts.py).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from django.conf import settings
from django.core import signing

from workers import botpkg
from workers.artifacts import replacing
from workers.botpkg import BotPackageError, file_sha256

ZIP = "zip"
TAR_GZ = "tar.gz"
ARCHIVE_FORMATS = (ZIP, TAR_GZ)
CHUNK = 64 * 1024


def archive_key(sha256: str, archive_format: str) -> str:
    """Return the path of an archive inside the artifact store."""
    return f"bots/{sha256[:2]}/{sha256}.{archive_format}"


def archive_path(sha256: str, archive_format: str) -> Path:
    """Return the path of an archive on this host."""
    return Path(settings.ARENA_ARTIFACT_DIR) / archive_key(sha256, archive_format)


URL_SALT = "arena.artifacts"


def archive_url(sha256: str, archive_format: str) -> str:
    """Return where a match worker fetches an archive: a signed, expiring URL, or a file:// URL on this host.

    The URL is ``<ARENA_ARTIFACT_BASE_URL>/artifacts/<key>?token=<time>:<signature>``;
    with no base URL configured (the embedded default) it is the stored file's own path.
    """
    if not settings.ARENA_ARTIFACT_BASE_URL:
        return archive_path(sha256, archive_format).as_uri()
    key = archive_key(sha256, archive_format)
    token = signing.TimestampSigner(salt=URL_SALT).sign(key)[len(key) + 1 :]
    return f"{settings.ARENA_ARTIFACT_BASE_URL}/artifacts/{key}?token={token}"


def check_token(key: str, token: str) -> None:
    """Raise :class:`django.core.signing.BadSignature` unless ``token`` signs ``key`` and has not expired."""
    signing.TimestampSigner(salt=URL_SALT).unsign(f"{key}:{token}", max_age=settings.ARENA_ARTIFACT_URL_TTL_S)


def store_archive(source: Path, sha256: str, archive_format: str) -> Path:
    """Copy ``source`` into the store under its digest, unless it is there already; return the stored path.

    The copy is written beside its final name and renamed into place, so a
    reader never sees half a file; a stored file whose content does not match
    its name (a damaged disk) is replaced.
    """
    target = archive_path(sha256, archive_format)
    if target.is_file() and file_sha256(target) == sha256:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with replacing(target) as (out, incoming), source.open("rb") as data:
        shutil.copyfileobj(data, out, CHUNK)
        out.flush()
        os.fsync(out.fileno())
        os.chmod(incoming, 0o644)
        if file_sha256(incoming) != sha256:
            raise BotPackageError(f"{source.name} changed while it was being stored; submit it again")
    return target


def pack_directory(directory: Path, destination: Path) -> Path:
    """Write a deterministic ``.tar.gz`` of ``directory``'s contents (bot.toml at its top) to ``destination``."""
    with destination.open("wb") as out:
        botpkg.pack_directory(directory, out)
    return destination
