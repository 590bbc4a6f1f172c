"""Tries the network: loopback services, the host's own addresses, the Internet. Reports, then plays.

targets.json beside this file (written by the test) lists the host's addresses. Besides TCP and
UDP it tries the other socket families (packet, netlink, and AF_INET with the upper 32 bits of
the family set, which the kernel ignores), lists the interfaces (through netlink, and in
/proc/net/dev), and makes the one kind of socket a bot keeps, a unix socket pair.
"""

import ctypes
import json
import os
import socket
import sys
import time

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


def tcp(host, port):
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    started = time.monotonic()
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.settimeout(3)
            sock.connect((host, port))
            outcome = "OK connected"
    except OSError as exc:
        outcome = f"{type(exc).__name__}: {exc}"
    report(f"tcp {host} {port}", f"{outcome} ({time.monotonic() - started:.3f} s)")


def udp(host, port):
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        return sock.sendto(b"\x00" * 12, (host, port))


with open("/bot/targets.json") as handle:
    targets = json.load(handle)
for host, port in [
    ("127.0.0.1", 6379),
    ("127.0.0.1", 5432),
    ("::1", 6379),
    ("1.1.1.1", 53),
    ("2606:4700:4700::1111", 53),
]:
    tcp(host, port)
for host in targets["host_addresses"]:
    for port in targets["host_ports"]:
        tcp(host, port)


def raw_socket(family):
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.syscall(ctypes.c_long({"x86_64": 41, "aarch64": 198}[os.uname().machine]), ctypes.c_long(family),
                      ctypes.c_long(socket.SOCK_STREAM), ctypes.c_long(0))  # fmt: skip
    if fd < 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    os.close(fd)


def devices():
    with open("/proc/net/dev") as handle:
        return sorted(line.split(":")[0].strip() for line in handle.readlines()[2:])


def unix_pair():
    left, right = socket.socketpair()
    left.sendall(b"ping")
    answer = right.recv(4)
    left.close()
    right.close()
    return answer


attempt("udp 1.1.1.1 53", lambda: udp("1.1.1.1", 53))
attempt("interfaces", lambda: sorted(name for _, name in socket.if_nameindex()))
attempt("interfaces in /proc/net/dev", devices)
attempt("packet socket", lambda: socket.socket(socket.AF_PACKET, socket.SOCK_RAW).close())
attempt("netlink socket", lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE).close())
attempt("inet socketpair", lambda: socket.socketpair(socket.AF_INET))
attempt("inet socket upper bits", lambda: raw_socket((1 << 32) | socket.AF_INET))
attempt("unix socket pair", unix_pair)

run(lambda observation, legal_actions: legal_actions[0])
