"""Tries ptrace (on itself, pid 1 and its own child) and process_vm_readv. Reports, then plays."""

import ctypes
import os
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


libc = ctypes.CDLL(None, use_errno=True)
PTRACE_TRACEME, PTRACE_ATTACH, PTRACE_SEIZE = 0, 16, 0x4206


def call(function, *args):
    result = function(*args)
    if result == -1:
        error = ctypes.get_errno()
        raise OSError(error, f"{os.strerror(error)} (errno {error})")
    return result


class IOVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("length", ctypes.c_size_t)]


def vm_read(pid):
    buffer = ctypes.create_string_buffer(64)
    local = IOVec(ctypes.cast(buffer, ctypes.c_void_p), 64)
    remote = IOVec(ctypes.cast(buffer, ctypes.c_void_p), 64)
    return call(libc.process_vm_readv, pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0)


def read_first_byte(path):
    with open(path, "rb") as handle:
        return handle.read(1)


child = os.fork()
if child == 0:
    time.sleep(3600)
try:
    attempt("ptrace traceme", lambda: call(libc.ptrace, PTRACE_TRACEME, 0, None, None))
    attempt("ptrace attach 1", lambda: call(libc.ptrace, PTRACE_ATTACH, 1, None, None))
    attempt("ptrace attach child", lambda: call(libc.ptrace, PTRACE_ATTACH, child, None, None))
    attempt("ptrace seize child", lambda: call(libc.ptrace, PTRACE_SEIZE, child, None, None))
    attempt("process_vm_readv child", lambda: vm_read(child))
    attempt("read /proc/1/mem", lambda: read_first_byte("/proc/1/mem"))
finally:
    os.kill(child, 9)
    os.waitpid(child, 0)

run(lambda observation, legal_actions: legal_actions[0])
