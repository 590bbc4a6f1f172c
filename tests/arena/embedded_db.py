"""The embedded default (SQLite in a var/ folder, no broker) as ``manage.py`` subprocesses see it, for tests.

A test runs commands on a database of its own: ``ARENA_VAR_DIR`` points at
the test's folder, and the project's settings from this process's environment
(the suite's PostgreSQL, a broker) are dropped, so the command runs exactly
as ``python3 manage.py ...`` does on a fresh checkout.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DATABASE = "arena.sqlite3"


def environment(var_dir: Path, **values: str) -> dict[str, str]:
    """The embedded default in ``var_dir``: no database URL, no broker, this interpreter as it is; plus ``values``."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("ARENA_", "DJANGO_"))}
    env.update(ARENA_VAR_DIR=str(var_dir), ARENA_NO_BOOTSTRAP="1", **values)
    return env


def manage(var_dir: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run ``manage.py args`` on the embedded database in ``var_dir``; fail the test on a non-zero exit."""
    run = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=environment(var_dir),
        text=True,
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    said = f"{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    assert run.returncode == 0, f"manage.py {' '.join(args)} exited {run.returncode}:\n{said}"
    return run


def migrate_into(var_dir: Path) -> Path:
    """Build the embedded database in ``var_dir`` with ``manage.py migrate``; return its path."""
    manage(var_dir, "migrate", "--verbosity", "0")
    return var_dir / DATABASE


def copy_database(template: Path, var_dir: Path) -> Path:
    """Copy the database ``template`` (closed, its journal folded in) into ``var_dir``; return the copy's path."""
    var_dir.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copyfile(template, var_dir / DATABASE))


def stock_integrity_check(database: Path) -> list[str]:
    """Return what SQLite's own ``sqlite3`` command and Python's sqlite3 answer to ``PRAGMA integrity_check``.

    Neither knows Django's REGEXP function: a constraint that needs it fails the check.
    """
    if shutil.which("sqlite3") is None:
        raise AssertionError("the sqlite3 command is missing: run `bash .ci/setup --services` (it installs it)")
    cli = subprocess.run(
        ["sqlite3", str(database), "PRAGMA integrity_check"], capture_output=True, text=True, timeout=60, check=False
    )
    answers = [(cli.stdout + cli.stderr).strip()]
    connection = sqlite3.connect(database)
    try:
        answers.append("\n".join(row[0] for row in connection.execute("PRAGMA integrity_check")))
    except sqlite3.Error as exc:
        answers.append(f"{type(exc).__name__}: {exc}")
    finally:
        connection.close()
    return answers
