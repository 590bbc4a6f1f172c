"""Tries new namespaces, mounts, chroot, setns and a setuid binary; reports its privileges. Then plays."""

import ctypes
import os
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


libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x00020000, 0x10000000, 0x20000000, 0x40000000


def call(function, *args):
    result = function(*args)
    if result == -1:
        error = ctypes.get_errno()
        raise OSError(error, f"{os.strerror(error)} (errno {error})")
    return result


def setns(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        return call(libc.setns, fd, 0)
    finally:
        os.close(fd)


def status():
    with open("/proc/self/status") as handle:
        wanted = ("Uid", "Gid", "CapEff", "CapPrm", "CapBnd", "NoNewPrivs", "Seccomp")
        return {line.split(":")[0]: line.split(":")[1].split() for line in handle if line.split(":")[0] in wanted}


report("status", status())
for name, flag in [("user", CLONE_NEWUSER), ("mount", CLONE_NEWNS), ("pid", CLONE_NEWPID), ("net", CLONE_NEWNET)]:
    attempt(f"unshare {name}", lambda flag=flag: call(libc.unshare, flag))
attempt("mount tmpfs", lambda: call(libc.mount, b"none", b"/tmp", b"tmpfs", 0, None))
attempt("remount / rw", lambda: call(libc.mount, None, b"/", None, 0x20 | 0x1000, None))  # MS_REMOUNT | MS_BIND
attempt("umount /bot", lambda: call(libc.umount2, b"/bot", 2))  # MNT_DETACH
attempt("chroot /tmp", lambda: call(libc.chroot, b"/tmp"))
attempt("setns /proc/1/ns/mnt", lambda: setns("/proc/1/ns/mnt"))
attempt(
    "setuid mount",
    lambda: (
        subprocess.run(
            ["/usr/bin/mount", "-t", "tmpfs", "none", "/tmp"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=5,
            env={},
        ).returncode
    ),
)
attempt("setuid 0", lambda: os.setuid(0))

run(lambda observation, legal_actions: legal_actions[0])
