"""PostgreSQL and Redis servers of a test's own, on free ports, that the test may restart at will; a stalling proxy.

The suite's shared servers (5432, 6379) are never restarted: other tests and
other users of the machine rely on them. These start from nothing in a
temporary directory (PostgreSQL's cluster belongs to the ``postgres`` user,
as initdb refuses root) and are stopped and removed afterwards.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def descendants(pid: int, prune: frozenset[int] = frozenset()) -> list[int]:
    """Return every process below ``pid``, from each of its threads' children, as /proc shows them now.

    Nothing of ``prune`` or below it is returned: one walk that never enters a subtree,
    where removing a subtree read a moment earlier would keep whatever started in it between
    the two reads. A process that exits during the walk is passed over.
    """
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = list(Path(f"/proc/{parent}/task").iterdir())
        except OSError:  # it exited meanwhile
            continue
        for task in tasks:
            try:
                children = [int(child) for child in (task / "children").read_text().split() if int(child) not in prune]
            except OSError:
                continue
            found += children
            todo += children
    return found


class MatchWorker:
    """A ``celery -A workers.celery_app worker`` on the matches queue named ``name``, one process, output in a file."""

    def __init__(self, name: str, env: dict[str, str], log: Path) -> None:
        self.name = f"{name}@{socket.gethostname()}"
        self.log = log
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker", "-Q", "matches", "-c", "1",
             "-n", self.name, "-l", "info", "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=REPO, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_ready(self, timeout_s: float = 60) -> None:
        """Wait until it says it is ready; fail with its output if it exits or takes longer."""
        deadline = time.monotonic() + timeout_s
        while " ready." not in self.output():
            if self.process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"match worker {self.name} not ready:\n{self.output()[-6000:]}")
            time.sleep(0.1)

    def stop(self) -> None:
        """SIGTERM its process group (a warm shutdown), SIGKILL after 20 s."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def wait_port(port: int, timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    pytest.fail(f"nothing listens on port {port} after {timeout_s:.0f} s")


class OwnRedis:
    """A redis-server on a free port: without persistence, or with an append-only file (``persistent``)."""

    def __init__(self, persistent: bool = False) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.persistent = persistent
        self.directory = Path(tempfile.mkdtemp(prefix="arena-redis-"))
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        keep = ["--appendonly", "yes", "--appendfsync", "always"] if self.persistent else ["--appendonly", "no"]
        self.process = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--dir", str(self.directory), *keep],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_port(self.port)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def restart(self, down_s: float = 1.0, wipe: bool = True) -> None:
        """Kill the server and start it again after ``down_s``; ``wipe`` also deletes what it kept on disk.

        Without persistence everything in it is lost either way; with it, a
        restart that does not wipe comes back with every message it held.
        """
        self.stop()
        if wipe:
            for path in self.directory.iterdir():
                shutil.rmtree(path) if path.is_dir() else path.unlink()
        time.sleep(down_s)
        self.start()

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)


def postgres_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        pytest.fail(f"PostgreSQL's {name} is missing: run `bash .ci/setup --services`")
    return found[-1]


class OwnPostgres:
    """A PostgreSQL cluster of the test's own (trust authentication, fsync off) on a free port."""

    def __init__(self) -> None:
        self.port = free_port()
        self.directory = Path(tempfile.mkdtemp(prefix="arena-pg-"))
        shutil.chown(self.directory, "postgres", "postgres")
        self.data = self.directory / "data"
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/arena"

    def _as_postgres(self, *command: str) -> None:
        # Output to a file, never a pipe: the server pg_ctl starts would hold a pipe open for ever.
        output = self.directory / "commands.log"
        with output.open("ab") as sink:
            result = subprocess.run(
                ["runuser", "-u", "postgres", "--", *command], stdout=sink, stderr=sink, timeout=120, check=False
            )
        if result.returncode:
            log = (self.directory / "log").read_text() if (self.directory / "log").exists() else ""
            pytest.fail(f"{' '.join(command)} failed:\n{output.read_text()[-2000:]}\n{log[-2000:]}")

    def start(self) -> None:
        if not self.data.exists():
            self._as_postgres(postgres_bin("initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "-N")
        options = f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._as_postgres(
            postgres_bin("pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.directory / "log"),
            "-w",
            "start",
        )

    def create_database(self, name: str = "arena") -> None:
        self._as_postgres(postgres_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port), name)

    def restart(self, mode: str = "fast") -> None:
        """Restart the server: ``fast`` (clients told to go) or ``immediate`` (as a crash)."""
        self._as_postgres(
            postgres_bin("pg_ctl"), "-D", str(self.data), "-l", str(self.directory / "log"), "-m", mode, "-w", "restart"
        )

    def server_processes(self) -> list[int]:
        """Return the postmaster's pid, then every process below it (backends, background workers)."""
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        return [postmaster, *descendants(postmaster)]

    def freeze(self) -> None:
        """Stop every process of the server (SIGSTOP): clients' connections stay open and get no answer."""
        postmaster, *others = self.server_processes()
        os.kill(postmaster, signal.SIGSTOP)  # first, so that it starts no process meanwhile
        for pid in others:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)

    def thaw(self) -> None:
        """Let the server's processes go on (SIGCONT) after :meth:`freeze`."""
        postmaster, *others = self.server_processes()
        for pid in others:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        os.kill(postmaster, signal.SIGCONT)

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            subprocess.run(
                ["runuser", "-u", "postgres", "--", postgres_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate",
                 "-w", "stop"],
                capture_output=True, timeout=60, check=False,
            )  # fmt: skip
        shutil.rmtree(self.directory, ignore_errors=True)


def service_environment(**values: str) -> dict[str, str]:
    """This process's environment without the project's own settings, plus ``values``."""
    repo = Path(__file__).resolve().parents[2]
    base = {
        key: value
        for key, value in os.environ.items()
        if not (key.startswith(("ARENA_", "PG", "CELERY", "DJANGO_")) or "DATABASE" in key)
    }
    base["PYTHONPATH"] = os.pathsep.join([str(repo), str(repo / "platform")])
    base.update(values)
    return base


class StallingProxy:
    """A TCP proxy on a free port to ``target_port`` that the test can make stop forwarding, as a hung server would.

    While stalled (:meth:`stall`) it still accepts connections and reads what
    clients send, but passes nothing on in either direction: to its clients
    the server neither answers nor goes away, which is what a stopped server
    process or a network that drops everything looks like. :meth:`resume`
    passes on what was held and goes on. Only the test's own connections go
    through it; the server behind it is never touched.
    """

    def __init__(self, target_port: int, target_host: str = "127.0.0.1") -> None:
        self.target = (target_host, target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.flowing = threading.Event()
        self.flowing.set()
        self.closed = False
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, name="stalling-proxy", daemon=True).start()

    def stall(self) -> None:
        self.flowing.clear()

    def resume(self) -> None:
        self.flowing.set()

    def close(self) -> None:
        self.closed = True
        self.flowing.set()
        self.listener.close()
        for sock in list(self.sockets):
            sock.close()

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.target, timeout=10)
            except OSError:
                client.close()
                continue
            server.settimeout(None)
            self.sockets += [client, server]
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while True:
                data = source.recv(65536)
                self.flowing.wait()  # stalled: hold what came until resumed
                if not data or self.closed:
                    break
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
