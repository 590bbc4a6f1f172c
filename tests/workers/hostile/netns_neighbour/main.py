"""Looks for the other bot, and for earlier bots, through its network namespace. Reports, then plays.

Both seats run this. Each names its namespace, counts the sockets the namespace holds (an earlier
bot's would show in /proc/net), binds an abstract unix socket of a name both seats use (taken
already if the other bot shares the namespace), connects to it, and tries to bring `lo` up.
"""

import fcntl
import os
import socket
import struct
import sys

from bots.sdk import run

NAME = "\0arena-netns-neighbour"
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1


def report(probe, outcome):
    print(f"HOSTILE {probe}: {outcome}", file=sys.stderr, flush=True)


def attempt(probe, action):
    try:
        result = action()
    except Exception as exc:
        report(probe, f"{type(exc).__name__}: {exc}")
    else:
        report(probe, f"OK {result!r}"[:2000])


def sockets(table):
    with open(f"/proc/net/{table}") as handle:
        return len(handle.readlines()) - 1


def lo_up():
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:  # interface requests go through any socket
        request = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH", fcntl.ioctl(sock, SIOCGIFFLAGS, request)[:18])[1]
        fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | IFF_UP))
        return "up"


attempt("namespace", lambda: os.readlink("/proc/self/ns/net"))
for table in ("unix", "tcp", "tcp6", "udp", "udp6", "raw", "packet"):
    attempt(f"sockets {table}", lambda table=table: sockets(table))
listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
attempt("bind shared name", lambda: listener.bind(NAME))
attempt("listen", lambda: listener.listen(1))
attempt("connect shared name", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).connect(NAME))
attempt("loopback up", lo_up)

run(lambda observation, legal_actions: legal_actions[0])
