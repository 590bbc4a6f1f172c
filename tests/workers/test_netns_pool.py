"""The worker's pool of empty network namespaces (workers.sandbox.NetnsPool): one running bot per namespace."""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path

import pytest

import workers.sandbox
from workers.cgroups import BotCgroup
from workers.sandbox import NETNS_POOL, Limits, NetnsPool, python_bot_command, shared_staging, start_bot
from workers.slots import UIDS_PER_SLOT, lease_slot


def namespace_of(fd: int) -> int:
    return os.fstat(fd).st_ino


def test_a_namespace_is_new_empty_and_not_the_workers(sandbox_ready: None) -> None:
    pool = NetnsPool()
    first, second = pool.acquire(), pool.acquire()
    try:
        own = os.stat("/proc/self/ns/net").st_ino
        assert len({namespace_of(first), namespace_of(second), own}) == 3
        assert pool.made == 2
    finally:
        pool.release(first, reusable=False)
        pool.release(second, reusable=False)


def test_a_namespace_given_back_is_handed_on_and_one_that_is_not_is_closed(sandbox_ready: None) -> None:
    pool = NetnsPool()
    fd = pool.acquire()
    made = namespace_of(fd)
    pool.release(fd, reusable=True)
    again = pool.acquire()
    assert namespace_of(again) == made
    assert pool.made == 1
    pool.release(again, reusable=False)
    with pytest.raises(OSError, match="Bad file descriptor"):
        os.fstat(again)  # closed: it dies with its last process
    fresh = pool.acquire()
    assert pool.made == 2
    pool.release(fresh, reusable=False)


def test_a_forked_worker_process_does_not_hand_out_its_parents_namespaces(sandbox_ready: None) -> None:
    pool = NetnsPool()
    pool.release(pool.acquire(), reusable=True)
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through the pipe
        os.write(write, b"%d" % len(pool._free))
        os._exit(0)
    os.close(write)
    assert os.read(read, 16) == b"0"
    os.close(read)
    os.waitpid(child, 0)
    assert len(pool._free) == 1  # the parent keeps its own


def test_a_bot_whose_processes_may_outlive_it_does_not_pass_its_namespace_on(
    sandbox_ready: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "main.py").write_text("pass\n")
    staging = shared_staging()
    with lease_slot(1000) as lease:
        process = start_bot(
            python_bot_command("main.py"), staging.add_bot(bot, "netns-outlive"), runtime_dir=staging.runtime,
            limits=Limits(), slot=lease.slot * UIDS_PER_SLOT,
        )  # fmt: skip
        netns = process.netns
        assert netns is not None
        process.popen.communicate(b"", timeout=30)
        removed = BotCgroup.remove
        monkeypatch.setattr(BotCgroup, "remove", lambda self: removed(self) and False)  # as if a process were left
        process.kill()
    assert netns not in NETNS_POOL._free
    with pytest.raises(OSError, match="Bad file descriptor"):
        os.fstat(netns)


def test_a_namespace_that_cannot_be_made_is_a_sandbox_error_saying_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers.sandbox, "NETNS_MAKER", "import sys; sys.exit('unshare(CLONE_NEWNET): refused')")
    with pytest.raises(workers.sandbox.SandboxError, match="cannot make a network namespace for a bot: unshare"):
        NetnsPool().acquire()


def test_a_namespace_that_still_holds_a_socket_is_not_handed_on(
    sandbox_ready: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    pool = NetnsPool()
    fd = pool.acquire()
    made: list[socket.socket] = []

    def make_socket_inside() -> None:  # setns moves only this thread
        workers.sandbox._enter_netns(fd)
        made.append(socket.socket(socket.AF_UNIX, socket.SOCK_STREAM))

    inside = threading.Thread(target=make_socket_inside)
    inside.start()
    inside.join()
    assert workers.sandbox.netns_sockets(fd) == 1
    monkeypatch.setattr(workers.sandbox, "NETNS_EMPTY_WAIT", 0.05)
    try:
        pool.release(fd, reusable=True)  # its processes are gone, but something of it is still there
        assert fd not in pool._free
        with pytest.raises(OSError, match="Bad file descriptor"):
            os.fstat(fd)
    finally:
        made[0].close()
    again = pool.acquire()
    assert workers.sandbox.netns_sockets(again) == 0
    assert pool.made == 2
    pool.release(again, reusable=False)
