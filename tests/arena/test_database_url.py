"""ARENA_DATABASE_URL: the database from one environment variable, refused loudly when unusable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.settings import parse_database_url

ROOT = Path(__file__).resolve().parents[2]


def test_it_reads_a_postgres_url() -> None:
    assert parse_database_url("postgres://arena:s%40cret@db.example:6543/ladder?sslmode=require") == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "ladder",
        "USER": "arena",
        "PASSWORD": "s@cret",
        "HOST": "db.example",
        "PORT": "6543",
        "OPTIONS": {"sslmode": "require"},
    }


def test_it_reads_a_url_without_password_port_or_host() -> None:
    config = parse_database_url("postgresql:///arena")
    assert (config["HOST"], config["PORT"], config["USER"], config["PASSWORD"]) == ("", "", "", "")
    assert config["NAME"] == "arena"
    assert parse_database_url("postgres://postgres@127.0.0.1:5432/arena")["USER"] == "postgres"


def test_it_reads_a_sqlite_url() -> None:
    assert parse_database_url("sqlite:////srv/arena/arena.sqlite3") == {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": "/srv/arena/arena.sqlite3",
        "OPTIONS": {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 30,
        },
    }


def test_it_refuses_an_unsupported_scheme() -> None:
    with pytest.raises(ValueError, match=r"ARENA_DATABASE_URL: unsupported scheme 'mysql' \(use postgres, postgresql"):
        parse_database_url("mysql://root:pw@localhost/arena")


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("", "unsupported scheme ''"),
        ("not a url at all", "unsupported scheme ''"),
        ("postgres://user:pw@host:port/arena", "the port in postgres://user:\\*\\*\\*@host:port/arena is not a number"),
        ("postgres://user:pw@host:99999/arena", "is not a number from 0 to 65535"),
        ("postgres://host:5432", "does not name one database"),
        ("postgres://host:5432/", "does not name one database"),
        ("postgres://host/arena/extra", "does not name one database"),
        ("postgres://host/arena?sslmode", "is not key=value pairs"),
        ("sqlite://host/arena.sqlite3", "is not like sqlite:////absolute/path"),
    ],
)
def test_it_refuses_a_malformed_url(url: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_database_url(url)


def test_it_never_repeats_the_password() -> None:
    with pytest.raises(ValueError, match="the port in") as caught:
        parse_database_url("postgres://user:hunter2@host:nope/arena")
    assert "hunter2" not in str(caught.value)
    with pytest.raises(ValueError, match="unsupported scheme 'user'") as caught:
        parse_database_url("user:hunter2@host/arena")  # no scheme: the whole string is suspect
    assert "hunter2" not in str(caught.value)


def test_it_stops_manage_py_on_a_bad_url() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={**os.environ, "ARENA_NO_BOOTSTRAP": "1", "ARENA_DATABASE_URL": "mongodb://localhost/arena"},
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert "ARENA_DATABASE_URL: unsupported scheme 'mongodb'" in result.stderr
