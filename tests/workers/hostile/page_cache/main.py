"""Looks at, and evicts, the page cache of the files both bots see.

mincore(2) on a mapping of a shared file tells which of its pages are cached;
posix_fadvise(DONTNEED), madvise(MADV_PAGEOUT) and cachestat(2) read or
reset that state: a sender touches or evicts pages, the receiver looks.
``madvise pageout upper bits`` passes MADV_PAGEOUT with the upper 32 bits set,
which the kernel ignores (the advice is an int).
"""

import ctypes
import mmap
import os
import sys

from bots.sdk import run

libc = ctypes.CDLL(None, use_errno=True)
libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]
libc.readahead.argtypes = [ctypes.c_int, ctypes.c_long, ctypes.c_size_t]
SYS_CACHESTAT = 451


def report(probe, outcome):
    print(f"HOSTILE {probe}: {outcome}", file=sys.stderr, flush=True)


def attempt(probe, action):
    try:
        result = action()
    except Exception as exc:
        report(probe, f"{type(exc).__name__}: {exc}")
    else:
        report(probe, f"OK {result!r}"[:300])


def errno_of(result):
    return f"OK {result}" if result >= 0 else f"OSError: {os.strerror(ctypes.get_errno())}"


fd = os.open(os.__file__, os.O_RDONLY)
size = os.fstat(fd).st_size
mapping = mmap.mmap(fd, size, prot=mmap.PROT_READ)
buffer = ctypes.create_string_buffer((size + 4095) // 4096)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
base = libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)  # the same file, mapped for mincore
report("mincore", errno_of(libc.mincore(base, size, buffer)))
attempt("fadvise dontneed", lambda: os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED))
attempt("fadvise willneed", lambda: os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_WILLNEED))
report("readahead", errno_of(libc.readahead(fd, 0, size)))
libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
report("madvise pageout", errno_of(libc.madvise(base, size, 21)))  # MADV_PAGEOUT
report("madvise cold", errno_of(libc.madvise(base, size, 20)))  # MADV_COLD
SYS_MADVISE = {"x86_64": 28, "aarch64": 233}[os.uname().machine]
upper_pageout = ctypes.c_long((1 << 32) | 21)  # the kernel reads the advice as an int: MADV_PAGEOUT
pageout = libc.syscall(SYS_MADVISE, ctypes.c_void_p(base), ctypes.c_size_t(size), upper_pageout)
report("madvise pageout upper bits", errno_of(pageout))
attempt("madvise willneed", lambda: mapping.madvise(mmap.MADV_WILLNEED))  # harmless: allowed
stat = ctypes.create_string_buffer(64)
rng = (ctypes.c_uint64 * 2)(0, 0)
report("cachestat", errno_of(libc.syscall(SYS_CACHESTAT, fd, rng, stat, 0)))

run(lambda observation, legal_actions: legal_actions[0])
