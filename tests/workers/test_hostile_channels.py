"""Hostile bots that try to signal to, or spy on, the other bot of their series, or to take what the host shares.

Both bots of a series are frozen in turn, so a channel between them needs
state that outlives a turn: a lock or a change notification on a file both
see, a host-wide count (pseudo-terminals, AIO contexts, free memory, forks),
the page cache. Each test runs the real sandbox and asserts the probe is
refused or reads nothing; docs/sandbox.md lists what remains shared, with
its measured bandwidth. The ``arena`` fixture (conftest.py) checks the host
after every series.
"""

from __future__ import annotations

import json
import math
import os
import stat
import time
from pathlib import Path
from typing import Any

from workers.sandbox import SYSTEM_DIR, bot_runtime, shared_staging

EPERM = "OSError: Operation not permitted"


def host_number(path: str) -> int:
    return int(Path(path).read_text().split()[0])


def test_two_bots_cannot_lock_or_see_locks_on_the_files_they_share(arena) -> None:
    series = arena.play("flock_spy", "flock_spy")  # both seats: each would see the other's locks
    series.assert_completed()
    for player in (0, 1):
        reports = _reports(series.stderr(player))
        probes = [probe for probe in reports if probe.split()[0] in ("flock", "lockf", "ofd", "getlk", "lease")]
        assert len(probes) == 21, reports
        for probe in probes:
            assert reports[probe].startswith("PermissionError: [Errno 1] Operation not permitted"), (probe, reports)


def _reports(text: str) -> dict[str, str]:
    found = {}
    for line in text.splitlines():
        if line.startswith("HOSTILE ") and ": " in line:
            probe, outcome = line[len("HOSTILE ") :].split(": ", 1)
            found[probe] = outcome
    return found


def test_no_bot_can_watch_which_files_the_other_opens(arena) -> None:
    series = arena.play("inotify_spy")
    series.assert_completed()
    reports = series.reports()
    assert reports["inotify_init1"] == EPERM
    assert reports["inotify_init"] == EPERM
    assert reports["fanotify_init"] == EPERM
    for path in ("/usr/lib/python3.11/os.py", "/arena/engines/__init__.py", "/bot"):
        assert reports[f"watch {path}"].startswith("OSError"), reports  # no descriptor to watch with


def test_pseudo_terminals_a_host_wide_count_cannot_be_taken(arena) -> None:
    before = host_number("/proc/sys/kernel/pty/nr")
    series = arena.play("pty_exhaust")
    series.assert_completed()
    reports = series.reports()
    assert reports["openpty"].startswith("FileNotFoundError"), reports
    assert reports["openpty"].endswith("after 0"), reports
    for path in ("/dev/ptmx", "/dev/pts/ptmx", "/dev/tty"):
        assert reports[f"open {path}"].startswith("FileNotFoundError"), reports
    assert (
        reports["dev"] == "OK ['fd', 'full', 'null', 'random', 'shm', 'stderr', 'stdin', 'stdout', 'urandom', 'zero']"
    )
    assert host_number("/proc/sys/kernel/pty/nr") - before < 10  # it took 100 before /dev lost its devpts


def test_aio_contexts_a_host_wide_count_cannot_be_taken(arena) -> None:
    before = host_number("/proc/sys/fs/aio-nr")
    series = arena.play("aio_exhaust")
    series.assert_completed()
    reports = series.reports()
    assert reports["io_setup"] == f"{EPERM} after 0", reports
    assert reports["io_submit"] == EPERM, reports
    assert host_number("/proc/sys/fs/aio-nr") - before < 4096  # one context of the bot's would be 4,096


def test_host_wide_counters_read_as_nothing(arena) -> None:
    series = arena.play("host_counters")
    series.assert_completed()
    reports = series.reports()
    for probe, outcome in reports.items():
        if not probe.startswith("read "):
            continue
        path = probe.removeprefix("read ")
        if path.startswith(("/proc/sys/", "/proc/pressure/", "/sys/")):
            assert outcome.startswith("FileNotFoundError"), (probe, outcome)  # an empty directory, or no /sys
        elif os.path.exists(path):
            assert outcome == "OK ''", (probe, outcome)  # an empty file in place of the host's
        else:
            assert outcome.startswith("FileNotFoundError"), (probe, outcome)  # this kernel has none
    assert reports["list /proc/sys"] == "OK []"
    assert reports["sysinfo"] == EPERM
    # What a bot needs of /proc still works: its own status, the CPUs it may use.
    assert reports["own status"].startswith("OK 'Name:")
    assert reports["cpu_count"].startswith("OK ")


def test_the_page_cache_of_shared_files_cannot_be_read_or_emptied(arena) -> None:
    series = arena.play("page_cache")
    series.assert_completed()
    reports = series.reports()
    for probe in ("mincore", "readahead", "cachestat", "madvise pageout", "madvise cold", "madvise pageout upper bits"):
        assert reports[probe] == EPERM, (probe, reports)
    for probe in ("fadvise dontneed", "fadvise willneed"):
        assert reports[probe].startswith("PermissionError: [Errno 1]"), (probe, reports)
    assert reports["madvise willneed"] == "OK None"  # ordinary memory advice still works


def test_the_runtime_holds_the_interpreter_stdlib_and_base_tools_and_nothing_of_the_platform(arena) -> None:
    series = arena.play("runtime_files")
    series.assert_completed()
    reports = series.reports()
    runtime = bot_runtime()
    bound_dirs = tuple(path + "/" for path in runtime.binds if os.path.isdir(path))
    promised = set(runtime.binds) | {path for _target, path in runtime.symlinks}
    promised |= {
        f"/{name}" for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32") if Path(f"/{name}").is_symlink()
    }
    files = [probe.removeprefix("file ") for probe in reports if probe.startswith("file ")]
    assert files, reports
    unexpected = [
        path for path in files if path not in promised and not path.startswith((*bound_dirs, "/tmp/", "/dev/shm/"))
    ]
    assert unexpected == [], unexpected
    assert not [path for path in files if "site-packages" in path or "dist-packages" in path or "/local/" in path]
    assert not [probe for probe in reports if probe.startswith("walk ")], reports  # nothing hidden from it either
    assert int(reports["stdlib, bot and arena files"].split()[1]) > 500  # the standard library is all there
    for module in ("django", "celery", "kombu", "redis", "psycopg", "arena", "workers", "trueskill", "pip",
                   "setuptools", "yaml", "numpy", "apt", "requests", "cryptography"):  # fmt: skip
        assert reports[f"import {module}"].startswith("ModuleNotFoundError"), (module, reports[f"import {module}"])
    for path in ("/usr/local", "/usr/lib/python3/dist-packages", "/usr/share/doc", "/etc/passwd", "/root"):
        assert reports[f"exists {path}"] == "OK False", path
    # Nothing in it is setuid or setgid (the host's mount, su, passwd are simply not there).
    system = shared_staging().root / SYSTEM_DIR
    privileged = [
        os.path.join(root, name)
        for root, _dirs, names in os.walk(system)
        for name in names
        if not os.path.islink(os.path.join(root, name))
        and os.stat(os.path.join(root, name)).st_mode & (stat.S_ISUID | stat.S_ISGID)
    ]
    assert privileged == []


def test_a_tree_built_to_make_freezing_slow_stalls_only_itself(arena) -> None:
    started = time.monotonic()
    series = arena.play("freeze_staller", "polite_slow", time_control=arena.short)
    elapsed = time.monotonic() - started
    reports = series.reports()
    assert reports["children"].startswith("OK "), reports
    # Either it plays on, paying for its freezes, or it runs out of time: never the opponent.
    for forfeit in series.forfeits:
        assert forfeit["player"] == 0, forfeit
    spent = [action["ms"] for game in series.document["games"] for action in game["actions"] if action["seat"] == 1]
    assert all(ms < arena.short.decision_ms for ms in spent), spent
    # Bounded: two games of a few dozen moves within their clocks, not the 52.7 s of a free stall.
    assert elapsed < 2 * 2 * (arena.short.bank_ms / 1000) + 10, elapsed


def test_where_hard_links_are_refused_the_runtime_is_bound_file_by_file_and_the_same(arena) -> None:
    # An unprivileged bot author's `arena play` (protected hard links), or /tmp on another file system.
    import pytest

    import workers.referee
    import workers.sandbox

    def refuse(source: str, destination: str) -> None:
        raise PermissionError(1, "Operation not permitted")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(workers.sandbox.os, "link", refuse)
        staging = workers.sandbox.Staging()
        try:
            assert not (staging.root / workers.sandbox.SYSTEM_DIR).exists()  # nothing half-made is left
            patch.setattr(workers.referee, "shared_staging", lambda: staging)
            series = arena.play("runtime_files")
            series.assert_completed()
        finally:
            staging.cleanup()
    files = {probe for probe in series.reports() if probe.startswith("file ")}
    staged = arena.play("runtime_files")
    assert files == {probe for probe in staged.reports() if probe.startswith("file ")}


def counter_messages(series) -> list[tuple[float, str, Any]]:
    """Return the sender's bits and the receiver's readings of counter_spy, in the order the turns came."""
    events: list[tuple[float, str, Any]] = []
    for player, kind in ((0, "sent"), (1, "read")):
        for line in series.stderr(player).splitlines():
            if line.startswith(kind + " "):
                when, payload = line.split(" ", 2)[1:]
                events.append((float(when), kind, int(payload) if kind == "sent" else json.loads(payload)))
    return sorted(events, key=lambda event: event[0])


def decoded_right(events: list[tuple[float, str, Any]], counter: str) -> tuple[int, int]:
    """Return how many of the sender's bits the receiver decodes from ``counter``, and out of how many.

    The receiver calls a reading a one when it is above the midpoint of its lowest and highest
    readings (all zeros when the counter never moves); each reading is compared with the bit the
    sender last set before it.
    """
    pairs, bit = [], None
    for _when, kind, payload in events:
        if kind == "sent":
            bit = payload
        elif bit is not None and payload[counter] is not None:
            pairs.append((bit, payload[counter]))
    values = [value for _, value in pairs]
    midpoint = (min(values) + max(values)) / 2
    return sum(bit == int(value > midpoint) for bit, value in pairs), len(pairs)


def test_host_wide_kernel_counters_carry_no_bit_between_the_seats(arena) -> None:
    # Player 0 holds eight TCP sockets and eight eventfds through the other's turn for a one, and
    # forks and reads socket cookies; player 1 reads TCP's counts in /proc/net, a new eventfd's id,
    # a new child's pidfd inode number and a new socket's cookie. Before the filter refused them:
    # 28 of 28 bits through /proc/net/sockstat and 28 of 28 through the eventfd ids; the pidfd and
    # cookie counters moved by exactly 1 + 8 x the bit in 21 and 24 of 27 turns.
    series = arena.play("counter_spy", "counter_spy")
    series.assert_completed()
    sender, receiver = series.reports(0), series.reports(1)
    assert sender == {
        "tcp socket": "refused (EAFNOSUPPORT)",
        "eventfd": "refused (EPERM)",
        "pidfd_open": "refused (EPERM)",
        "SO_COOKIE": "refused (EPERM)",
    }
    assert receiver == {
        "read sockstat": "OK",  # readable, but the sender cannot move it: it has no TCP socket
        "read protocols": "OK",
        "read eventfd": "refused (EPERM)",
        "read pidfd_open": "refused (EPERM)",
        "read SO_COOKIE": "refused (EPERM)",
        "read clone pidfd": "refused (EPERM)",
        "read SO_PEERPIDFD": "refused (EPERM)",
        "set SO_PASSPIDFD": "refused (EPERM)",
    }
    events = counter_messages(series)
    for counter in ("tcp_alloc", "tcp_memory", "tcp_sockets"):
        right, bits = decoded_right(events, counter)
        print(f"{counter}: {right} of {bits} bits decoded")
        assert bits >= 20, events
        # Other processes of the host move TCP's counts too, independently of the bits: chance,
        # within 3.5 standard deviations (one false alarm in about 4,000 runs).
        assert right <= bits / 2 + 1.75 * math.sqrt(bits), (counter, right, bits)
