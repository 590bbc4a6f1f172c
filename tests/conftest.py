"""Fixtures for the whole suite: a Redis server of this run's own, Celery's current app kept.

A test touches only what it created. The machine's Redis on 6379 is shared by
every copy of the suite running there (another engineer's, CI's) and perhaps a
live ladder: a test that flushed one of its databases, or sent to its
``matches`` queue, would empty another run's queues or have another run's
match worker take its series. So tests that need Redis take a database of
:func:`own_redis_server` instead: a ``redis-server`` started for this pytest
process on a free port (tests/arena/services.py), stopped at its end.

Every test fails if it leaves another Celery app current than it found
(:func:`celery_current_app_kept`, tests/celery_state.py).

A suite started in the background (``&`` in a script, ``nohup``) inherits Ctrl-C
(SIGINT) ignored, and so would every process it starts: the tests that press
Ctrl-C on a served site would wait for a stop that never comes.
:func:`pytest_configure` gives this process, and so its children, Ctrl-C back.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest

from tests.arena.services import OwnRedis
from tests.celery_state import keeping_celery_current_app


def pytest_configure(config: pytest.Config) -> None:
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put the files marked ``slow`` first, each file's tests in their order.

    A test file goes to one xdist worker at a time, in collection order
    (manage.py): the long files, which mostly wait, start at once and the
    others fill the workers beside them, instead of the long ones running
    alone at the end.
    """
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture
def toy() -> Iterator[None]:
    """The toy tic-tac-toe (tests/toygame/tictactoe.py) registered as a game for the test."""
    from tests.toygame.registry import registered
    from tests.toygame.tictactoe import DECLARATION, REFERENCE_BOTS

    with registered(DECLARATION, REFERENCE_BOTS):
        yield


@pytest.fixture(autouse=True)
def celery_current_app_kept() -> Iterator[None]:
    """Fail a test that leaves another Celery app current than it found (tests/celery_state.py)."""
    with keeping_celery_current_app():
        yield


@pytest.fixture(scope="session")
def own_redis_server() -> Iterator[str]:
    """The URL (``redis://127.0.0.1:<port>``, no database) of a Redis server only this run uses."""
    server = OwnRedis()
    try:
        server.start()
    except FileNotFoundError:
        pytest.fail("redis-server is missing: run `bash .ci/setup --services` (the suite starts its own server)")
    try:
        yield server.url.rsplit("/", 1)[0]
    finally:
        server.remove()
