"""Tries the host's unix sockets: PostgreSQL, Redis, Docker and an abstract socket. Reports, then plays.

targets.json beside this file (written by the test) names an abstract socket the test listens on.
"""

import json
import socket
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


def connect(address):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(3)
        sock.connect(address)
        return "connected"


def count_lines(path):
    with open(path) as handle:
        return len(handle.readlines())


with open("/bot/targets.json") as handle:
    targets = json.load(handle)
for path in (
    "/var/run/postgresql/.s.PGSQL.5432",
    "/run/postgresql/.s.PGSQL.5432",
    "/var/run/redis/redis-server.sock",
    "/var/run/docker.sock",
    "/run/dbus/system_bus_socket",
):
    attempt(f"unix {path}", lambda path=path: connect(path))
attempt("unix abstract", lambda: connect("\0" + targets["abstract_name"]))
attempt("unix sockets visible", lambda: count_lines("/proc/net/unix") - 1)

run(lambda observation, legal_actions: legal_actions[0])
