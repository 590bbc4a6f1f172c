"""Ids past 64 bits in an address are no page (404), never a server error, on the site and in the API."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db
REPO = Path(__file__).resolve().parents[2]

HUGE = "9" * 19  # past 2^63
HUGER = "1" + "0" * 40


@pytest.mark.parametrize(
    "path",
    [
        f"/seasons/{HUGE}/",
        f"/seasons/{HUGER}/live/",
        f"/bots/{HUGE}/",
        f"/bots/{HUGE}/versions/{HUGE}/validation/",
        f"/bots/1/versions/{HUGE}/forfeits/",
        f"/series/{HUGE}/",
        f"/series/{HUGE}/replay.json",
        f"/api/series/{HUGE}/",
        f"/api/bots/{HUGER}/",
        f"/api/seasons/{HUGE}/leaderboard/",
        f"/api/versions/{HUGE}/",
    ],
)
def test_a_huge_id_is_a_404(path: str) -> None:
    assert Client().get(path).status_code == 404


def test_an_eighteen_digit_id_still_reaches_the_view() -> None:
    response = Client().get(f"/series/{'9' * 18}/")
    assert response.status_code == 404
    assert "Not found" in response.content.decode()


SERVER_ERROR = """
from django.test import Client
from django.urls import path
import arena.urls

def broken(request):
    raise RuntimeError("the view broke")

arena.urls.urlpatterns.insert(0, path("broken/", broken))
client = Client(raise_request_exception=False)
print(client.get("/broken/", HTTP_HOST="127.0.0.1").status_code)
"""


def test_a_server_error_is_logged_to_stderr_with_its_traceback(tmp_path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ARENA_", "DJANGO_"))}
    env.update(ARENA_VAR_DIR=str(tmp_path / "var"), ARENA_NO_BOOTSTRAP="1")
    run = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", SERVER_ERROR],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert run.stdout.strip().endswith("500"), run.stdout + run.stderr
    assert "ERROR django.request: Internal Server Error: /broken/" in run.stderr
    assert "RuntimeError: the view broke" in run.stderr  # with its traceback
