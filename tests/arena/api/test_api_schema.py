"""The OpenAPI schema validates with no warnings, and its docs pages are served without any CDN."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

REPO = Path(__file__).resolve().parents[3]


def test_the_schema_validates_without_warnings(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "spectacular",
            "--validate",
            "--fail-on-warn",
            "--file",
            str(tmp_path / "s.yaml"),
        ],
        cwd=REPO,
        env={"ARENA_NO_BOOTSTRAP": "1", "PATH": "/usr/bin:/bin", "ARENA_VAR_DIR": str(tmp_path / "var")},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    schema = (tmp_path / "s.yaml").read_text()
    for path in ("/api/seasons/{id}/leaderboard/", "/api/versions/", "/api/series/{id}/log/{player}/"):
        assert f"  {path}:" in schema
    assert "scheme: bearer" in schema


@pytest.mark.django_db
def test_the_schema_is_served_as_json() -> None:
    response = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert response.json()["info"]["title"] == "Watch Arena API"


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/"])
def test_the_docs_load_their_scripts_from_this_site(url: str) -> None:
    page = Client().get(url).content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert any("drf_spectacular_sidecar" in source for source in sources), sources
    assert not [source for source in sources if source.startswith(("http:", "https:", "//"))]
