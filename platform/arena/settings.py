"""Django settings, read from the environment with loud failures on bad values.

The embedded default needs nothing running: SQLite in ``var/`` and, once the
task pipeline lands, tasks run in-process. Production sets DATABASE_URL-style
variables (see docs/operations.md).
"""

from __future__ import annotations

import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent.parent  # the repository root


def envbool(name: str, default: str = "False") -> bool:
    """Return the boolean in environment variable ``name``; fail loudly on anything else."""
    value = os.getenv(name, default)
    if value not in ("True", "False"):
        raise ValueError(f"{name} must be True or False, not {value!r}")
    return value == "True"


def envint(name: str, default: str) -> int:
    """Return the integer in environment variable ``name``; fail loudly on anything else."""
    value = os.getenv(name, default)
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"{name} must be an integer, not {value!r}") from None


DEBUG = envbool("ARENA_DEBUG", "False")
SECRET_KEY = os.getenv("ARENA_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG and os.getenv("ARENA_REQUIRE_SECRET_KEY") == "True":
        raise ValueError("ARENA_SECRET_KEY must be set in production")
    # The embedded demo has no secret to protect; production sets the variable.
    SECRET_KEY = "insecure-embedded-default-key-set-ARENA_SECRET_KEY-in-production"
ALLOWED_HOSTS = [h for h in os.getenv("ARENA_ALLOWED_HOSTS", "localhost,127.0.0.1").split(",") if h]

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "arena.games",
]

MIDDLEWARE: list[str] = []
ROOT_URLCONF = "arena.urls"
WSGI_APPLICATION = "arena.wsgi.application"

VAR_DIR = Path(os.getenv("ARENA_VAR_DIR", str(BASE_DIR / "var")))
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(VAR_DIR / "arena.sqlite3"),
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
TIME_ZONE = "UTC"
