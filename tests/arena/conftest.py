"""The platform's tests run on PostgreSQL, as production does, and fail when it is not there.

With ARENA_DATABASE_URL unset (the default SQLite of a development checkout),
the test database is PostgreSQL at 127.0.0.1:5432 as user postgres: pytest-django
creates ``test_arena_<pid>`` (``test_arena_<pid>_gw<n>`` on a pytest-xdist worker)
and drops it afterwards. Set ARENA_DATABASE_URL to run
against another server (its database name gets the ``test_`` prefix). SQLite
would hide what matters here: row locks, check constraints and generated
columns behave differently there.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

POSTGRES = {
    "ENGINE": "django.db.backends.postgresql",
    "NAME": "arena",
    "USER": "postgres",
    "PASSWORD": "",
    "HOST": "127.0.0.1",
    "PORT": "5432",
    "OPTIONS": {},
}


def use_postgresql() -> None:
    """Point the default database at PostgreSQL unless ARENA_DATABASE_URL chose one.

    pytest-django sets Django up before any conftest is read, and defining the
    models already made the SQLite connection object (not a connection), so
    the settings are changed in place and that object is dropped; the next use
    builds a PostgreSQL one. Done when this file is imported, during
    collection, so every database test of the session gets the same database.
    """
    from django.conf import settings
    from django.db import connections

    from arena.settings import with_timeouts

    if os.environ.get("ARENA_DATABASE_URL"):
        return
    # With the connect and statement timeouts production's connections get (arena/settings.py).
    postgres = with_timeouts(POSTGRES, settings.ARENA_DB_CONNECT_TIMEOUT_S, settings.ARENA_STATEMENT_TIMEOUT_S)
    settings.DATABASES["default"].update(postgres)  # in place: the connection handler holds this very dict
    # One test database per run, so two runs on one machine (a developer's and
    # a CI clone's) never drop each other's database mid-run.
    settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = f"test_arena_{os.getpid()}"
    del connections["default"]


use_postgresql()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> None:
    """Fail every database test at once, saying why, when the database is not a reachable PostgreSQL."""
    from django.conf import settings
    from django.db import connections

    if connections["default"].vendor != "postgresql":
        pytest.fail(
            f"the platform tests run on PostgreSQL, but the database is {connections['default'].vendor}: "
            "unset ARENA_DATABASE_URL or point it at PostgreSQL (postgres://user@host:5432/name)",
            pytrace=False,
        )
    default = settings.DATABASES["default"]
    where = f"{default['HOST'] or 'the local socket'}:{default['PORT'] or 5432} as {default['USER'] or 'you'}"
    try:
        psycopg.connect(
            host=default["HOST"] or None,
            port=default["PORT"] or None,
            user=default["USER"] or None,
            password=default["PASSWORD"] or None,
            dbname="postgres",
            connect_timeout=5,
        ).close()
    except psycopg.Error as exc:
        problem = str(exc).strip()
    else:
        return
    pytest.fail(
        f"PostgreSQL is not reachable at {where}: {problem}\n"
        "The platform tests need it: start it with `bash .ci/setup --services` (`manage.py test` does that), "
        "or point ARENA_DATABASE_URL at a server you can create databases on.",
        pytrace=False,
    )


@pytest.fixture(autouse=True)
def fast_password_hashing() -> Iterator[None]:
    """Hash passwords with MD5 in the platform's tests: the production hasher takes half a second a password.

    Every user made with a password, every login and every sign-up hashes one; what the tests
    check of passwords (a login works, a wrong one does not) holds with any hasher. The production
    hashers stay listed after it, so a password hashed outside the test (a module's fixture, a
    server the test started as a process) still checks. Through ``override_settings``, not the
    ``settings`` fixture, whose name some tests use for a parameter of their own.
    """
    from django.conf import settings
    from django.test import override_settings

    with override_settings(
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher", *settings.PASSWORD_HASHERS]
    ):
        yield


@pytest.fixture
def artifact_dir(settings: Any, tmp_path: Path) -> Path:
    """A fresh, empty artifact store for the test."""
    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    return settings.ARENA_ARTIFACT_DIR


@pytest.fixture
def user(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("alice")


@pytest.fixture
def make_version(user: Any) -> Callable[..., Any]:
    """Return a factory of stored bot versions, without the artifact store: ``make_version("bot", number=1)``."""
    from arena.bots.models import Bot, BotVersion

    def make(bot_name: str = "alpha", *, number: int | None = None, owner: Any = None, **fields: Any) -> Any:
        bot, _ = Bot.objects.get_or_create(owner=owner or user, name=bot_name)
        previous = bot.versions.order_by("-number").first()
        values = {
            "number": number if number is not None else (previous.number + 1 if previous else 1),
            "archive_sha256": f"{bot.pk:08x}{len(bot_name):08x}".ljust(64, "0"),
            "archive_size": 100,
            "archive_format": "tar.gz",
            "manifest": {"name": bot_name, "entry": "main.py", "games": ["watch"]},
            "entry": "main.py",
            "games": ["watch"],
            "status": BotVersion.Status.ACTIVE,
            "predecessor": previous,
            **fields,
        }
        return BotVersion.objects.create(bot=bot, **values)

    return make


@pytest.fixture
def season(db: None) -> Any:
    from arena.seasons.models import Season

    return Season.objects.create(name="Spring", game="watch", games_per_series=2)


@pytest.fixture
def running(season: Any) -> Any:
    """The season, running."""
    from arena.seasons.models import Season

    season.transition(Season.Status.RUNNING)
    return season


@pytest.fixture
def field(running: Any, make_version: Callable[..., Any], django_user_model: Any) -> list[Any]:
    """Four versions of four owners, entered in the running season."""
    from arena.seasons.models import SeasonEntry

    versions = []
    for name in ("ann", "bob", "cy", "dee"):
        version = make_version(name, owner=django_user_model.objects.create_user(name))
        SeasonEntry.objects.create(season=running, version=version)
        versions.append(version)
    return versions


@pytest.fixture
def solo_game() -> Any:
    """The toy solo game (tests/toygame/solitaire.py) registered for the test, and its declaration."""
    from tests.toygame.registry import registered
    from tests.toygame.solitaire import DECLARATION, REFERENCE_BOTS

    with registered(DECLARATION, REFERENCE_BOTS) as declared:
        yield declared


def enter_solo(season: Any, owner: Any, bot: str, package: str) -> Any:
    """Submit a toy solo bot package as ``owner``'s ``bot``, validate it in the sandbox, enter it; return it."""
    from arena.bots.models import BotVersion
    from arena.bots.submissions import submit_version
    from arena.bots.validation import validate_version
    from arena.seasons.models import SeasonEntry
    from tests.toygame.solitaire import PACKAGES

    version = validate_version(submit_version(owner, bot, PACKAGES / package).pk)
    assert version.status == BotVersion.Status.ACTIVE, version.status_reason
    SeasonEntry.objects.create(season=season, version=version)
    return version


@pytest.fixture
def solo_ladder(
    solo_game: Any, artifact_dir: Path, django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> dict[str, Any]:
    """A running solo season of the toy: ann's careful bot and bob's careless one, each series played and recorded."""
    from arena.matchmaking.scheduling import schedule_round
    from arena.seasons.models import Season

    season = Season.objects.create(
        name="Toy score ladder", game=solo_game.name, players_per_series=1, games_per_series=20
    )
    versions = {
        "careful": enter_solo(season, django_user_model.objects.create_user("ann"), "ann-careful", "careful"),
        "careless": enter_solo(season, django_user_model.objects.create_user("bob"), "bob-careless", "careless"),
    }
    season.transition(Season.Status.RUNNING)
    with django_capture_on_commit_callbacks(execute=True):
        played = schedule_round(season, 4)
    series = {}
    for one in played:
        one.refresh_from_db()
        assert one.state == "done", one.failure_reason
        series[one.seats.get().version.bot.name.split("-")[1]] = one
    return {"season": season, "versions": versions, "series": series}


@pytest.fixture
def team_game() -> Any:
    """The toy team game (tests/toygame/coop.py, "break-in") registered for the test, and its declaration."""
    from tests.toygame.coop import DECLARATION, REFERENCE_BOTS
    from tests.toygame.registry import registered

    with registered(DECLARATION, REFERENCE_BOTS) as declared:
        yield declared


def enter_team(season: Any, owner: Any, bot: str, package: str) -> Any:
    """Submit a toy team bot package as ``owner``'s ``bot``, validate it in the sandbox, enter it; return it."""
    from arena.bots.models import BotVersion
    from arena.bots.submissions import submit_version
    from arena.bots.validation import validate_version
    from arena.seasons.models import SeasonEntry
    from tests.toygame.coop import PACKAGES

    version = validate_version(submit_version(owner, bot, PACKAGES / package).pk)
    assert version.status == BotVersion.Status.ACTIVE, version.status_reason
    SeasonEntry.objects.create(season=season, version=version)
    return version


def play_rounds(season: Any, rounds: int, slots: int, capture: Any, seed: int = 7) -> list[Any]:
    """Schedule and play ``rounds`` rounds of ``slots`` series of ``season`` in the sandbox; return them, recorded."""
    import random

    from arena.matchmaking.scheduling import schedule_round

    rng = random.Random(seed)
    played = []
    for _ in range(rounds):
        with capture(execute=True):
            created = schedule_round(season, slots, rng=rng)
        for one in created:
            one.refresh_from_db()
            assert one.state == "done", one.failure_reason
        played += created
    return played


@pytest.fixture
def team_season(
    team_game: Any, artifact_dir: Path, django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> dict[str, Any]:
    """A running season of the toy team game with GM bots, two player seats a series, a few rounds played.

    Player bots: ann's daring one and bob's and dan's random ones (which play both roles); GM bots: cid's
    harsh one and the two random ones.
    """
    from arena.seasons.models import Season

    season = Season.objects.create(name="Toy team season", game=team_game.name, players_per_series=2)
    users = django_user_model.objects
    versions = {
        name: enter_team(season, users.create_user(owner), f"{owner}-{name}", package)
        for owner, name, package in (
            ("ann", "daring", "daring"),
            ("bob", "random", "random"),
            ("cid", "harsh", "harsh"),
            ("dan", "random2", "random"),
        )
    }
    season.transition(Season.Status.RUNNING)
    series = play_rounds(season, 4, 2, django_capture_on_commit_callbacks)
    return {"season": season, "versions": versions, "series": series}


@pytest.fixture
def builtin_season(
    team_game: Any, artifact_dir: Path, django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> dict[str, Any]:
    """A running season of the toy team game without GM bots (the built-in GM plays), a few rounds played."""
    from arena.seasons.models import Season

    season = Season.objects.create(name="Toy builtin season", game=team_game.name, players_per_series=2)
    users = django_user_model.objects
    versions = {
        name: enter_team(season, users.create_user(owner), f"{owner}-{name}", package)
        for owner, name, package in (("ann", "daring", "daring"), ("bob", "timid", "timid"), ("eve", "bold", "daring"))
    }
    season.transition(Season.Status.RUNNING)
    series = play_rounds(season, 5, 2, django_capture_on_commit_callbacks)
    return {"season": season, "versions": versions, "series": series}


@pytest.fixture(scope="session")
def migrated_embedded_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An embedded (SQLite) database built by ``manage.py migrate``, once per session: copy it, never change it."""
    from tests.arena.embedded_db import migrate_into

    return migrate_into(tmp_path_factory.mktemp("embedded-template"))


@pytest.fixture
def embedded_var(migrated_embedded_database: Path, tmp_path: Path) -> Path:
    """A var/ folder of the test's own holding a freshly migrated embedded database (ARENA_VAR_DIR)."""
    from tests.arena.embedded_db import copy_database

    var_dir = tmp_path / "var"
    copy_database(migrated_embedded_database, var_dir)
    return var_dir
