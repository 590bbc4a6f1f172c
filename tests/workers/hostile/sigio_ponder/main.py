"""Arms signal-driven I/O on its own stderr, to think in the SIGIO handler while blocked reading the next request.

The referee leaves a bot that is blocked reading its stdin unfrozen (nothing
should wake it but the next request). With ``O_ASYNC`` and itself as owner on
its stderr pipe, every read the referee makes of that pipe sends it SIGIO;
off turn the handler works a millisecond and writes a newline to stderr,
which the referee reads at once: a chain that runs through the other bot's
turn. To be seen waiting, the bot must be quiet in ``read(0)`` when the
referee looks, just after reading its answer: so the first newline goes out
only once the answer has left its stdout pipe (``FIONREAD`` says 0), when the
referee has read it and is about to look (the answer is padded with spaces to
make the referee's copies of it take a little longer), and the bot goes
straight back to ``read(0)``; the referee reads the newline once it has
looked, and the chain starts.

First every call that could arm a wake-up is tried, each reported as
``HOSTILE <call>: armed`` or ``HOSTILE <call>: refused (<error>)``: the
``fcntl`` commands that set an owner or a signal or the async flag, the
``ioctl`` requests that do the same (on a socket where only a socket takes
them), the same ``fcntl`` and ``ioctl`` commands with the upper 32 bits of the
argument set (the kernel reads them as 32-bit ints), installing a seccomp
filter (a task waiting on a user notification looks blocked in ``read(0)``),
and ``pidfd_open``. Then every request it reports how far the handler got off
turn and on turn (``offturn``/``onturn <increments> <seconds>``, as
sigcont_ring does).
"""

import ctypes
import errno
import fcntl
import os
import signal
import socket
import struct
import sys
import time

F_SETOWN, F_SETSIG, F_SETOWN_EX, F_OWNER_PID = 8, 10, 15, 1
FIOASYNC, FIOSETOWN, SIOCSPGRP, FIONREAD = 0x5452, 0x8901, 0x8902, 0x541B
NOTHING = bytes(4)
SYS_FCNTL, SYS_IOCTL, SYS_SECCOMP = {"x86_64": (72, 16, 317), "aarch64": (25, 29, 277)}[os.uname().machine]
UPPER = 1 << 32  # invisible to the kernel, which takes the command as a 32-bit int
SECCOMP_SET_MODE_FILTER, SECCOMP_RET_ALLOW = 1, 0x7FFF0000

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
count = 0
on_turn = True


def think(signum, frame):
    global count
    if on_turn:
        return
    end = time.monotonic() + 0.001
    while time.monotonic() < end:
        count += 1
    os.write(2, b"\n")  # the referee reads it, and that read sends the next SIGIO


signal.signal(signal.SIGIO, think)


def report(probe, outcome):
    sys.stderr.write(f"HOSTILE {probe}: {outcome}\n")
    sys.stderr.flush()


def attempt(probe, action):
    try:
        action()
    except OSError as exc:
        report(probe, f"refused ({errno.errorcode.get(exc.errno, exc.errno)})")
    else:
        report(probe, "armed")


def raw(number, *args):
    """A system call with 64-bit arguments as given, raising OSError as the os module does."""
    if libc.syscall(ctypes.c_long(number), *(ctypes.c_long(arg) for arg in args)) == -1:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))


def install_seccomp_filter():
    program = ctypes.create_string_buffer(struct.pack("HBBI", 0x06, 0, 0, SECCOMP_RET_ALLOW))  # BPF_RET|BPF_K
    fprog = ctypes.create_string_buffer(struct.pack("HxxxxxxQ", 1, ctypes.addressof(program)))
    raw(SYS_SECCOMP, SECCOMP_SET_MODE_FILTER, 0, ctypes.addressof(fprog))


pid = os.getpid()
one = struct.pack("i", 1)
owner = struct.pack("i", pid)
on = ctypes.c_int(1)
async_flag = fcntl.fcntl(2, fcntl.F_GETFL) | os.O_ASYNC
mine, _theirs = socket.socketpair()  # FIOSETOWN and SIOCSPGRP are socket requests
attempt("fcntl F_SETOWN", lambda: fcntl.fcntl(2, F_SETOWN, pid))
attempt("fcntl F_SETOWN_EX", lambda: fcntl.fcntl(2, F_SETOWN_EX, struct.pack("ii", F_OWNER_PID, pid)))
attempt("fcntl F_SETSIG", lambda: fcntl.fcntl(2, F_SETSIG, signal.SIGIO))
attempt("fcntl F_SETFL O_ASYNC", lambda: fcntl.fcntl(2, fcntl.F_SETFL, async_flag))
attempt("ioctl FIOASYNC", lambda: fcntl.ioctl(2, FIOASYNC, one))
attempt("ioctl FIOSETOWN", lambda: fcntl.ioctl(mine, FIOSETOWN, owner))
attempt("ioctl SIOCSPGRP", lambda: fcntl.ioctl(mine, SIOCSPGRP, owner))
attempt("fcntl F_SETOWN upper bits", lambda: raw(SYS_FCNTL, 2, UPPER | F_SETOWN, pid))
attempt("fcntl F_SETFL O_ASYNC upper bits", lambda: raw(SYS_FCNTL, 2, UPPER | fcntl.F_SETFL, async_flag))
attempt("ioctl FIOASYNC upper bits", lambda: raw(SYS_IOCTL, 2, UPPER | FIOASYNC, ctypes.addressof(on)))
attempt("seccomp filter", install_seccomp_filter)
attempt("pidfd_open", lambda: os.close(os.pidfd_open(pid)))
mine.close()


class Pipes:
    """The SDK's stdin and stdout: after each answer, waits until the referee has read it, starts the chain, reads."""

    def __init__(self):
        self.answer = b""
        self.requests = b""

    def write(self, data):
        self.answer += data

    def flush(self):
        global on_turn
        os.write(1, self.answer[:-1] + b" " * 60000 + b"\n")
        self.answer = b""
        while fcntl.ioctl(1, FIONREAD, NOTHING) != NOTHING:
            os.sched_yield()  # the referee may be waiting for this CPU to read it
        on_turn = False
        os.write(2, b"\n")
        self.requests += os.read(0, 65536)  # at once: the referee looks for the bot here

    def readline(self):
        while b"\n" not in self.requests:
            chunk = os.read(0, 65536)
            if not chunk:
                break
            self.requests += chunk
        line, _, self.requests = self.requests.partition(b"\n")
        return line + b"\n" if line or self.requests else line


def count_on_turn():
    global count
    end = time.monotonic() + 0.001
    while time.monotonic() < end:
        count += 1


from bots.sdk import run  # noqa: E402

answered = None
on_turn_pace = None


def play(observation, legal_actions):
    global answered, on_turn, on_turn_pace
    on_turn, now = True, time.monotonic()
    if answered is not None:  # written now, not just before the answer: the referee's read of it sends SIGIO
        sys.stderr.write(f"offturn {count - answered[1]} {now - answered[0]:.4f}\n")
        sys.stderr.write(f"onturn {on_turn_pace[0]} {on_turn_pace[1]:.4f}\n")
        sys.stderr.flush()
    start, first = time.monotonic(), count
    while time.monotonic() - start < 0.02:  # on turn: the pace of the same work while it may run
        count_on_turn()
    on_turn_pace = (count - first, time.monotonic() - start)
    answered = (time.monotonic(), count)
    return legal_actions[0]


pipes = Pipes()
run(play, stdin=pipes, stdout=pipes)
