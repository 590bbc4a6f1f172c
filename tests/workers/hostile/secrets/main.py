"""Tries the platform's settings, database credentials, host secrets and the referee's cwd. Reports, then plays."""

import json
import os
import sys

from bots.sdk import run


def report(probe, outcome):
    print(f"HOSTILE {probe}: {outcome}", file=sys.stderr, flush=True)


def attempt(probe, action):
    try:
        result = action()
    except Exception as exc:
        report(probe, f"{type(exc).__name__}: {exc}")
    else:
        report(probe, f"OK {result!r}"[:2000])


def read(path):
    with open(path) as handle:
        return handle.read()


# The test tells the bot where the host's checkout is (targets.json beside this file).
with open("targets.json") as handle:
    repo = json.load(handle)["repo_root"]

for path in (
    f"{repo}/platform/arena/settings.py",
    f"{repo}/.env",
    "/etc/postgresql/15/main/pg_hba.conf",
    "/etc/shadow",
    "/etc/passwd",
    "/root/.pgpass",
    "/root/.bash_history",
    "/proc/1/cwd/manage.py",
    f"/proc/1/root{repo}/platform/arena/settings.py",
):
    attempt(f"read {path}", lambda path=path: read(path))
repo_top = "/" + repo.strip("/").split("/")[0]
for path in (repo_top, "/etc/postgresql", "/root", "/home", "/proc/1/cwd", "/proc/1/root", "/etc"):
    attempt(f"list {path}", lambda path=path: sorted(os.listdir(path)))
attempt("cwd", os.getcwd)
attempt("fds", lambda: sorted(os.listdir("/proc/self/fd")))
for fields in [line.split() for line in read("/proc/self/mountinfo").splitlines()]:
    report(f"mount {fields[4]}", f"OK {fields[3]}")  # the mount point, and what of its file system it shows

run(lambda observation, legal_actions: legal_actions[0])
