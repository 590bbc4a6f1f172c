"""Django settings, read from the environment with loud failures on bad values.

The embedded default needs nothing running: SQLite in ``var/`` and tasks run
in-process (arena/embedded.py). Production points
``ARENA_DATABASE_URL`` at PostgreSQL (``postgres://user:password@host:5432/arena``).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

import engines

BASE_DIR = Path(__file__).resolve().parent.parent.parent  # the repository root


def envbool(name: str, default: str = "False") -> bool:
    """Return the boolean in environment variable ``name``; fail loudly on anything else."""
    value = os.getenv(name, default)
    if value not in ("True", "False"):
        raise ValueError(f"{name} must be True or False, not {value!r}")
    return value == "True"


def envint(name: str, default: str, minimum: int | None = None) -> int:
    """Return the integer in environment variable ``name``; fail loudly on anything else, or below ``minimum``."""
    value = os.getenv(name, default)
    try:
        number = int(value)
    except ValueError:
        raise ValueError(f"{name} must be an integer, not {value!r}") from None
    if minimum is not None and number < minimum:
        raise ValueError(f"{name} must be at least {minimum}, not {number}")
    return number


DATABASE_URL_SCHEMES = {
    "postgres": "django.db.backends.postgresql",
    "postgresql": "django.db.backends.postgresql",
    "sqlite": "django.db.backends.sqlite3",
}
#: SQLite under concurrent writers (the served site's requests and the embedded ladder's threads):
#: WAL lets readers go on while one writes; every transaction takes the write lock when it
#: begins (a deferred one that reads and then writes fails at once with "database is locked",
#: whatever the timeout), and a writer waits up to 30 s for the lock instead of failing.
SQLITE_OPTIONS = {
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    "transaction_mode": "IMMEDIATE",
    "timeout": 30,
}
DATABASE_URL_EXAMPLE = "postgres://user:password@host:5432/name or sqlite:////absolute/path/arena.sqlite3"


def parse_database_url(url: str, name: str = "ARENA_DATABASE_URL") -> dict[str, Any]:
    """Return the Django DATABASES entry for ``url``; raise ValueError naming ``name`` on anything unusable.

    Query parameters (``?sslmode=require``) become OPTIONS. An error message
    never repeats the password.
    """
    parts = urlsplit(url)
    engine = DATABASE_URL_SCHEMES.get(parts.scheme)
    if engine is None:
        # Only the scheme is shown: a string that is not a URL may hold a password anywhere.
        raise ValueError(
            f"{name}: unsupported scheme {parts.scheme!r} (use {', '.join(sorted(DATABASE_URL_SCHEMES))}); "
            f"write it like {DATABASE_URL_EXAMPLE}"
        )
    shown = url.replace(f":{parts.password}@", ":***@") if parts.password else url
    database = unquote(parts.path[1:]) if parts.path.startswith("/") else ""
    if engine == "django.db.backends.sqlite3":
        if parts.netloc or not database or parts.query or parts.fragment:
            raise ValueError(f"{name}: {shown} is not like sqlite:////absolute/path/arena.sqlite3 (no host, no query)")
        return {"ENGINE": engine, "NAME": database, "OPTIONS": dict(SQLITE_OPTIONS)}
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"{name}: the port in {shown} is not a number from 0 to 65535") from None
    if not database or "/" in database or parts.fragment:
        raise ValueError(
            f"{name}: {shown} does not name one database after the host; write it like {DATABASE_URL_EXAMPLE}"
        )
    try:
        options = dict(parse_qsl(parts.query, keep_blank_values=True, strict_parsing=True)) if parts.query else {}
    except ValueError:
        raise ValueError(f"{name}: the query of {shown} is not key=value pairs joined by '&'") from None
    return {
        "ENGINE": engine,
        "NAME": database,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",  # empty: the local Unix socket
        "PORT": str(port or ""),
        "OPTIONS": options,
    }


def with_timeouts(database: dict[str, Any], connect_timeout_s: int, statement_timeout_s: int) -> dict[str, Any]:
    """Return the DATABASES entry ``database`` with PostgreSQL's connect and statement timeouts in its OPTIONS.

    ``connect_timeout`` bounds, on the client, how long opening a connection
    may take (libpq's parameter; 0: no bound). ``statement_timeout`` (sent as
    ``options=-c statement_timeout=...`` when the connection opens; 0: none)
    makes the server cancel any statement that runs longer, a wait for a lock
    included. What the URL's query already says wins. Other databases are
    returned as they are: SQLite opens a local file and bounds its lock waits
    with its own ``timeout``.
    """
    if database["ENGINE"] != DATABASE_URL_SCHEMES["postgres"]:
        return database
    options = dict(database.get("OPTIONS", {}))
    options.setdefault("connect_timeout", str(connect_timeout_s))
    startup = options.get("options", "")
    if "statement_timeout" not in startup:
        options["options"] = f"{startup} -c statement_timeout={statement_timeout_s * 1000}".strip()
    return {**database, "OPTIONS": options}


DEBUG = envbool("ARENA_DEBUG", "False")
ALLOWED_HOSTS = [h for h in os.getenv("ARENA_ALLOWED_HOSTS", "localhost,127.0.0.1").split(",") if h]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "arena.bots",
    "arena.seasons",
    "arena.series",
    "arena.ratings",
    "arena.results",
    "arena.ops",
    "arena.web",
    "arena.api",
]

MIDDLEWARE = [
    # First, so that it bounds every database use of a request, the session's and the user's included.
    "arena.ops.deadlines.DatabaseDeadlineMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
ROOT_URLCONF = "arena.urls"
WSGI_APPLICATION = "arena.wsgi.application"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "arena.web.context.notices",
            ],
        },
    },
]

VAR_DIR = Path(os.getenv("ARENA_VAR_DIR", str(BASE_DIR / "var")))


def local_secret(path: Path) -> str:
    """Return the secret kept in ``path``, made (random, readable by its owner only) on first use.

    For a platform without ARENA_SECRET_KEY (the embedded default): its sessions and the chance of
    its series must not rest on a key that is public in this repository.
    """
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    value = secrets.token_urlsafe(48)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it meanwhile
        return path.read_text().strip()
    with os.fdopen(fd, "w") as handle:
        handle.write(value + "\n")
    return value


SECRET_KEY = os.getenv("ARENA_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG and os.getenv("ARENA_REQUIRE_SECRET_KEY") == "True":
        raise ValueError("ARENA_SECRET_KEY must be set in production")
    SECRET_KEY = local_secret(VAR_DIR / "secret-key")
#: The server key from which each series' chance secret is derived (workers/chance.py): never sent to a
#: bot, a page, the API or a download. By default derived from SECRET_KEY; set ARENA_CHANCE_KEY (any
#: string) to keep the deals of series not yet played unchanged when SECRET_KEY is rotated.
ARENA_CHANCE_KEY = hmac.new(
    (os.getenv("ARENA_CHANCE_KEY") or SECRET_KEY).encode(), b"watch-arena chance key", hashlib.sha256
).digest()
if os.getenv("ARENA_DATABASE_URL"):
    DATABASES = {"default": parse_database_url(os.environ["ARENA_DATABASE_URL"])}
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)  # the embedded default keeps its database in var/
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(VAR_DIR / "arena.sqlite3"),
            "OPTIONS": dict(SQLITE_OPTIONS),
        }
    }
#: Which timeouts this process's database connections get: "web" for the site under gunicorn
#: (arena/wsgi.py sets it), "worker" for everything else: Celery's platform workers and beat,
#: which record results in batches, and manage.py's commands (migrations, recomputations).
ARENA_PROCESS_ROLE = os.getenv("ARENA_PROCESS_ROLE", "worker")
if ARENA_PROCESS_ROLE not in ("web", "worker"):
    raise ValueError(f"ARENA_PROCESS_ROLE must be web or worker, not {ARENA_PROCESS_ROLE!r}")
#: Opening a database connection gives up after this long (every process).
ARENA_DB_CONNECT_TIMEOUT_S = envint("ARENA_DB_CONNECT_TIMEOUT_S", "5", minimum=0)
#: The server cancels a web request's statement after this long: well below gunicorn's 30 s timeout,
#: so a request waiting on a lock or a stuck query ends with an error page instead of a killed worker.
ARENA_WEB_STATEMENT_TIMEOUT_S = envint("ARENA_WEB_STATEMENT_TIMEOUT_S", "10", minimum=0)
#: Every other process's statements: recording a batch of 500 results, the matchmaker's wait for a
#: season's lock, a migration or a season's recomputation may take far longer than a page.
ARENA_DB_STATEMENT_TIMEOUT_S = envint("ARENA_DB_STATEMENT_TIMEOUT_S", "300", minimum=0)
ARENA_STATEMENT_TIMEOUT_S = (
    ARENA_WEB_STATEMENT_TIMEOUT_S if ARENA_PROCESS_ROLE == "web" else ARENA_DB_STATEMENT_TIMEOUT_S
)
#: A web request still running this long after it came has its database connections cut under it
#: (arena/ops/deadlines.py): what a server that does not answer at all (stopped, or cut off by the
#: network) cannot do for itself by cancelling the statement. Twice the statement timeout, web only.
ARENA_WEB_DB_DEADLINE_S = 2 * ARENA_WEB_STATEMENT_TIMEOUT_S if ARENA_PROCESS_ROLE == "web" else 0
#: /ops/metrics gives up on the database after this long and reports it down with the rest of its figures.
ARENA_METRICS_DB_TIMEOUT_S = envint("ARENA_METRICS_DB_TIMEOUT_S", "3", minimum=1)
# Keep a web process's database connection between requests (opening one is a large share of a
# request: docs/benchmarks.md, "Web load"); checked before reuse, so a restarted server is survived.
for _alias, _database in DATABASES.items():
    DATABASES[_alias] = _database = with_timeouts(_database, ARENA_DB_CONNECT_TIMEOUT_S, ARENA_STATEMENT_TIMEOUT_S)
    _database["CONN_MAX_AGE"] = envint("ARENA_DB_CONN_MAX_AGE", "60")
    _database["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
TIME_ZONE = "UTC"

# Server errors (500) and other request errors go to stderr with their traceback, where the
# container's log and the demo's terminal show them; Django's default sends them only by mail.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "loggers": {
        "django.request": {"handlers": ["stderr"], "level": "ERROR", "propagate": False},
        "arena": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
    },
}

LOGIN_URL = "login"
# Sign-up refuses short, common, all-digit passwords and ones like the user name.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_REDIRECT_URL = "my-bots"
LOGOUT_REDIRECT_URL = "home"

# The cache holds the rate-limit counters (logins, uploads, API throttles): shared
# by every web process when ARENA_CACHE_URL points at Redis, per process otherwise.
if os.getenv("ARENA_CACHE_URL"):
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": os.environ["ARENA_CACHE_URL"]}
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "arena.api.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_RATES": {},
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Watch Arena API",
    "DESCRIPTION": "Games, seasons, leaderboards, bots and their versions, series, games and replays.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # <id:...> (arena/converters.py): an integer of at most 18 digits.
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "maximum": 999_999_999_999_999_999, "minimum": 0}},
}
# Behind a proxy (compose's nginx), the client's address is in a header the proxy sets:
# ARENA_CLIENT_IP_HEADER=HTTP_X_REAL_IP; directly exposed, REMOTE_ADDR (the default).
RATELIMIT_IP_META_KEY = os.getenv("ARENA_CLIENT_IP_HEADER", "REMOTE_ADDR")
REST_FRAMEWORK["NUM_PROXIES"] = envint("ARENA_PROXIES", "0")
# Rate limits of the web forms (django-ratelimit), per client address.
ARENA_LOGIN_RATE = os.getenv("ARENA_LOGIN_RATE", "10/m")
# One upload quota per user for the site's form and the API together (arena/web/ratelimits.py).
ARENA_UPLOAD_RATE = os.getenv("ARENA_UPLOAD_RATE", "20/h")

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
# Each game's replay viewer script, from its own folder (its declaration names it): games/<name>/viewer.js.
STATICFILES_DIRS = [
    (f"games/{name}", str(engines.declaration(name).viewer.script.parent))  # type: ignore[union-attr]
    for name in engines.names()
    if engines.declaration(name).viewer is not None
]

# Content-addressed store of uploaded bot archives (bots/<sha[:2]>/<sha>.<ext>);
# match workers fetch from it and check the sha256.
ARENA_ARTIFACT_DIR = Path(os.getenv("ARENA_ARTIFACT_DIR", str(VAR_DIR / "artifacts")))
# Where match workers fetch archives from (arena/bots/artifacts.py): this site's address as the
# workers reach it (compose: http://web:8000). Each spec then carries a signed URL that expires
# after ARENA_ARTIFACT_URL_TTL_S; empty means file:// paths, for workers that share this host's
# files (the embedded default, where the "workers" are threads of this process).
ARENA_ARTIFACT_BASE_URL = os.getenv("ARENA_ARTIFACT_BASE_URL", "").rstrip("/")
ARENA_ARTIFACT_URL_TTL_S = envint("ARENA_ARTIFACT_URL_TTL_S", str(24 * 3600))
if ARENA_ARTIFACT_BASE_URL:  # the workers' requests must be allowed in under that host name
    _artifact_host = urlsplit(ARENA_ARTIFACT_BASE_URL).hostname
    if not _artifact_host or urlsplit(ARENA_ARTIFACT_BASE_URL).scheme not in ("http", "https"):
        raise ValueError(f"ARENA_ARTIFACT_BASE_URL must be an http(s) URL, not {ARENA_ARTIFACT_BASE_URL!r}")
    if _artifact_host not in ALLOWED_HOSTS and "*" not in ALLOWED_HOSTS:
        ALLOWED_HOSTS.append(_artifact_host)

# Owners' e-mail (arena/bots/notices.py): printed to the console by default; SMTP when
# ARENA_EMAIL_HOST is set (docker-compose.yml passes it through). ARENA_SITE_URL makes the
# links in the mails absolute.
ARENA_SITE_URL = os.getenv("ARENA_SITE_URL", "http://127.0.0.1:8000")
DEFAULT_FROM_EMAIL = os.getenv("ARENA_EMAIL_FROM", "Watch Arena <arena@localhost>")
if os.getenv("ARENA_EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["ARENA_EMAIL_HOST"]
    EMAIL_PORT = envint("ARENA_EMAIL_PORT", "587")
    EMAIL_HOST_USER = os.getenv("ARENA_EMAIL_USER", "")
    EMAIL_HOST_PASSWORD = os.getenv("ARENA_EMAIL_PASSWORD", "")
    EMAIL_USE_TLS = envbool("ARENA_EMAIL_USE_TLS", "True")
    EMAIL_TIMEOUT = 10
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

# Celery (arena/celeryconf.py). No broker: every task runs in-process, which is
# the embedded default; production sets ARENA_BROKER_URL to Redis.
CELERY_BROKER_URL = os.getenv("ARENA_BROKER_URL", "")
CELERY_RESULT_BACKEND = os.getenv("ARENA_RESULT_BACKEND") or None
ARENA_MATCHMAKER_INTERVAL_S = envint("ARENA_MATCHMAKER_INTERVAL_S", "10")
#: Series queued per running season at each beat where the match workers' capacity cannot be known
#: (no broker: the embedded default), or when ARENA_MATCHMAKER_DEPTH_PER_PROCESS is 0.
ARENA_MATCHMAKER_SLOTS = envint("ARENA_MATCHMAKER_SLOTS", "4")
#: With a broker, series kept queued or running per match-worker process in service
#: (arena/matchmaking/pace.py); 0 turns the pace off: the fixed slots above at each beat.
ARENA_MATCHMAKER_DEPTH_PER_PROCESS = envint("ARENA_MATCHMAKER_DEPTH_PER_PROCESS", "2", minimum=0)
#: The bearer token a Prometheus scraper sends for /ops/metrics (empty: staff sessions only).
ARENA_METRICS_TOKEN = os.getenv("ARENA_METRICS_TOKEN", "")
#: A queued series Redis holds nowhere for this long after it was sent is sent again ...
ARENA_LOST_GRACE_S = envint("ARENA_LOST_GRACE_S", "30")
#: ... at most this many times; lost once more, it is failed with the reason.
ARENA_SERIES_MAX_RESENDS = envint("ARENA_SERIES_MAX_RESENDS", "5")
CELERY_BEAT_SCHEDULE = {
    "matchmake": {
        "task": "arena.matchmake",
        "schedule": ARENA_MATCHMAKER_INTERVAL_S,
        "kwargs": {"slots_per_season": ARENA_MATCHMAKER_SLOTS},
    },
    "sweep-overdue-series": {"task": "arena.sweep_overdue_series", "schedule": 60},
    # Series a broker restart, a dead worker or a failed publish lost: found in Redis's queues, its
    # unacked hash and the workers' leases, or sent again (arena/matchmaking/inventory.py).
    "resend-lost-series": {"task": "arena.resend_lost_series", "schedule": envint("ARENA_RESEND_INTERVAL_S", "20")},
    "apply-pending-results": {"task": "arena.apply_pending_results", "schedule": 30},
    # Results the match workers appended to the stream and no drain has taken (its wake-up lost, a
    # platform worker died mid-drain): arena/results/inflow.py.
    "drain-results": {"task": "arena.drain_results", "schedule": envint("ARENA_DRAIN_INTERVAL_S", "5")},
    "revalidate-stale-versions": {"task": "arena.revalidate_stale", "schedule": 300},
    # Done series summed into the bot pages' head-to-head records (arena/series/head_to_head.py); until
    # then a page counts them from their seats, so this only keeps pages fast, never right.
    "fold-pair-records": {"task": "arena.fold_pair_records", "schedule": envint("ARENA_FOLD_INTERVAL_S", "10")},
}
