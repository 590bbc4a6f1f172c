"""Hostile bots that try to get out of the sandbox, run through the real sandbox.

These bots try their attack at start-up, write what happened to stderr as
``HOSTILE <probe>: <outcome>`` lines, then play the first legal action. Each
test asserts from the result document that every attempt failed the way the
sandbox layer makes it fail, and that the series completed with no forfeit;
the ``arena`` fixture (conftest.py) checks the host afterwards.
docs/sandbox.md maps each bot to the layer it tests.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import secrets
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

import workers.sandbox
from workers.sandbox import shared_staging

#: What the seccomp filter answers for a socket of any family but AF_UNIX (workers/sandbox.py AF_UNIX).
NO_FAMILY = "[Errno 97] Address family not supported by protocol"


def host_addresses() -> list[str]:
    """The host's own addresses, as ``hostname -I`` lists them."""
    try:
        listed = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=5).stdout.split()
    except (OSError, subprocess.SubprocessError):
        listed = []
    return [address for address in listed if not address.startswith(("127.", "::1"))]


def elapsed(outcome: str) -> float:
    return float(re.search(r"\(([\d.]+) s\)$", outcome).group(1))  # type: ignore[union-attr]


# -- the network ---------------------------------------------------------------------------------
def test_no_network_loopback_host_or_internet(arena) -> None:
    addresses = host_addresses()
    bot = arena.package("net_tcp", targets={"host_addresses": addresses, "host_ports": [5432, 6379, 22]})
    series = arena.play(bot)
    series.assert_completed()
    reports = series.reports()
    tcp = {probe: outcome for probe, outcome in reports.items() if probe.startswith("tcp ")}
    assert len(tcp) == 5 + 3 * len(addresses), reports
    # No socket of any family but AF_UNIX can be made (the filter answers as a kernel without
    # the family would): no TCP or UDP to the host's Redis and PostgreSQL, its own addresses or
    # the Internet, no packet or netlink socket, and every probe fails at once.
    for probe, outcome in tcp.items():
        assert outcome.startswith(f"OSError: {NO_FAMILY}"), (probe, outcome)
        assert elapsed(outcome) < 0.5, (probe, outcome)
    for probe in ("udp 1.1.1.1 53", "packet socket", "netlink socket", "inet socketpair", "inet socket upper bits"):
        assert reports[probe] == f"OSError: {NO_FAMILY}", (probe, reports[probe])
    assert reports["interfaces"].startswith("OSError"), reports  # glibc asks netlink
    assert reports["interfaces in /proc/net/dev"] == "OK ['lo']"  # the empty namespace's one interface
    assert reports["unix socket pair"] == "OK b'ping'"  # what a bot may use: its own unix sockets


def test_no_name_resolution(arena) -> None:
    series = arena.play("dns")
    series.assert_completed()
    reports = series.reports()
    for name in ("example.com", "redis", "postgres", "localhost"):
        assert reports[f"lookup {name}"].startswith("gaierror"), reports
        assert float(reports[f"lookup {name} took"].split()[0]) < 1.0, reports


def test_each_running_bot_has_a_network_namespace_of_its_own_and_finds_nothing_an_earlier_one_left(arena) -> None:
    """Namespaces are pooled per worker (workers.sandbox.NetnsPool): never two bots in one at a time."""
    host = os.readlink("/proc/self/ns/net")
    seen: list[set[str]] = []
    for _ in range(2):  # the second series gets the namespaces the first one gave back
        series = arena.play("netns_neighbour", "netns_neighbour")
        series.assert_completed()
        found = [series.reports(player) for player in (0, 1)]
        namespaces = {seat["namespace"] for seat in found}
        assert len(namespaces) == 2
        assert host not in {name.removeprefix("OK ").strip("'") for name in namespaces}
        seen.append(namespaces)
        for seat in found:
            # Alone: the name both seats bind is free, and the only listener is its own.
            assert seat["bind shared name"] == "OK None", seat
            assert seat["connect shared name"] == "OK None", seat
            # Nothing of another bot, earlier or concurrent: its own unix socket is the one socket there.
            assert seat["sockets unix"] in ("OK 0", "OK 1"), seat
            for table in ("tcp", "tcp6", "udp", "udp6", "raw", "packet"):
                assert seat[f"sockets {table}"] in ("OK 0", "FileNotFoundError"), (table, seat)
            # No capability over the namespace: its loopback stays down.
            assert seat["loopback up"].startswith("PermissionError"), seat
    assert seen[0] == seen[1]  # the same two namespaces, each passed on only once its bot had gone


#: /proc/net figures that are the host's, not the namespace's: two namespaces read a moment apart
#: differ in them whatever any bot did (and a bot, with unix sockets only, moves none of them).
HOST_WIDE = re.compile(r"\b(orphan|alloc|mem) \d+")


def namespace_part(path: str, content: str) -> str:
    """Return what of ``/proc/net/<path>`` belongs to the network namespace it was read in."""
    if path in ("softnet_stat", "stat/rt_cache"):
        return ""  # per-CPU counts of the whole host
    lines = content.splitlines()
    if path == "netlink":  # the namespace's own kernel sockets: their (hashed) addresses and inode numbers
        return "\n".join(" ".join(field for i, field in enumerate(line.split()) if i not in (0, 9)) for line in lines)
    if path == "protocols":  # the memory and pressure columns count every namespace's sockets
        return "\n".join(" ".join(field for i, field in enumerate(line.split()) if i not in (3, 4)) for line in lines)
    if path == "sockstat":  # TCP's orphans, sockets allocated and memory, UDP's memory: host-wide
        return HOST_WIDE.sub(r"\1 -", content)
    return content


def test_a_pooled_network_namespace_shows_nothing_of_its_last_bot(arena, monkeypatch) -> None:
    """A namespace a dirty bot gave back reads, in every /proc/net file, as one never used."""
    pool = workers.sandbox.NetnsPool()
    monkeypatch.setattr(workers.sandbox, "NETNS_POOL", pool)
    dirty = arena.package("netns_dirt", targets={"mode": "dirty"})
    first = arena.play(dirty, dirty)
    first.assert_completed()
    used = [first.reports(player)["namespace"] for player in (0, 1)]
    for player in (0, 1):
        left = first.reports(player)
        assert left["abstract names"] == "OK 8", left
        assert left["cycle"] == "OK 'left in flight'", left
        for probe in ("tcp 127.0.0.1", "tcp 10.1.2.3", "tcp ::1", "udp 1.1.1.1", "ping", "raw"):
            assert left[probe] == f"OSError: {NO_FAMILY}", (probe, left[probe])
        for probe in ("loopback up", "loopback mtu", "loopback name"):
            assert left[probe].startswith("PermissionError"), (probe, left[probe])
    # Take series 1 player 1's namespace out: series 2 player 0 gets player 0's back, player 1 a new one.
    held = pool.acquire()
    try:
        dump = arena.package("netns_dirt", targets={"mode": "dump"})
        second = arena.play(dump, dump, stderr_cap_bytes=1024 * 1024)
    finally:
        pool.release(held, reusable=False)
    second.assert_completed()
    reused, fresh = (second.reports(player) for player in (0, 1))  # the two dumps, player 0's and 1's
    assert reused["namespace"] == used[0], (reused["namespace"], used)  # handed on, not made again
    assert fresh["namespace"] not in used
    assert pool.made == 3
    files = sorted(probe.removeprefix("file ") for probe in fresh if probe.startswith("file "))
    assert len(files) > 20, files
    assert {"unix", "snmp", "snmp6", "netstat", "sockstat", "dev"} <= set(files), files
    assert sorted(probe.removeprefix("file ") for probe in reused if probe.startswith("file ")) == files
    both = {path: [json.loads(dump[f"file {path}"]) for dump in (reused, fresh)] for path in files}
    assert {path: pair for path, pair in both.items() if len({namespace_part(path, text) for text in pair}) > 1} == {}


@pytest.fixture
def abstract_socket() -> Iterator[tuple[str, socket.socket]]:
    """A listening abstract unix socket on the host: scoped to the host's network namespace."""
    name = "arena-hostile-" + secrets.token_hex(8)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind("\0" + name)
    listener.listen(1)
    listener.setblocking(False)
    yield name, listener
    listener.close()


def test_no_unix_sockets_of_the_host(arena, abstract_socket: tuple[str, socket.socket]) -> None:
    name, listener = abstract_socket
    series = arena.play(arena.package("unix_socket", targets={"abstract_name": name}))
    series.assert_completed()
    reports = series.reports()
    for path in ("/var/run/postgresql/.s.PGSQL.5432", "/run/postgresql/.s.PGSQL.5432", "/var/run/docker.sock"):
        assert reports[f"unix {path}"].startswith("FileNotFoundError"), reports
    assert reports["unix abstract"].startswith("ConnectionRefusedError"), reports
    assert reports["unix sockets visible"] == "OK 0", reports
    with pytest.raises(BlockingIOError):
        listener.accept()  # nobody ever reached the host's listener


# -- processes and secrets ------------------------------------------------------------------------
def test_no_environment_of_the_referee_or_other_processes(arena, canary: str) -> None:
    bot = arena.package("proc_environ", targets={"referee_pid": os.getpid()})
    series = arena.play(bot)
    series.assert_completed()
    reports = series.reports()
    assert reports["pids"] == "[1, 2]", reports  # its own pid namespace: bubblewrap's init and itself
    assert set(ast.literal_eval(reports["own environ"])) <= {"PWD", "LC_CTYPE"}, reports
    assert reports["environ 1"] == "OK ''", reports  # the sandbox's init was started with an empty environment
    assert reports[f"environ {os.getpid()}"].startswith("FileNotFoundError"), reports
    assert canary not in json.dumps(series.document)  # also checked by the arena, for every series
    assert canary not in series.stderr()


def test_no_way_to_the_opponents_files(arena) -> None:
    secret = "opponent-secret-" + secrets.token_hex(16)
    opponent = arena.package("polite", files={"secret.txt": secret})
    bot = arena.package("other_bot", targets={"opponent_dir": str(opponent.directory)})
    series = arena.play(bot, opponent)
    series.assert_completed()
    reports = series.reports()
    assert secret not in json.dumps(series.document)
    assert reports["opponent dir"].startswith("FileNotFoundError"), reports
    assert reports["opponent secret"].startswith("FileNotFoundError"), reports
    assert reports["staging glob"] == "OK []", reports
    assert reports["find secret.txt"] == "OK []", reports
    assert reports["bot"] == "OK ['bot.toml', 'main.py', 'targets.json']", reports
    assert reports["arena"] == "OK ['bots', 'engines']", reports  # the public runtime only


def test_no_platform_settings_credentials_or_host_files(arena) -> None:
    repo = Path(__file__).resolve().parents[2]
    series = arena.play(arena.package("secrets", targets={"repo_root": str(repo)}))
    series.assert_completed()
    reports = series.reports()
    for probe, outcome in reports.items():
        if probe.startswith("read "):
            assert outcome.startswith("FileNotFoundError"), (probe, outcome)
    # The checkout's top folder is absent, or (when it is /tmp) the sandbox's own empty one.
    top_listing = reports[f"list /{repo.parts[1]}"]
    assert top_listing.startswith("FileNotFoundError") or repo.parts[2] not in top_listing, top_listing
    for path in ("/etc/postgresql", "/root", "/home"):
        assert reports[f"list {path}"].startswith("FileNotFoundError"), reports
    # The dynamic linker's cache, the time zone, Python's own site configuration, awk's alternative.
    assert reports["list /etc"] == "OK ['alternatives', 'ld.so.cache', 'localtime', 'python3.11']", reports
    assert reports["list /proc/1/cwd"] == "OK ['bot.toml', 'main.py', 'targets.json']", reports  # init sits in /bot
    assert reports["cwd"] == "OK '/bot'"
    mounts = {probe.removeprefix("mount ") for probe in reports if probe.startswith("mount ")}
    # The runtime is a staged tree of its own files (workers/sandbox.py bot_runtime), never the host's /usr.
    assert mounts <= {"/", "/proc", "/dev", "/tmp", "/dev/shm", "/bot", "/arena", "/usr", "/etc"} | {
        path for path in mounts if path.startswith(("/dev/", "/proc/"))
    }, mounts
    assert reports["mount /usr"].endswith("/system/usr"), reports["mount /usr"]
    assert reports["mount /etc"].endswith("/system/etc"), reports["mount /etc"]
    assert reports["fds"] == "OK ['0', '1', '2', '3']", reports  # stdin, stdout, stderr and the listing itself
    assert "SECRET_KEY" not in json.dumps(series.document)


# -- the file system ------------------------------------------------------------------------------
HOST_PATHS_THE_BOT_WRITES = [
    "/hostile-was-here",
    "/hostile-dir",
    "/usr/hostile-was-here",
    "/usr/lib/python3/dist-packages/hostile_was_here.py",
    "/etc/hostile-was-here",
    "/tmp/arena-hostile-was-here",
    "/dev/shm/arena-hostile-was-here",
]


def tree_digest(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        digest.update(str(path.relative_to(root)).encode())
        if path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def test_no_writes_outside_tmp(arena) -> None:
    assert not [path for path in HOST_PATHS_THE_BOT_WRITES if os.path.lexists(path)]
    source = arena.hostile_dir / "write_fs"
    before = tree_digest(source)
    series = arena.play("write_fs")
    series.assert_completed()
    reports = series.reports()
    for probe, outcome in reports.items():
        if probe in ("write /tmp/arena-hostile-was-here", "write /dev/shm/arena-hostile-was-here"):
            assert outcome == "OK 'written'", (probe, outcome)  # its own tmpfs: allowed
        elif probe == "write /usr/lib/python3/dist-packages/hostile_was_here.py":
            assert outcome.startswith("FileNotFoundError"), outcome  # not in the bots' runtime at all
        else:
            assert outcome.startswith(("PermissionError", "OSError: [Errno 30] Read-only file system")), (
                probe,
                outcome,
            )
    # Nothing reached the host: not the paths it wrote, not its package, not its staged copy.
    assert not [path for path in HOST_PATHS_THE_BOT_WRITES if os.path.lexists(path)]
    assert tree_digest(source) == before
    staged = [path for path in shared_staging().root.rglob("*") if "hostile" in path.name or path.name == "moved.py"]
    assert staged == []
    for main in shared_staging().root.glob("bot-*/main.py"):
        assert not main.read_text().endswith("# hostile was here\n"), main


def test_programs_it_writes_to_tmp_run_inside_the_same_sandbox(arena) -> None:
    # /tmp and /dev/shm are not mounted noexec: a bot can already run any code through its
    # interpreter, so what matters is that a program it writes gets nothing more than the bot has.
    series = arena.play("exec_tmp")
    series.assert_completed()
    reports = series.reports()
    uid = arena.uids()[0]
    own = reports["self"]
    assert own.startswith(f"uid={uid} "), own
    for probe in ("exec /tmp/probe.sh", "exec /dev/shm/probe.sh"):
        assert reports[probe] == f"OK 'exit 0: {own}'", (probe, reports[probe])
    assert reports["exec /tmp/true"] == "OK 'exit 0:'"


# -- the kernel -----------------------------------------------------------------------------------
def test_ptrace_and_process_vm_are_refused(arena) -> None:
    series = arena.play("ptrace")
    series.assert_completed()
    reports = series.reports()
    for probe in (
        "ptrace traceme",
        "ptrace attach 1",
        "ptrace attach child",
        "ptrace seize child",
        "process_vm_readv child",
    ):
        assert reports[probe].startswith("PermissionError: [Errno 1]"), (probe, reports[probe])
    assert not reports["read /proc/1/mem"].startswith("OK"), reports


def test_no_namespaces_mounts_or_privileges(arena) -> None:
    series = arena.play("unshare_mount")
    series.assert_completed()
    reports = series.reports()
    for probe in (
        "unshare user",
        "unshare mount",
        "unshare pid",
        "unshare net",
        "mount tmpfs",
        "remount / rw",
        "umount /bot",
        "chroot /tmp",
        "setns /proc/1/ns/mnt",
    ):
        assert reports[probe].startswith("PermissionError: [Errno 1]"), (probe, reports[probe])
    uid = str(arena.uids()[0])
    status = ast.literal_eval(reports["status"])
    assert status["Uid"] == [uid] * 4
    assert status["Gid"] == [uid] * 4
    assert status["CapEff"] == status["CapPrm"] == status["CapBnd"] == ["0000000000000000"]
    assert status["NoNewPrivs"] == ["1"]
    assert status["Seccomp"] == ["2"]  # a filter is loaded
    # No setuid program is in the bots' runtime at all (test_hostile_channels checks every file);
    # no_new_privs above would make one run without its privileges anyway.
    assert reports["setuid mount"].startswith("FileNotFoundError"), reports
    assert not reports["setuid 0"].startswith("OK"), reports
