"""Leaves what it can in its network namespace, or shows what an earlier bot left there. Reports, then plays.

A worker hands a network namespace whose bot has exited to the next bot
(workers.sandbox.NetnsPool). targets.json (written by the test) says which
part this bot plays:

* ``dirty``: moves every per-namespace counter it can reach (TCP connects and
  UDP sends that fail, ping and raw sockets, an IPv6 send), binds abstract
  unix names and leaves unix sockets, one of them listening on a name and
  holding data, passed to one another in a cycle that outlives its process,
  and tries to change the interface (up, MTU, name);
* ``dump``: reports every file under ``/proc/net`` (``HOSTILE file <path>:
  <content as JSON>``), read by a child process (``/proc/net`` is the
  reader's own ``/proc/<pid>/net``).

Both report the namespace they are in first.
"""

import array
import fcntl
import json
import os
import socket
import struct
import subprocess
import sys

from bots.sdk import run

SIOCSIFFLAGS, SIOCSIFMTU, SIOCSIFNAME, IFF_UP = 0x8914, 0x8922, 0x8923, 0x1


def report(probe, outcome):
    print(f"HOSTILE {probe}: {outcome}", file=sys.stderr, flush=True)


def attempt(probe, action):
    try:
        result = action()
    except Exception as exc:
        report(probe, f"{type(exc).__name__}: {exc}")
    else:
        report(probe, f"OK {result!r}"[:2000])


def connect(family, kind, address, proto=0):
    with socket.socket(family, kind, proto) as sock:
        sock.settimeout(1)
        if kind == socket.SOCK_STREAM:
            sock.connect(address)
        else:
            sock.sendto(b"\x00" * 64, address)


def cycle():
    """Unix sockets that only one another's queues hold: freed by the kernel's collector, not at exit."""
    left, right = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind("\0arena-netns-dirt-listener")
    listener.listen(1)
    rights = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [left.fileno(), listener.fileno()]))]
    right.sendmsg([b"x" * 1000], rights)
    left.sendmsg([b"y" * 1000], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [right.fileno()]))])
    for sock in (left, right, listener):
        sock.close()
    return "left in flight"


def interface(request, payload):
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:  # interface requests go through any socket
        fcntl.ioctl(sock, request, struct.pack("16s", b"lo") + payload)


def dirty():
    tcp = [(socket.AF_INET, ("127.0.0.1", 6379)), (socket.AF_INET, ("10.1.2.3", 80)), (socket.AF_INET6, ("::1", 6379))]
    udp = [(socket.AF_INET, ("1.1.1.1", 53)), (socket.AF_INET, ("127.0.0.1", 9)), (socket.AF_INET6, ("2001:db8::1", 9))]
    for kind, name, targets in ((socket.SOCK_STREAM, "tcp", tcp), (socket.SOCK_DGRAM, "udp", udp)):
        for family, address in targets:
            attempt(f"{name} {address[0]}", lambda f=family, k=kind, a=address: connect(f, k, a))
    attempt("ping", lambda: connect(socket.AF_INET, socket.SOCK_DGRAM, ("127.0.0.1", 0), socket.IPPROTO_ICMP))
    attempt("raw", lambda: connect(socket.AF_INET, socket.SOCK_RAW, ("127.0.0.1", 0), socket.IPPROTO_UDP))
    kept = []
    for index in range(8):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind(f"\0arena-netns-dirt-{index}")
        sock.listen(1)
        kept.append(sock)
    report("abstract names", f"OK {len(kept)}")
    attempt("cycle", cycle)
    attempt("loopback up", lambda: interface(SIOCSIFFLAGS, struct.pack("H14x", IFF_UP)))
    attempt("loopback mtu", lambda: interface(SIOCSIFMTU, struct.pack("i12x", 1280)))
    attempt("loopback name", lambda: interface(SIOCSIFNAME, struct.pack("16s", b"arena0")))
    return kept


DUMP = """
import json, os
found = {}
for directory, dirs, names in os.walk("/proc/self/net"):
    dirs.sort()
    for name in sorted(names):
        path = os.path.join(directory, name)
        try:
            with open(path, "rb") as handle:
                found[os.path.relpath(path, "/proc/self/net")] = handle.read().decode(errors="replace")
        except OSError as exc:
            found[os.path.relpath(path, "/proc/self/net")] = f"{type(exc).__name__}: {exc.strerror}"
print(json.dumps(found))
"""


def dump():
    child = subprocess.run([sys.executable, "-S", "-c", DUMP], capture_output=True, text=True, check=True)
    for path, content in json.loads(child.stdout).items():
        report(f"file {path}", json.dumps(content))


with open("/bot/targets.json") as handle:
    mode = json.load(handle)["mode"]
attempt("namespace", lambda: os.readlink("/proc/self/ns/net"))
held = dirty() if mode == "dirty" else dump()

run(lambda observation, legal_actions: legal_actions[0])
