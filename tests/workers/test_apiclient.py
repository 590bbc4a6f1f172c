"""workers/apiclient.py without the platform: packing, configuration, and answers from a stub server."""

from __future__ import annotations

import argparse
import io
import json
import tarfile
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

from workers import apiclient
from workers.apiclient import ClientError, archive_for_upload, pack_directory, read_token, server_url
from workers.cli import main

KEY = "wa_secret-key-for-tests"


@pytest.fixture
def bot_dir(tmp_path: Path) -> Path:
    bot = tmp_path / "mybot"
    (bot / "lib").mkdir(parents=True)
    (bot / "bot.toml").write_text('name = "mybot"\nentry = "main.py"\n')
    (bot / "main.py").write_text("print('hi')\n")
    (bot / "lib" / "util.py").write_text("X = 1\n")
    (bot / "__pycache__").mkdir()
    (bot / "__pycache__" / "main.cpython-311.pyc").write_bytes(b"junk")
    return bot


def test_it_packs_a_directory_the_same_way_every_time(bot_dir: Path) -> None:
    packed = pack_directory(bot_dir)
    assert pack_directory(bot_dir) == packed
    with tarfile.open(fileobj=io.BytesIO(packed)) as bundle:
        assert bundle.getnames() == ["bot.toml", "lib", "lib/util.py", "main.py"]
        assert bundle.extractfile("main.py").read() == b"print('hi')\n"


def test_it_uploads_an_archive_file_as_it_is(tmp_path: Path) -> None:
    archive = tmp_path / "bot.zip"
    archive.write_bytes(b"PK\x03\x04 whatever")
    assert archive_for_upload(archive) == ("bot.zip", b"PK\x03\x04 whatever")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda tmp: tmp / "missing", "does not exist"),
        (lambda tmp: tmp, "has no bot.toml"),
    ],
)
def test_it_refuses_what_is_not_a_bot(tmp_path: Path, make: Callable[[Path], Path], message: str) -> None:
    with pytest.raises(ClientError, match=message) as caught:
        archive_for_upload(make(tmp_path))
    assert caught.value.exit_code == 2


def test_it_refuses_an_archive_over_the_limit_before_sending(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(apiclient, "MAX_ARCHIVE_BYTES", 10)
    archive = tmp_path / "big.tar.gz"
    archive.write_bytes(b"\x1f\x8b" + b"0" * 20)
    with pytest.raises(ClientError, match="at most 0 MB"):
        archive_for_upload(archive)


def test_the_server_comes_from_the_flag_then_the_environment() -> None:
    assert server_url(None, {}) == "http://127.0.0.1:8000"
    assert server_url(None, {"ARENA_SERVER": "https://arena.example/"}) == "https://arena.example"
    assert server_url("http://other:9000", {"ARENA_SERVER": "https://arena.example"}) == "http://other:9000"
    for bad in ("ftp://x", "arena.example", "file:///etc/passwd"):
        with pytest.raises(ClientError, match="not an http"):
            server_url(bad, {})


def test_the_token_comes_from_the_environment_then_the_file(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    assert read_token("http://s", {"ARENA_TOKEN": " wa_env \n"}, token_file) == "wa_env"
    token_file.write_text("wa_file\n")
    assert read_token("http://s", {}, token_file) == "wa_file"
    token_file.write_text("")
    with pytest.raises(ClientError, match=r"no API token: create one at http://s/account/tokens/"):
        read_token("http://s", {}, token_file)


class StubArena(BaseHTTPRequestHandler):
    """Answers from a script: ``routes[(method, path)]`` is a list of (status, headers, body) used in turn."""

    routes: ClassVar[dict[tuple[str, str], list[tuple[int, dict[str, str], Any]]]] = {}
    seen: ClassVar[list[tuple[str, str, dict[str, str], bytes]]] = []

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        self.seen.append((self.command, self.path, dict(self.headers), body))
        answers = self.routes.get((self.command, self.path.split("?")[0]))
        status, headers, payload = answers.pop(0) if answers else (404, {}, {"detail": "Not found."})
        data = json.dumps(payload).encode() if not isinstance(payload, bytes) else payload
        self.send_response(status)
        for name, value in {"Content-Type": "application/json", **headers}.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = _answer

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[type[StubArena]]:
    StubArena.routes, StubArena.seen = {}, []
    server = ThreadingHTTPServer(("127.0.0.1", 0), StubArena)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    monkeypatch.setenv("ARENA_SERVER", f"http://127.0.0.1:{server.server_address[1]}")
    monkeypatch.setenv("ARENA_TOKEN", KEY)
    monkeypatch.setattr(apiclient.time, "sleep", lambda seconds: None)
    yield StubArena
    server.shutdown()
    server.server_close()


def version(status: str, reason: str = "") -> dict[str, Any]:
    return {
        "id": 7,
        "bot_name": "mybot",
        "number": 3,
        "status": status,
        "status_reason": reason,
        "archive_sha256": "ab" * 32,
    }


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert KEY not in out + err
    return code, out, err


def test_upload_sends_the_packed_bot_with_the_token(stub: Any, bot_dir: Path, capsys: Any) -> None:
    stub.routes[("POST", "/api/versions/")] = [(201, {}, version("validating"))]
    code, out, _ = run(capsys, "upload", str(bot_dir), "--bot", "mybot")
    assert code == 0
    assert "Uploaded mybot version 3 (id 7" in out
    assert ": validating" in out
    method, path, headers, body = stub.seen[0]
    assert (method, path) == ("POST", "/api/versions/")
    assert headers["Authorization"] == f"Bearer {KEY}"
    assert headers["Content-Type"].startswith("multipart/form-data; boundary=")
    assert b'name="bot"\r\n\r\nmybot\r\n' in body
    assert b'filename="mybot.tar.gz"' in body
    assert pack_directory(bot_dir) in body


def test_wait_polls_until_validation_is_decided(stub: Any, bot_dir: Path, capsys: Any) -> None:
    stub.routes[("POST", "/api/versions/")] = [(201, {}, version("validating"))]
    stub.routes[("GET", "/api/versions/7/")] = [
        (200, {}, version("validating")),
        (200, {}, version("failed_validation", "validation series: game 1: crash: the bot exited with code 3")),
    ]
    code, out, _ = run(capsys, "upload", str(bot_dir), "--bot", "mybot", "--wait")
    assert code == 1
    assert (
        out.splitlines()[-1]
        == "mybot v3: failed validation: validation series: game 1: crash: the bot exited with code 3"
    )
    assert [seen[:2] for seen in stub.seen[1:]] == [("GET", "/api/versions/7/")] * 2


def test_wait_gives_up_at_the_timeout(stub: Any, bot_dir: Path, capsys: Any) -> None:
    stub.routes[("POST", "/api/versions/")] = [(201, {}, version("validating"))]
    stub.routes[("GET", "/api/versions/7/")] = [(200, {}, version("validating"))] * 50
    code, out, _ = run(capsys, "upload", str(bot_dir), "--bot", "mybot", "--wait", "--timeout", "0")
    assert code == 1
    assert "Still validating after 0 s" in out


@pytest.mark.parametrize(
    ("status", "headers", "body", "code", "message"),
    [
        (
            400,
            {},
            {"archive": ["bot.toml: entry 'x.py' does not exist"]},
            2,
            "the server refused it: archive: bot.toml",
        ),
        (401, {}, {"detail": "nope"}, 1, "your token was refused: create one at http://127.0.0.1:"),
        (429, {"Retry-After": "1234"}, {"detail": "Request was throttled."}, 1, "try again in 1234 seconds"),
        (500, {"Content-Type": "text/html"}, b"<h1>Server Error</h1>", 1, "the server failed (HTTP 500)"),
        (200, {"Content-Type": "text/html"}, b"<html>not an arena</html>", 1, "did not answer with JSON"),
    ],
)
def test_server_errors_are_shown_readably(
    stub: Any, bot_dir: Path, capsys: Any, status: int, headers: dict, body: Any, code: int, message: str
) -> None:
    stub.routes[("POST", "/api/versions/")] = [(status, headers, body)]
    exit_code, _, err = run(capsys, "upload", str(bot_dir), "--bot", "mybot")
    assert exit_code == code
    assert message in err


def test_an_unreachable_server_is_named(monkeypatch: pytest.MonkeyPatch, bot_dir: Path, capsys: Any) -> None:
    monkeypatch.setenv("ARENA_TOKEN", KEY)
    code, _, err = run(capsys, "status", "--server", "http://127.0.0.1:9")
    assert code == 1
    assert "cannot reach the arena at http://127.0.0.1:9 (" in err
    assert "Connection refused" in err


def test_status_follows_every_page(stub: Any, capsys: Any) -> None:
    bots = [{"id": i, "name": f"bot{i}", "owner": "me"} for i in range(3)]
    stub.routes[("GET", "/api/me/")] = [(200, {}, {"id": 1, "username": "me", "is_staff": False})]
    stub.routes[("GET", "/api/bots/")] = [
        (200, {}, {"count": 3, "results": bots[:2]}),
        (200, {}, {"count": 3, "results": bots[2:]}),
    ]
    for bot in bots:
        versions = [{**version("active"), "number": 1, "uploaded_at": "2026-01-02T03:04:05Z", "ratings": []}]
        stub.routes[("GET", f"/api/bots/{bot['id']}/versions/")] = [(200, {}, {"count": 1, "results": versions})]
    code, out, _ = run(capsys, "status")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()[2:]] == ["bot0", "bot1", "bot2"]
    assert "2026-01-02 03:04" in out


def test_the_subcommands_are_registered() -> None:
    parser = argparse.ArgumentParser(prog="arena")
    apiclient.add_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["upload", "dir", "--bot", "b", "--wait"])
    assert (args.path, args.bot, args.wait, args.api_command) == (Path("dir"), "b", True, apiclient.command_upload)
