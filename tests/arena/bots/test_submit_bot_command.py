"""``manage.py submit_bot``: submit a bot from the command line, with clear errors and exit codes."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from io import StringIO
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from arena.bots.models import BotVersion

ROOT = Path(__file__).resolve().parents[3]


def submit_bot(*args: str) -> str:
    out = StringIO()
    call_command("submit_bot", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_it_prints_the_version_and_its_status(user: Any, write_bot: Callable[..., Path], artifact_dir: Path) -> None:
    output = submit_bot("--owner", "alice", "--bot", "my-bot", str(write_bot("one")))
    version = BotVersion.objects.get()
    assert output == (
        f"alice/my-bot version 1: validating (sha256 {version.archive_sha256}, {version.archive_size} bytes, "
        "entry main.py)\n"
    )
    output = submit_bot("--owner", "alice", "--bot", "my-bot", str(write_bot("two", main="print(2)\n")))
    assert output.startswith("alice/my-bot version 2: validating (sha256 ")
    assert output.endswith("entry main.py; replaces version 1)\n")


@pytest.mark.django_db
def test_it_creates_the_owner_when_asked(
    django_user_model: Any, write_bot: Callable[..., Path], artifact_dir: Path
) -> None:
    output = submit_bot("--owner", "carol", "--create-owner", "--bot", "my-bot", str(write_bot()))
    assert output.startswith("Created user 'carol'\ncarol/my-bot version 1: validating")
    carol = django_user_model.objects.get(username="carol")
    assert not carol.has_usable_password()


@pytest.mark.django_db
def test_it_refuses_an_unknown_owner(write_bot: Callable[..., Path], artifact_dir: Path) -> None:
    with pytest.raises(CommandError, match="no user 'carol'; pass --create-owner to create it"):
        submit_bot("--owner", "carol", "--bot", "my-bot", str(write_bot()))


@pytest.mark.django_db
def test_it_refuses_an_owner_name_it_cannot_create(write_bot: Callable[..., Path], artifact_dir: Path) -> None:
    with pytest.raises(CommandError, match="cannot create user 'bad name!'"):
        submit_bot("--owner", "bad name!", "--create-owner", "--bot", "my-bot", str(write_bot()))


@pytest.mark.django_db
def test_it_says_why_a_package_was_refused(user: Any, write_bot: Callable[..., Path], artifact_dir: Path) -> None:
    directory = write_bot()
    (directory / "bot.toml").write_text('name = "my-bot"\n')
    with pytest.raises(CommandError, match=r"was not submitted: bot.toml has no entry; add entry = \"main.py\""):
        submit_bot("--owner", "alice", "--bot", "my-bot", str(directory))
    assert not BotVersion.objects.exists()


def run_manage(*args: str, artifacts: Path) -> subprocess.CompletedProcess[str]:
    """Run manage.py in a new process, on the test database (its rows committed: transactional_db)."""
    db = connection.settings_dict
    host = f"{db['HOST']}:{db['PORT']}" if db["HOST"] else ""
    credentials = quote(db["USER"]) + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
    env = {
        **os.environ,
        "ARENA_NO_BOOTSTRAP": "1",
        "ARENA_DATABASE_URL": f"postgres://{credentials}@{host}/{quote(db['NAME'])}",
        "ARENA_ARTIFACT_DIR": str(artifacts),
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


@pytest.mark.django_db(transaction=True)
def test_it_exits_zero_on_success_and_non_zero_on_bad_input(
    user: Any, write_bot: Callable[..., Path], tmp_path: Path
) -> None:
    artifacts = tmp_path / "artifacts"
    good = run_manage("submit_bot", "--owner", "alice", "--bot", "my-bot", str(write_bot()), artifacts=artifacts)
    assert good.returncode == 0, good.stderr
    assert good.stdout.startswith("alice/my-bot version 1: validating (sha256 ")
    version = BotVersion.objects.get()
    assert (artifacts / version.archive_key).is_file()

    garbage = tmp_path / "garbage.zip"
    garbage.write_bytes(b"not really a zip")
    bad = run_manage("submit_bot", "--owner", "alice", "--bot", "my-bot", str(garbage), artifacts=artifacts)
    assert bad.returncode == 1
    assert "CommandError: " in bad.stderr
    assert "garbage.zip: not a bot directory, .zip or .tar.gz archive" in bad.stderr
    assert BotVersion.objects.count() == 1

    usage = run_manage("submit_bot", "--bot", "my-bot", str(garbage), artifacts=artifacts)
    assert usage.returncode == 2
    assert "the following arguments are required: --owner" in usage.stderr
