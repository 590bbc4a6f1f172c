"""ARENA_DATABASE_URL and the database timeouts: from the environment, refused loudly when unusable."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.settings import parse_database_url, with_timeouts

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


def test_postgresql_connections_get_a_connect_and_a_statement_timeout() -> None:
    entry = with_timeouts(parse_database_url("postgres://arena@db.example/ladder?sslmode=require"), 5, 10)
    assert entry["OPTIONS"] == {"sslmode": "require", "connect_timeout": "5", "options": "-c statement_timeout=10000"}
    assert with_timeouts(parse_database_url("postgres://arena@db/ladder"), 0, 0)["OPTIONS"] == {
        "connect_timeout": "0",  # no bound, as libpq reads it
        "options": "-c statement_timeout=0",
    }


def test_what_the_url_says_of_timeouts_and_startup_options_wins() -> None:
    url = "postgres://arena@db/ladder?connect_timeout=2&options=-c%20statement_timeout%3D500"
    assert with_timeouts(parse_database_url(url), 5, 10)["OPTIONS"] == {
        "connect_timeout": "2",
        "options": "-c statement_timeout=500",
    }
    url = "postgres://arena@db/ladder?options=-c%20search_path%3Dladder"
    assert with_timeouts(parse_database_url(url), 5, 10)["OPTIONS"]["options"] == (
        "-c search_path=ladder -c statement_timeout=10000"
    )


def test_sqlite_is_left_as_it_is() -> None:
    entry = parse_database_url("sqlite:////srv/arena/arena.sqlite3")
    assert with_timeouts(entry, 5, 10) == entry


def settings_of(**environment: str) -> subprocess.CompletedProcess[str]:
    """Load the settings in a fresh interpreter with ``environment``; print the database timeouts as JSON."""
    script = (
        "import json; from django.conf import settings; "
        "print(json.dumps([settings.DATABASES['default']['OPTIONS'], settings.ARENA_WEB_DB_DEADLINE_S]))"
    )
    env = {key: value for key, value in os.environ.items() if not key.startswith("ARENA_")}
    env.update(
        PYTHONPATH=f"{ROOT}{os.pathsep}{ROOT / 'platform'}",
        DJANGO_SETTINGS_MODULE="arena.settings",
        ARENA_DATABASE_URL="postgres://arena@db.example/ladder",
        **environment,
    )
    return subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=False)


@pytest.mark.parametrize(
    ("environment", "statement_ms", "deadline_s"),
    [
        ({}, 300_000, 0),  # Celery's workers and beat, manage.py's commands
        ({"ARENA_PROCESS_ROLE": "web", "ARENA_WEB_STATEMENT_TIMEOUT_S": "4"}, 4_000, 8),  # gunicorn, as compose runs it
    ],
)
def test_each_process_gets_its_roles_timeouts(environment: dict[str, str], statement_ms: int, deadline_s: int) -> None:
    loaded = settings_of(**environment)
    assert loaded.returncode == 0, loaded.stderr
    options, deadline = json.loads(loaded.stdout)
    assert options == {"connect_timeout": "5", "options": f"-c statement_timeout={statement_ms}"}
    assert deadline == deadline_s


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("ARENA_PROCESS_ROLE", "browser", "ARENA_PROCESS_ROLE must be web or worker, not 'browser'"),
        ("ARENA_WEB_STATEMENT_TIMEOUT_S", "-1", "ARENA_WEB_STATEMENT_TIMEOUT_S must be at least 0, not -1"),
        ("ARENA_METRICS_DB_TIMEOUT_S", "0", "ARENA_METRICS_DB_TIMEOUT_S must be at least 1, not 0"),
    ],
)
def test_a_bad_timeout_setting_stops_the_process_naming_it(name: str, value: str, message: str) -> None:
    loaded = settings_of(**{name: value})
    assert loaded.returncode != 0
    assert message in loaded.stderr
