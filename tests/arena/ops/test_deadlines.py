"""Client-side deadlines on the database (arena/ops/deadlines.py), in this process on the test database.

tests/arena/ops/test_database_hang.py hangs a real server under gunicorn;
these check the pieces quickly: a deadline cuts a call that overruns it and
the next use gets a fresh connection, and :func:`answer_within` names how the
database answered.
"""

from __future__ import annotations

import time

import pytest
from django.db import OperationalError, connection

from arena.ops.deadlines import DatabaseDeadline, answer_within


@pytest.mark.django_db(transaction=True)  # the cut connection is closed: no test transaction may live on it
def test_a_deadline_cuts_a_call_that_overruns_it_and_the_next_use_reconnects() -> None:
    connection.ensure_connection()
    before = connection.connection
    backend = before.info.backend_pid
    started = time.monotonic()
    with pytest.raises(OperationalError), DatabaseDeadline(0.3) as deadline, connection.cursor() as cursor:
        cursor.execute("SELECT pg_sleep(20)")  # the server would answer after 20 s: the client gives up first
    assert deadline.fired
    assert time.monotonic() - started < 15  # cut at 0.3 s; nowhere near the 20 s the server would take
    assert connection.connection is None  # closed when the block ended
    with DatabaseDeadline(30) as calm, connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [backend])  # the cut one, still sleeping on the server
        assert cursor.fetchone() == (True,)
    assert not calm.fired
    assert connection.connection is not before


@pytest.mark.django_db(transaction=True)  # in autocommit, as a request runs it
def test_answer_within_says_up_timed_out_or_error() -> None:
    def sleep(seconds: float) -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_sleep(%s)", [seconds])

    def statement_timeout() -> str:
        with connection.cursor() as cursor:
            cursor.execute("SHOW statement_timeout")
            return str(cursor.fetchone()[0])

    own = statement_timeout()
    assert answer_within(5, lambda: sleep(0)).state == "up"
    slow = answer_within(1, lambda: sleep(20))  # the server cancels it after 1 s
    assert (slow.state, slow.detail) == ("timed_out", "the server cancelled the statement")
    assert 1 <= slow.seconds < 15
    assert slow.describe().startswith("timed out after ")

    def divide_by_zero() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 / 0")

    broken = answer_within(5, divide_by_zero)
    assert (broken.state, broken.detail) == ("error", "division by zero")
    assert answer_within(5, lambda: sleep(0)).up  # the connection is still good after both
    assert statement_timeout() == own  # the connection's own again, from its options
