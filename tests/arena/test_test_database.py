"""The platform tests' database: PostgreSQL, and a loud failure when it is missing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_it_runs_on_postgresql() -> None:
    assert connection.vendor == "postgresql"
    if not os.environ.get("ARENA_DATABASE_URL"):
        assert (connection.settings_dict["HOST"], connection.settings_dict["PORT"]) == ("127.0.0.1", "5432")
        assert connection.settings_dict["NAME"].startswith("test_arena")


def test_it_fails_every_database_test_when_postgresql_is_unreachable(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"{__file__}::test_it_runs_on_postgresql"],
        cwd=ROOT,
        env={**os.environ, "ARENA_DATABASE_URL": "postgres://postgres@127.0.0.1:1/arena"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1, result.stdout
    assert result.stdout.rstrip().splitlines()[-1].startswith("1 error in ")  # an error, not a skip
    assert "PostgreSQL is not reachable at 127.0.0.1:1 as postgres" in result.stdout
