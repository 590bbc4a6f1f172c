#!/usr/bin/env python3
"""Watch Arena's command line: Django's manage.py, plus a self-installing start.

Run with any Python 3.11: the first run creates ``.venv`` from the hash-pinned
``requirements.lock`` (through ``.ci/setup``) and re-runs itself inside it, so
a fresh clone needs nothing installed by hand. ``manage.py test [pytest args]``
runs the test suite with pytest on several worker processes (pytest-xdist; see
:func:`pytest_command`). Set ARENA_NO_BOOTSTRAP=1 to use the current
interpreter as it is (the container image does).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"


def ensure_environment(argv: list[str]) -> None:
    """Re-execute under the project's virtualenv, creating or updating it first."""
    if os.environ.get("ARENA_NO_BOOTSTRAP") == "1" or Path(sys.prefix).resolve() == VENV.resolve():
        return
    setup = ["bash", str(ROOT / ".ci" / "setup")]
    if argv[1:2] == ["test"]:
        setup.append("--services")  # the suite talks to PostgreSQL and Redis
    result = subprocess.run(setup, check=False)
    if result.returncode:
        sys.exit(f"manage.py: set-up failed ({' '.join(setup)} exited {result.returncode})")
    python = str(VENV / "bin" / "python")
    os.execv(python, [python, *argv])


def suite_workers(cpus: int | None) -> int:
    """How many pytest-xdist workers run the suite on a machine of ``cpus`` CPUs: two a CPU, from 2 to 8.

    Most of the suite's long tests wait (on a served site, a restarted worker, a
    sandboxed bot's clock) rather than compute, so two workers a CPU keep the CPUs
    busy while those wait; past eight, the workers' own start-up and the
    per-worker test databases cost more than they win.
    """
    return max(2, min(8, 2 * (cpus or 1)))


def pytest_command(python: str, args: list[str], cpus: int | None) -> list[str]:
    """The pytest command line ``manage.py test args`` runs.

    The suite runs on :func:`suite_workers` pytest-xdist workers, each with its own test
    database, a test file at a time on one worker (``--dist loadfile``), so that the
    tests of a file that share a module fixture (the demo's first run) share one run of
    it. A worker count (``-n``, ``--numprocesses``) or a distribution (``--dist``) among
    ``args`` replaces ours, and ``-p no:xdist`` turns both off; every argument passes
    through to pytest.
    """
    if "no:xdist" in args or "-pno:xdist" in args:
        return [python, "-m", "pytest", *args]
    count = any(
        arg in ("-n", "--numprocesses")
        or arg.startswith("--numprocesses=")
        or (arg.startswith("-n") and (arg[2:].isdigit() or arg[2:] in ("auto", "logical")))
        for arg in args
    )
    dist = any(arg == "--dist" or arg.startswith("--dist=") for arg in args)
    ours = ([] if count else ["-n", str(suite_workers(cpus))]) + ([] if dist else ["--dist", "loadfile"])
    return [python, "-m", "pytest", *ours, *args]


def main(argv: list[str]) -> None:
    """Run a Django management command, or pytest for ``test``."""
    ensure_environment(argv)
    if argv[1:2] == ["test"]:
        # pytest with pytest-django, configured in pyproject.toml; arguments pass through.
        os.chdir(ROOT)
        os.execv(sys.executable, pytest_command(sys.executable, argv[2:], os.cpu_count()))
    # platform/ holds the Django project package; it is appended, never
    # prepended, and is not itself a package, so `import platform` stays stdlib.
    sys.path.append(str(ROOT / "platform"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(argv)


if __name__ == "__main__":
    main(sys.argv)
