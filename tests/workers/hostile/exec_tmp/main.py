"""Writes programs to /tmp and /dev/shm and runs them. Reports what they saw, then plays.

/tmp is a tmpfs inside the sandbox; whatever runs from it runs with the bot's uid,
namespaces, cgroup and seccomp filter.
"""

import os
import shutil
import subprocess
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


SCRIPT = """#!/bin/sh
echo "uid=$(/usr/bin/id -u) pidns=$(/usr/bin/readlink /proc/self/ns/pid) netns=$(/usr/bin/readlink /proc/self/ns/net)"
"""


def execute(argv):
    done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=5, env={})
    return f"exit {done.returncode}: {done.stdout.strip()} {done.stderr.strip()}".strip()


def install(path):
    with open(path, "w") as handle:
        handle.write(SCRIPT)
    os.chmod(path, 0o755)
    return path


report("self", f"uid={os.getuid()} pidns={os.readlink('/proc/self/ns/pid')} netns={os.readlink('/proc/self/ns/net')}")
attempt("exec /tmp/probe.sh", lambda: execute([install("/tmp/probe.sh")]))
attempt("exec /dev/shm/probe.sh", lambda: execute([install("/dev/shm/probe.sh")]))
attempt("exec /tmp/true", lambda: execute([shutil.copy("/usr/bin/true", "/tmp/true")]))

run(lambda observation, legal_actions: legal_actions[0])
