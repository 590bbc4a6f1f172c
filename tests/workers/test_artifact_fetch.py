"""A match worker fetches bot archives over HTTP from a real server, and trusts nothing it is sent.

The server is ``http.server`` in a thread: what it answers is scripted per
path, and it counts requests, so the cache can be seen to fetch nothing twice.
"""

from __future__ import annotations

import hashlib
import http.server
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from workers.artifacts import ArtifactError, LocationError, fetch_archive

ARCHIVE = b"\x1f\x8b" + bytes(range(256)) * 40  # any bytes: the worker checks the hash, not the format
SHA = hashlib.sha256(ARCHIVE).hexdigest()


class Server:
    def __init__(self) -> None:
        self.routes: dict[str, Callable[[http.server.BaseHTTPRequestHandler], None]] = {}
        self.hits: list[str] = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                server.hits.append(self.path)
                route = server.routes.get(self.path.split("?", 1)[0])
                if route is None:
                    self.send_error(404, "no such archive")
                else:
                    route(self)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def serve(self, path: str, body: bytes) -> None:
        def send(handler: http.server.BaseHTTPRequestHandler) -> None:
            handler.send_response(200)
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            handler.wfile.write(body)

        self.routes[path] = send


@pytest.fixture
def server() -> Iterator[Server]:
    running = Server()
    running.thread.start()
    yield running
    running.httpd.shutdown()
    running.httpd.server_close()


def test_it_downloads_checks_and_caches_an_archive_by_its_sha256(server: Server, tmp_path: Path) -> None:
    server.serve(f"/artifacts/bots/{SHA[:2]}/{SHA}.tar.gz", ARCHIVE)
    url = f"{server.url}/artifacts/bots/{SHA[:2]}/{SHA}.tar.gz?token=abc:def"
    path = fetch_archive(url, SHA, tmp_path)
    assert path == tmp_path / "archives" / f"{SHA}.tar.gz"
    assert path.read_bytes() == ARCHIVE
    # A later series with the same version (another signature, even) fetches nothing.
    assert fetch_archive(url.replace("abc", "xyz"), SHA, tmp_path) == path
    assert len(server.hits) == 1
    assert [p.name for p in (tmp_path / "archives").iterdir()] == [f"{SHA}.tar.gz"]


def test_an_archive_that_does_not_hash_to_its_sha256_is_refused_and_not_cached(server: Server, tmp_path: Path) -> None:
    server.serve("/evil.zip", ARCHIVE + b"tampered")
    with pytest.raises(ArtifactError, match=f"not the expected {SHA}"):
        fetch_archive(f"{server.url}/evil.zip", SHA, tmp_path)
    assert list((tmp_path / "archives").iterdir()) == []  # no partial file either


def test_an_archive_over_the_size_limit_is_cut_off(server: Server, tmp_path: Path) -> None:
    server.serve("/big.zip", b"x" * 200_000)
    with pytest.raises(ArtifactError, match="larger than the 100000 byte limit"):
        fetch_archive(f"{server.url}/big.zip", SHA, tmp_path, max_bytes=100_000)
    assert list((tmp_path / "archives").iterdir()) == []


def test_a_server_trickling_bytes_cannot_hold_the_worker(server: Server, tmp_path: Path) -> None:
    def trickle(handler: http.server.BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.end_headers()
        for _ in range(100):
            handler.wfile.write(b"x" * 65536)
            handler.wfile.flush()
            time.sleep(0.05)

    server.routes["/slow.zip"] = trickle
    started = time.monotonic()
    with pytest.raises(ArtifactError, match=r"took longer than 0\.3 s"):
        fetch_archive(f"{server.url}/slow.zip", SHA, tmp_path, deadline_s=0.3)
    assert time.monotonic() - started < 3


def test_refusals_say_what_the_server_said_and_never_show_the_signature(server: Server, tmp_path: Path) -> None:
    def expired(handler: http.server.BaseHTTPRequestHandler) -> None:
        body = b"this archive link has expired\n"
        handler.send_response(403)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    server.routes["/old.zip"] = expired
    with pytest.raises(ArtifactError) as refused:
        fetch_archive(f"{server.url}/old.zip?token=secret-signature", SHA, tmp_path)
    assert "HTTP 403: this archive link has expired" in str(refused.value)
    assert "secret-signature" not in str(refused.value)
    with pytest.raises(ArtifactError, match="HTTP 404"):
        fetch_archive(f"{server.url}/missing.zip", SHA, tmp_path)


def test_an_unreachable_store_is_an_error_the_task_retries(tmp_path: Path) -> None:
    with pytest.raises(ArtifactError, match="failed"):
        fetch_archive("http://127.0.0.1:9/archive.zip", SHA, tmp_path)  # discard port: nothing listens


@pytest.mark.parametrize(
    ("location", "sha256", "message"),
    [
        ("ftp://example.com/a.zip", SHA, "unsupported archive location"),
        ("http://127.0.0.1:9/a.exe", SHA, "neither a .tar.gz nor a .zip"),
        ("http://127.0.0.1:9/a.zip", "../../etc/passwd", "64 lower-case hex digits"),
        ("http://127.0.0.1:9/a.zip", SHA.upper(), "64 lower-case hex digits"),
        ("http://127.0.0.1:9/a.zip", None, "64 lower-case hex digits"),
    ],
)
def test_a_location_or_sha256_no_worker_could_use_is_a_spec_error(
    location: str, sha256: object, message: str, tmp_path: Path
) -> None:
    with pytest.raises(LocationError, match=message):
        fetch_archive(location, sha256, tmp_path)  # type: ignore[arg-type]


def test_a_shared_file_is_checked_in_place(tmp_path: Path) -> None:
    stored = tmp_path / "stored.zip"
    stored.write_bytes(ARCHIVE)
    assert fetch_archive(stored.as_uri(), SHA, tmp_path / "cache") == stored
    with pytest.raises(ArtifactError, match="not the expected"):
        fetch_archive(str(stored), "0" * 64, tmp_path / "cache")
    with pytest.raises(ArtifactError, match="cannot read bot archive"):
        fetch_archive(str(tmp_path / "gone.zip"), SHA, tmp_path / "cache")
