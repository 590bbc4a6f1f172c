"""Passes bits to the other seat of its series through kernel counters the whole host shares.

Both seats run this bot. Series player 0 sends: on its turn number ``t`` it
sends the ``t``-th bit of the Thue-Morse sequence (as many ones as zeros) by
holding, until its next turn, eight TCP sockets (TCP's socket count and
memory in ``/proc/net/sockstat`` and ``/proc/net/protocols``) and eight
eventfds (eventfd ids are the lowest free number), and by forking eight
children (pidfd inode numbers count the processes the host has started) and
reading the cookies of eight sockets (a host-wide counter) for a one, nothing
for a zero. Series player 1 reads all of them on each of its turns, the pidfd
inode numbers in every way there is (``pidfd_open``, ``clone(CLONE_PIDFD)``,
``SO_PEERPIDFD``; and ``SO_PASSPIDFD`` asks for them in messages). The
sender reports ``sent <time> <bit>``, the receiver ``read <time> <json of what
it read>``, the time being ``time.monotonic()`` (one clock for the whole host,
so the test can put the two bots' turns in order); each call's first outcome is
reported as ``HOSTILE <call>: <outcome>``.
"""

import ctypes
import errno
import json
import os
import signal
import socket
import sys
import time

from bots.sdk import run

SO_COOKIE, SO_PASSPIDFD, SO_PEERPIDFD = 57, 76, 77
CLONE_PIDFD = 0x1000
SYS_CLONE = {"x86_64": 56, "aarch64": 220}[os.uname().machine]
COUNT = 8
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
reported = set()


def report_once(probe, outcome):
    if probe not in reported:
        reported.add(probe)
        print(f"HOSTILE {probe}: {outcome}", file=sys.stderr, flush=True)


def attempt(probe, action):
    """Return what ``action`` returns, or None if it failed; report the first outcome of each probe."""
    try:
        result = action()
    except OSError as exc:
        report_once(probe, f"refused ({errno.errorcode.get(exc.errno, exc.errno)})")
        return None
    report_once(probe, "OK")
    return result


def fork_and_exit():
    child = os.fork()
    if child == 0:
        os._exit(0)
    return child


def cookie(sock):
    return int.from_bytes(sock.getsockopt(socket.SOL_SOCKET, SO_COOKIE, 8), "little")


class Sender:
    def __init__(self):
        self.turn = 0
        self.held = []

    def play(self, request):
        for item in self.held:
            item.close() if hasattr(item, "close") else os.close(item)
        self.held = []
        bit = bin(self.turn).count("1") % 2
        self.turn += 1
        if bit:
            for _ in range(COUNT):
                tcp = attempt("tcp socket", lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM))
                if tcp is not None:
                    self.held.append(tcp)
                event = attempt("eventfd", lambda: os.eventfd(0))
                if event is not None:
                    self.held.append(event)
                child = fork_and_exit()
                pidfd = attempt("pidfd_open", lambda child=child: os.pidfd_open(child))
                if pidfd is not None:
                    os.close(pidfd)
                os.waitpid(child, 0)
                with socket.socket(socket.AF_UNIX) as sock:
                    attempt("SO_COOKIE", lambda sock=sock: cookie(sock))
        print(f"sent {time.monotonic()} {bit}", file=sys.stderr, flush=True)


def tcp_line(text, name):
    return next((line.split() for line in text.splitlines() if line.startswith(name)), [])


def read_text(path):
    with open(path) as handle:
        return handle.read()


def eventfd_id():
    fd = os.eventfd(0)
    try:
        with open(f"/proc/self/fdinfo/{fd}") as handle:
            return int(next(line for line in handle if line.startswith("eventfd-id")).split()[1])
    finally:
        os.close(fd)


def pidfd_number():
    child = fork_and_exit()
    try:
        fd = os.pidfd_open(child)
        try:
            return os.fstat(fd).st_ino
        finally:
            os.close(fd)
    finally:
        os.waitpid(child, 0)


def clone_pidfd():
    """A child made by clone(CLONE_PIDFD): the other way to a pidfd's inode number."""
    pidfd = ctypes.c_int(-1)
    child = libc.syscall(ctypes.c_long(SYS_CLONE), ctypes.c_long(CLONE_PIDFD | signal.SIGCHLD), ctypes.c_long(0),
                         ctypes.byref(pidfd), ctypes.c_long(0), ctypes.c_long(0))  # fmt: skip
    if child == 0:
        os._exit(0)
    if child < 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    os.waitpid(child, 0)
    number = os.fstat(pidfd.value).st_ino
    os.close(pidfd.value)
    return number


def peer_pidfd():
    left, right = socket.socketpair()
    with left, right:
        fd = int.from_bytes(left.getsockopt(socket.SOL_SOCKET, SO_PEERPIDFD, 4), "little")
        number = os.fstat(fd).st_ino
        os.close(fd)
        return number


def pass_pidfd():
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, SO_PASSPIDFD, 1)


def new_cookie():
    with socket.socket(socket.AF_UNIX) as sock:
        return cookie(sock)


class Receiver:
    def play(self, request):
        sockstat = attempt("read sockstat", lambda: tcp_line(read_text("/proc/net/sockstat"), "TCP:"))
        protocols = attempt("read protocols", lambda: tcp_line(read_text("/proc/net/protocols"), "TCP "))
        found = {
            "tcp_alloc": int(sockstat[sockstat.index("alloc") + 1]) if sockstat else None,
            "tcp_memory": int(protocols[3]) if protocols else None,
            "tcp_sockets": int(protocols[2]) if protocols else None,
            "eventfd": attempt("read eventfd", eventfd_id),
            "pidfd": attempt("read pidfd_open", pidfd_number),
            "cookie": attempt("read SO_COOKIE", new_cookie),
            "clone_pidfd": attempt("read clone pidfd", clone_pidfd),
            "peer_pidfd": attempt("read SO_PEERPIDFD", peer_pidfd),
        }
        attempt("set SO_PASSPIDFD", pass_pidfd)
        print(f"read {time.monotonic()} {json.dumps(found)}", file=sys.stderr, flush=True)


class Spy:
    def __init__(self, seed=None):
        self.role = None

    def on_start(self, message):
        self.role = Sender() if message["player"] == 0 else Receiver()

    def on_request(self, message):
        self.role.play(message)

    def choose(self, observation, legal_actions):
        return legal_actions[0]


run(Spy)
