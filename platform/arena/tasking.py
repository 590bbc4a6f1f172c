"""How the platform queues a Celery task (to the broker, to the embedded ladder's pool, or at once) and retries it.

Below every app: bots, seasons, series, ratings and matchmaking all send tasks
through :func:`send`, and this module imports none of them. The embedded
ladder (arena/embedded.py, above every app) registers its pool here while it
runs; :func:`send` then hands it the task instead of Celery.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.db import InterfaceError, OperationalError

#: The database down (a restart, a failover), as a task meets it.
DATABASE_DOWN = (OSError, OperationalError, InterfaceError)

#: Celery's options for a task that writes what must not be lost (a result, a validation): one
#: that meets the database down waits and tries again, for about half an hour, never dropping
#: its work on the first error.
RETRY_WHILE_THE_DATABASE_IS_DOWN: dict[str, Any] = {
    "autoretry_for": DATABASE_DOWN,
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "max_retries": 40,
}


class Pool(Protocol):
    """What a running embedded ladder offers :func:`send`."""

    accepting: bool

    def put(self, signature: Any) -> None: ...


#: The embedded ladder's pool while one runs in this process; None otherwise.
_running: Pool | None = None


def send(signature: Any) -> None:
    """Queue the Celery ``signature`` (a task or a chain): to the embedded pool if one runs, else ``apply_async``.

    With a broker ``apply_async`` publishes it; without one and without a running
    pool Celery runs it at once in this thread (``task_always_eager``).
    """
    pool = _running
    if pool is not None and pool.accepting:
        pool.put(signature)
    else:
        signature.apply_async()


def is_running() -> bool:
    """True while an embedded ladder takes this process's tasks."""
    return _running is not None and _running.accepting


def set_pool(pool: Pool | None) -> Pool | None:
    """Make ``pool`` the one :func:`send` uses (None: none); return the one it replaces."""
    global _running
    previous, _running = _running, pool
    return previous


def current_pool() -> Pool | None:
    """Return the pool :func:`send` uses now, if any."""
    return _running


def broker_redis() -> Any:
    """Return a Redis client of the platform's broker, or None when the broker is not Redis (or there is none).

    The match workers' own helper (short timeouts: a Redis that is restarting
    fails the caller quickly, and the beat tries again at its next tick).
    """
    from django.conf import settings

    from workers.delivery import redis_client

    return redis_client(settings.CELERY_BROKER_URL or "")
