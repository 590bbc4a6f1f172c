"""A bot author's install: `pip install .` in a clean venv gives the engines, the bot SDK and `arena`, nothing more.

The venv is made from the system Python; into it go the distribution's own
dependencies, exactly as the lock pins them (with their hashes), and the
project itself. Without Django, PostgreSQL or Redis, and run from a folder
outside the checkout, `arena play watch` plays two starter bots in the
sandbox.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def core_requirements(lock: str) -> str:
    """Return the lock's entries for the distribution's dependencies (pyproject.toml) and theirs (the "via" notes)."""
    direct = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    wanted = {re.split(r"[=<>\[ ;]", requirement, maxsplit=1)[0].lower() for requirement in direct}
    blocks = re.split(r"\n(?=[a-z0-9])", lock.split("\n", 2)[2])
    entries = {block.split("==", 1)[0]: block for block in blocks if "==" in block}
    while True:
        more = {
            name
            for name, block in entries.items()
            if name not in wanted and any(re.search(rf"#( via|\s+) {re.escape(w)}$", block, re.M) for w in wanted)
        }
        if not more:
            return "\n".join(entries[name] for name in sorted(wanted)) + "\n"
        wanted |= more


def run(command: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_the_lock_names_the_distributions_dependencies() -> None:
    requirements = core_requirements((ROOT / "requirements.lock").read_text())
    names = sorted(line.split("==")[0] for line in requirements.splitlines() if "==" in line)
    assert names == ["colorama", "pyseccomp", "six", "tqdm", "trueskill"]  # colorama: on Windows only


def test_a_clean_venv_with_only_the_distribution_plays_a_series(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    venv = tmp_path / "venv"
    made = run(["/usr/bin/python3", "-m", "venv", str(venv)], tmp_path, env)
    assert made.returncode == 0, made.stderr
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    requirements = tmp_path / "requirements.txt"
    requirements.write_text(core_requirements((ROOT / "requirements.lock").read_text()))
    deps = run([*pip, "--require-hashes", "--no-deps", "-r", str(requirements)], tmp_path, env)
    assert deps.returncode == 0, deps.stdout + deps.stderr
    # From a copy of what the distribution is made of: building writes build/ and *.egg-info beside
    # the sources, which must not land in the checkout.
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    for name in ("engines", "bots", "workers"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    installed = run([*pip, "--no-deps", str(source)], tmp_path, env)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    python = str(venv / "bin" / "python")
    where = run([python, "-c", "import engines, bots.sdk, workers.cli; print(workers.cli.__file__)"], tmp_path, env)
    assert where.returncode == 0, where.stderr
    assert where.stdout.startswith(str(venv)), where.stdout  # the installed copy, not the checkout
    for platform_part in ("django", "celery", "psycopg", "arena"):
        absent = run([python, "-c", f"import {platform_part}"], tmp_path, env)
        assert "ModuleNotFoundError" in absent.stderr, (platform_part, absent.stderr)

    starters = ROOT / "bots" / "starter"
    played = run(
        [str(venv / "bin" / "arena"), "play", "watch", str(starters / "watch-python"), str(starters / "watch-shell"),
         "--games", "2", "--seed", "5"],
        tmp_path,
        env,
    )  # fmt: skip
    assert played.returncode == 0, played.stdout + played.stderr
    assert played.stdout.startswith("watch (rules 1): ")
    assert "sandbox bwrap" in played.stdout
    assert "Series winner: " in played.stdout
