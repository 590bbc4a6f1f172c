"""The bots' CHECK constraints: the same refusals on PostgreSQL and SQLite, and SQLite's stock tools can check them.

A bot's name (1-40 letters, digits, "-" or "_") and a version's archive
digest (64 lowercase hex digits) are checked by the database itself, the last
line behind the upload checks. They used to be regular expressions, which
SQLite only knows inside Django (its REGEXP function): ``sqlite3
var/arena.sqlite3 "PRAGMA integrity_check"`` failed on a healthy embedded
database. They are written with TRIM and LENGTH now; these tests build the
embedded database as ``manage.py`` does, insert through Django, and run the
stock checks, and try every hostile value on both databases.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.db import DataError, IntegrityError, transaction

from arena.bots.models import Bot, BotVersion
from tests.arena.embedded_db import DATABASE, manage, stock_integrity_check

GOOD_NAMES = ["a", "My-bot_2", "x" * 40]
HOSTILE_NAMES = [
    "",
    "x" * 41,
    "no spaces",
    "slash/name",
    "ünïcode",
    "trailing-newline\n",  # Python's "$" matches before it: Django's REGEXP on SQLite let it in
    "tab\tname",
    "nul\x00byte",
    "percent%",
    "[glob]",
    "*",
    "quote'name",
]
GOOD_DIGEST = "0123456789abcdef" * 4
HOSTILE_DIGESTS = ["A" * 64, "a" * 63, "a" * 65, "g" * 64, "a" * 64 + "\n", "a" * 63 + "\x00", " " + "a" * 63, ""]

#: Run by ``manage.py shell`` on the embedded database: a user, the good bots and a version through Django, and
#: every hostile value tried in its own transaction; prints what the database refused, by constraint.
SQLITE_SCRIPT = """
import json
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from arena.bots.models import Bot, BotVersion

owner = get_user_model().objects.create_user("owner")
for name in {good_names!r}:
    bot = Bot.objects.create(owner=owner, name=name)
BotVersion.objects.create(bot=bot, number=1, archive_sha256={good_digest!r}, archive_size=10, archive_format="zip",
                          manifest={{"name": bot.name, "entry": "main.py"}}, entry="main.py")


def refusal(make):
    try:
        with transaction.atomic():
            make()
    except IntegrityError as exc:
        return str(exc)
    return None


names = {{repr(name): refusal(lambda: Bot.objects.create(owner=owner, name=name)) for name in {hostile_names!r}}}
digests = {{
    repr(digest): refusal(lambda: BotVersion.objects.create(
        bot=bot, number=2, archive_sha256=digest, archive_size=10, archive_format="zip", manifest={{}}, entry="m.py"))
    for digest in {hostile_digests!r}
}}
print(json.dumps({{"names": names, "digests": digests}}))
"""


def test_the_embedded_database_passes_sqlites_stock_integrity_check_and_refuses_the_same(embedded_var: Path) -> None:
    script = SQLITE_SCRIPT.format(
        good_names=GOOD_NAMES, good_digest=GOOD_DIGEST, hostile_names=HOSTILE_NAMES, hostile_digests=HOSTILE_DIGESTS
    )
    refused = json.loads(manage(embedded_var, "shell", "-c", script).stdout.strip().splitlines()[-1])
    assert refused["names"] == {repr(name): "CHECK constraint failed: bot_name_form" for name in HOSTILE_NAMES}, (
        refused["names"]
    )
    assert refused["digests"] == {
        repr(digest): "CHECK constraint failed: bot_version_sha256_hex" for digest in HOSTILE_DIGESTS
    }, refused["digests"]
    # SQLite's own command-line shell, and Python's sqlite3 module, both without Django's REGEXP.
    assert stock_integrity_check(embedded_var / DATABASE) == ["ok", "ok"]


@pytest.mark.django_db
def test_postgresql_accepts_good_names_and_digests(user: Any) -> None:
    for name in GOOD_NAMES:
        bot = Bot.objects.create(owner=user, name=name)
    version = BotVersion.objects.create(
        bot=bot, number=1, archive_sha256=GOOD_DIGEST, archive_size=10, archive_format="zip", manifest={}, entry="m.py"
    )
    assert version.archive_sha256 == GOOD_DIGEST


def postgresql_refusal(value: str, constraint: str, longest: int) -> tuple[type[Exception], str]:
    """Return what PostgreSQL refuses ``value`` with: the constraint, or its text type before any constraint."""
    if "\x00" in value:
        return DataError, "NUL"  # text never holds a NUL
    if len(value) > longest:
        return DataError, f"too long for type character varying\\({longest}\\)"
    return IntegrityError, constraint


@pytest.mark.django_db
@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_postgresql_refuses_a_hostile_bot_name(user: Any, name: str) -> None:
    refused, named = postgresql_refusal(name, "bot_name_form", 40)
    with pytest.raises(refused, match=named), transaction.atomic():
        Bot.objects.create(owner=user, name=name)


@pytest.mark.django_db
@pytest.mark.parametrize("digest", HOSTILE_DIGESTS)
def test_postgresql_refuses_a_hostile_archive_digest(user: Any, digest: str) -> None:
    bot = Bot.objects.create(owner=user, name="alpha")
    refused, named = postgresql_refusal(digest, "bot_version_sha256_hex", 64)
    with pytest.raises(refused, match=named), transaction.atomic():
        BotVersion.objects.create(
            bot=bot, number=1, archive_sha256=digest, archive_size=10, archive_format="zip", manifest={}, entry="m.py"
        )
