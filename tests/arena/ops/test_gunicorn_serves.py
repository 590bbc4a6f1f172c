"""gunicorn, as the compose file's web service runs it, serves the site from the test database."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.django_db


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_gunicorn_serves_the_admin_login_page(tmp_path: Path) -> None:
    db = connection.settings_dict
    port = free_port()
    environment = {
        **os.environ,
        "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'platform'}",  # as the Dockerfile sets it
        "ARENA_NO_BOOTSTRAP": "1",
        "ARENA_DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "ARENA_SECRET_KEY": "gunicorn-test-key",
        "ARENA_REQUIRE_SECRET_KEY": "True",
        "ARENA_VAR_DIR": str(tmp_path),
    }
    command = [sys.executable, "-m", "gunicorn", "arena.wsgi:application", "--bind", f"127.0.0.1:{port}"]
    server = subprocess.Popen(
        [*command, "--workers", "2", "--control-socket", str(tmp_path / "gunicorn.ctl")],
        cwd=tmp_path,  # nothing from the checkout on the path but what PYTHONPATH gives
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            assert server.poll() is None, server.communicate()[0].decode()[-2000:]
            try:
                status, page = fetch(f"http://127.0.0.1:{port}/admin/login/")
                break
            except (ConnectionError, urllib.error.URLError):
                assert time.monotonic() < deadline, "gunicorn did not answer within 30 s"
                time.sleep(0.2)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    assert status == 200
    assert 'name="username"' in page
    assert "/static/admin/css/" in page  # the proxy serves these from the collected files
