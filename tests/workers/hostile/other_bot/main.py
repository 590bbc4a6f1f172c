"""Looks for the opponent's files: its host directory, the staging area, anywhere visible. Reports, then plays.

targets.json beside this file (written by the test) holds the opponent's host directory.
"""

import glob
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


def find(name):
    found = []
    for top in sorted(set(os.listdir("/")) - {"proc", "sys", "dev", "usr"}):
        for directory, _dirs, files in os.walk("/" + top):
            found += [os.path.join(directory, f) for f in files if f == name]
    return found


with open("/bot/targets.json") as handle:
    targets = json.load(handle)
attempt("opponent dir", lambda: os.listdir(targets["opponent_dir"]))
attempt("opponent secret", lambda: read(os.path.join(targets["opponent_dir"], "secret.txt")))
attempt("staging glob", lambda: glob.glob("/tmp/arena-stage-*/**", recursive=True))
attempt("find secret.txt", lambda: find("secret.txt"))
attempt("root", lambda: sorted(os.listdir("/")))
attempt("arena", lambda: sorted(os.listdir("/arena")))
attempt("bot", lambda: sorted(os.listdir("/bot")))

run(lambda observation, legal_actions: legal_actions[0])
