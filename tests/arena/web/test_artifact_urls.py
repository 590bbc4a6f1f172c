"""The artifact store over HTTP: signed, expiring URLs for exactly one archive each.

Match workers on other hosts fetch bot archives with these URLs
(docs/architecture.md); nobody else gets an archive through them.
"""

from __future__ import annotations

import urllib.parse
from typing import Any

import pytest

from arena.bots.artifacts import archive_path, archive_url
from arena.matchmaking.scheduling import series_spec
from arena.series.models import Series

pytestmark = pytest.mark.django_db
BASE = "http://platform.example:8000"


def path_of(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    return f"{parts.path}?{parts.query}" if parts.query else parts.path


@pytest.fixture
def version(ladder: dict[str, Any], settings: Any) -> Any:
    settings.ARENA_ARTIFACT_BASE_URL = BASE
    return ladder["versions"]["greedy"]


def test_a_signed_url_fetches_the_stored_archive(version: Any, client: Any) -> None:
    url = archive_url(version.archive_sha256, version.archive_format)
    key = f"bots/{version.archive_sha256[:2]}/{version.archive_sha256}.{version.archive_format}"
    assert url.startswith(f"{BASE}/artifacts/{key}?token=")
    response = client.get(path_of(url))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/octet-stream"
    assert "no-store" in response["Cache-Control"]
    stored = archive_path(version.archive_sha256, version.archive_format).read_bytes()
    assert b"".join(response.streaming_content) == stored


def test_series_specs_carry_signed_urls_when_workers_are_remote(version: Any, ladder: dict[str, Any]) -> None:
    series = Series.objects.filter(season=ladder["season"]).first()
    for seat in series_spec(series)["seats"]:
        assert seat["archive"].startswith(f"{BASE}/artifacts/bots/{seat['sha256'][:2]}/{seat['sha256']}.")
        assert "token=" in seat["archive"]


def test_without_a_base_url_specs_name_the_shared_file(ladder: dict[str, Any], settings: Any) -> None:
    settings.ARENA_ARTIFACT_BASE_URL = ""
    version = ladder["versions"]["greedy"]
    assert archive_url(version.archive_sha256, version.archive_format) == (
        archive_path(version.archive_sha256, version.archive_format).as_uri()
    )


def test_a_tampered_missing_or_borrowed_signature_is_refused(version: Any, ladder: dict[str, Any], client: Any) -> None:
    url = path_of(archive_url(version.archive_sha256, version.archive_format))
    path, token = url.split("?token=")
    for bad in (f"{path}?token={token[:-1]}x", path, f"{path}?token=", f"{path}?token=1:2:3"):
        response = client.get(bad)
        assert response.status_code == 403, bad
        assert response.content == b"this archive link is not signed by this platform\n"
    # A valid token for one archive opens no other.
    other = ladder["versions"]["random"]
    other_path = path_of(archive_url(other.archive_sha256, other.archive_format)).split("?")[0]
    assert client.get(f"{other_path}?token={token}").status_code == 403


def test_an_expired_url_is_refused_with_the_reason(version: Any, client: Any, settings: Any) -> None:
    url = path_of(archive_url(version.archive_sha256, version.archive_format))
    settings.ARENA_ARTIFACT_URL_TTL_S = -1
    response = client.get(url)
    assert response.status_code == 403
    assert b"has expired" in response.content


def test_only_stored_archives_and_safe_methods(version: Any, client: Any, settings: Any) -> None:
    missing = "ab" + "c" * 62
    url = path_of(archive_url(missing, "zip"))
    assert client.get(url).status_code == 404  # signed, but never stored
    good = path_of(archive_url(version.archive_sha256, version.archive_format))
    assert client.post(good).status_code == 405
    assert client.head(good).status_code == 200
    # The path is the content address: anything else is not a route at all.
    sha = version.archive_sha256
    for path in (f"/artifacts/bots/{sha[:2]}/{sha}.exe", f"/artifacts/bots/zz/{sha}.zip", "/artifacts/../settings.py"):
        assert client.get(path).status_code == 404, path
    wrong_prefix = good.replace(f"/bots/{sha[:2]}/", "/bots/00/")
    assert client.get(wrong_prefix).status_code == 404
