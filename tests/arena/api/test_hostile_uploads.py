"""Hostile archives uploaded through the API: each a 400 with the reason, nothing stored, never a 500."""

from __future__ import annotations

import io
import tarfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.arena.api.test_api_upload import GOOD, MANIFEST, assert_nothing_stored, tar_gz, upload, zip_of

pytestmark = pytest.mark.django_db


def tar_with_mode(mode: int) -> bytes:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w:gz") as bundle:
        for name, data in GOOD.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = mode if name == "main.py" else 0o644
            bundle.addfile(info, io.BytesIO(data))
    return raw.getvalue()


def huge_pax_header() -> bytes:
    header = tarfile.TarInfo("pax")
    header.type = tarfile.XHDTYPE
    header.size = 100 * 1024 * 1024
    raw = io.BytesIO()
    import gzip

    with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9) as out:
        out.write(header.tobuf(format=tarfile.USTAR_FORMAT))
        zeros = bytes(1024 * 1024)
        for _ in range(100):
            out.write(zeros)
    return raw.getvalue()


CASES = {
    "500 nested folders": (lambda: zip_of({**GOOD, "d/" * 500 + "x": b"x"}), "nested more than 32"),
    "a 300-byte name": (lambda: tar_gz({**GOOD, "n" * 300: b"x"}), "longer than 255 bytes"),
    "bot.toml 20,000 deep": (
        lambda: tar_gz({"bot.toml": MANIFEST + b"x = " + b"[" * 20000 + b"]" * 20000 + b"\n", "main.py": b""}),
        "too deeply",
    ),
    "a setuid bit": (lambda: tar_with_mode(0o4755), "setuid, setgid or sticky"),
    "a 100 MB pax header": (huge_pax_header, "tar header extension"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_hostile_upload_is_a_400_with_the_reason_and_nothing_stored(
    case: str, owner: Any, client_for: Callable, artifact_dir: Path
) -> None:
    make, reason = CASES[case]
    response = upload(client_for(owner), make())
    assert response.status_code == 400, response.content[:500]
    assert reason in response.content.decode()
    assert "/tmp" not in response.content.decode()  # no server path in the message
    assert_nothing_stored(artifact_dir)
