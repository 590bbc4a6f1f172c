"""Deadlines on the database as the client sees it: a request or a check that must answer even when PostgreSQL does not.

PostgreSQL's ``statement_timeout`` (arena/settings.py) has the server cancel
a statement that runs too long, a wait for a lock included. A server that
does not answer at all cannot: a stopped process, a host gone from the
network, a proxy that stopped forwarding. libpq and psycopg then wait on the
socket for ever; under gunicorn the worker is killed at its timeout, and
``/ops/metrics``, which should say that the database is down, hangs with it.

:class:`DatabaseDeadline` bounds a block of code on the client: if the block
still runs when its time is up, a watchdog thread shuts down the sockets of
the PostgreSQL connections the block's thread uses. A call blocked on one of
them returns at once with ``OperationalError`` (the server "closed the
connection"), and so does any later use; when the block ends, those
connections are closed and the next use opens a fresh one. The sockets are
duplicated in the block's own thread (when it starts, and for every
connection opened inside it), so the watchdog never touches psycopg's objects
and never a descriptor number that may have been reused.

:class:`DatabaseDeadlineMiddleware` puts every web request under one
(``ARENA_WEB_DB_DEADLINE_S``; gunicorn's processes only), and
:func:`answer_within` runs the database part of a page under one, with the
server's statement timeout shortened to match, and says how the database
answered: up, timed out, unreachable, or an error.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.db import DatabaseError, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)

#: SQLSTATE of a statement the server cancelled (statement_timeout, or a cancel request).
QUERY_CANCELED = "57014"
#: How much longer than the statement timeout :func:`answer_within` waits before it cuts the connection: the
#: server, when it answers at all, cancels first and the connection stays usable.
CUT_GRACE_S = 0.5


class DatabaseDeadline:
    """Within ``with``: cut this thread's PostgreSQL connections if the block still runs after ``seconds``."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.due = 0.0
        #: Whether the deadline passed and the connections were cut.
        self.fired = False
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._open = False

    def __enter__(self) -> DatabaseDeadline:
        self.due = time.monotonic() + self.seconds
        self._open = True
        for wrapper in connections.all(initialized_only=True):
            self.watch(wrapper)
        _running().append(self)
        _watchdog().add(self)
        return self

    def __exit__(self, *exc_info: object) -> None:
        _watchdog().discard(self)
        _running().remove(self)
        with self._lock:
            self._open = False
            sockets, self._sockets = self._sockets, []
        for sock in sockets:
            sock.close()
        if self.fired:
            for wrapper in connections.all(initialized_only=True):
                if wrapper.vendor == "postgresql" and wrapper.connection is not None:
                    with contextlib.suppress(DatabaseError):
                        wrapper.close()  # cut: the next use opens a fresh connection

    def watch(self, wrapper: BaseDatabaseWrapper) -> None:
        """Add ``wrapper``'s open PostgreSQL connection to those cut at the deadline (called in the block's thread)."""
        raw = wrapper.connection
        if wrapper.vendor != "postgresql" or raw is None or raw.closed:
            return
        sock = socket.socket(fileno=os.dup(raw.fileno()))  # ours: psycopg may close its own descriptor meanwhile
        with self._lock:
            if self._open:
                self._sockets.append(sock)
                if self.fired:
                    _shut(sock)
                return
        sock.close()

    def cut(self) -> None:
        """Shut down the watched sockets: whatever waits on them fails at once (called by the watchdog)."""
        with self._lock:
            if not self._open or self.fired:
                return
            self.fired = True
            for sock in self._sockets:
                _shut(sock)


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):  # already closed by the server or the network
        sock.shutdown(socket.SHUT_RDWR)


class _Watchdog:
    """One thread per process that cuts each deadline when it is due; asleep while nothing is due."""

    def __init__(self) -> None:
        self._deadlines: set[DatabaseDeadline] = set()
        self._changed = threading.Condition()
        self._wake_at: float | None = None
        self._thread: threading.Thread | None = None

    def add(self, deadline: DatabaseDeadline) -> None:
        with self._changed:
            self._deadlines.add(deadline)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="arena-database-deadlines", daemon=True)
                self._thread.start()
            if self._wake_at is None or deadline.due < self._wake_at:
                self._changed.notify()

    def discard(self, deadline: DatabaseDeadline) -> None:
        with self._changed:
            self._deadlines.discard(deadline)

    def _run(self) -> None:
        with self._changed:
            while True:
                now = time.monotonic()
                for deadline in [d for d in self._deadlines if d.due <= now]:
                    self._deadlines.discard(deadline)
                    deadline.cut()
                    logger.warning(
                        "the database did not answer within %.1f s: this thread's connections were cut",
                        deadline.seconds,
                    )
                self._wake_at = min((d.due for d in self._deadlines), default=None)
                self._changed.wait(None if self._wake_at is None else max(0.0, self._wake_at - now))


_state = threading.local()
_process: dict[str, Any] = {}


def _running() -> list[DatabaseDeadline]:
    """The deadlines this thread is inside, innermost last."""
    if not hasattr(_state, "deadlines"):
        _state.deadlines = []
    return _state.deadlines


def _watchdog() -> _Watchdog:
    """This process's watchdog (a forked child starts its own: threads do not survive a fork)."""
    if _process.get("pid") != os.getpid():
        _process.update(pid=os.getpid(), watchdog=_Watchdog())
    return _process["watchdog"]


def _watch_new_connection(sender: object, connection: BaseDatabaseWrapper, **_: object) -> None:
    """A connection opened inside a deadline (a reconnection) is cut with the others."""
    for deadline in _running():
        deadline.watch(connection)


connection_created.connect(_watch_new_connection, dispatch_uid="arena.ops.deadlines")


class DatabaseDeadlineMiddleware:
    """Put each web request under a :class:`DatabaseDeadline` of ``ARENA_WEB_DB_DEADLINE_S`` (web processes only).

    A request whose database does not answer then ends with an error page,
    before gunicorn's timeout would kill the worker. Other processes (the
    embedded server, tests) have no such timeout: Django leaves this out.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        if not settings.ARENA_WEB_DB_DEADLINE_S:
            raise MiddlewareNotUsed
        self.get_response = get_response
        self.seconds = float(settings.ARENA_WEB_DB_DEADLINE_S)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with DatabaseDeadline(self.seconds):
            return self.get_response(request)


@dataclass(frozen=True)
class DatabaseAnswer:
    """How the database answered a piece of work: its state, how long it took, and what went wrong."""

    #: "up", "timed_out", "unreachable" or "error".
    state: str
    seconds: float
    detail: str = ""

    STATES = ("up", "timed_out", "unreachable", "error")

    @property
    def up(self) -> bool:
        return self.state == "up"

    def describe(self) -> str:
        """Return the answer in words, with the time it took: "timed out after 3.0 s"."""
        words = {"up": "answered", "timed_out": "timed out", "unreachable": "unreachable", "error": "failed"}
        text = f"{words[self.state]} after {self.seconds:.1f} s"
        return f"{text} ({self.detail})" if self.detail else text


def answer_within(seconds: float, work: Callable[[], None]) -> DatabaseAnswer:
    """Run the database ``work`` of this thread's default connection within about ``seconds``; say how it went.

    The connection is checked (or opened) first: a failure there is
    "unreachable"; opening is bounded by the connect timeout, which may be
    longer than ``seconds``. The server cancels each statement of the work
    after ``seconds`` (PostgreSQL), and the client cuts the connection
    :data:`CUT_GRACE_S` later if the server does not answer at all: either is
    "timed out". Any other database error is "error"; the work's own results
    count only when the answer is "up". The work runs in autocommit, not in a
    transaction: a transaction's end would open a fresh connection to roll a
    cut one back, and wait for the connect timeout.
    """
    started = time.monotonic()
    postgresql = connection.vendor == "postgresql"

    def answer(state: str, detail: str = "") -> DatabaseAnswer:
        return DatabaseAnswer(state, round(time.monotonic() - started, 3), detail)

    with DatabaseDeadline(seconds + CUT_GRACE_S) as deadline:
        with contextlib.suppress(DatabaseError):  # closing a broken connection: the next use opens a fresh one
            connection.close_if_health_check_failed()  # a kept connection's SELECT 1 may hang too
        if deadline.fired:
            return answer("timed_out", "no answer to the connection's health check")
        try:
            connection.ensure_connection()
        except DatabaseError as exc:
            return answer("unreachable", _first_line(exc))
        try:
            if postgresql:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT set_config('statement_timeout', %s, false)", [f"{int(seconds * 1000)}ms"])
            try:
                work()
            finally:
                if postgresql and not deadline.fired:
                    with contextlib.suppress(DatabaseError), connection.cursor() as cursor:
                        cursor.execute("RESET statement_timeout")  # back to the connection's own (its options)
        except DatabaseError as exc:
            if deadline.fired:
                return answer("timed_out", "no answer from the server: the connection was cut")
            if getattr(exc.__cause__, "sqlstate", None) == QUERY_CANCELED:
                return answer("timed_out", "the server cancelled the statement")
            return answer("error", _first_line(exc))
    return answer("up")


def _first_line(exc: BaseException) -> str:
    """Return the first line of ``exc``'s message, short enough for a comment in a metrics page."""
    lines = str(exc).strip().splitlines()
    return (lines[0] if lines else type(exc).__name__)[:200]
