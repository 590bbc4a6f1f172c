"""Work around a kombu 5.7.0 bug that kills a Celery worker when Redis restarts while it holds a message.

On a lost connection the worker closes its channel, and the Redis QoS's
``restore_unacked`` opens a client from the channel's connection, which is
already gone: ``AttributeError: 'NoneType' object has no attribute
'hostname'`` in ``Channel._connparams``, and the worker exits with
"Unrecoverable error". The same happens when a task that was running across
the restart finishes and its message is acknowledged (or rejected) over the
old channel (``... has no attribute 'client'``, seen in the chaos run when a
drain of the results stream met the restart). The messages it held stay in
Redis's unacked hash (restored after the visibility timeout), the platform's
inventory re-sends their series as soon as their leases expire
(workers/delivery.py), and every platform task is idempotent, so skipping the
restore or the acknowledgement loses nothing; dying did.
"""

from __future__ import annotations

import logging
from typing import Any

logger = logging.getLogger(__name__)


def install() -> None:
    """Make kombu's Redis ``QoS.restore_unacked`` survive a connection that is already closed (idempotent)."""
    from kombu.transport import redis as kombu_redis

    original = kombu_redis.QoS.restore_unacked
    if getattr(original, "arena_fixed", False):
        return

    def restore_unacked(self: Any, client: Any = None) -> Any:
        try:
            return original(self, client)
        except AttributeError as exc:
            if not _connection_gone(self):
                raise  # not the closed-connection case: a real bug, not ours to hide
            logger.warning(
                "Redis connection gone before %d unacknowledged message(s) could be restored (%s); "
                "they stay in Redis's unacked hash",
                len(self._delivered),
                exc,
            )
            self._delivered.clear()
            return None

    restore_unacked.arena_fixed = True  # type: ignore[attr-defined]
    kombu_redis.QoS.restore_unacked = restore_unacked  # type: ignore[method-assign]
    kombu_redis.QoS.ack = _survive_closed_channel(kombu_redis.QoS.ack, "acknowledged")  # type: ignore[method-assign]
    kombu_redis.QoS.reject = _survive_closed_channel(kombu_redis.QoS.reject, "rejected")  # type: ignore[method-assign]


def _connection_gone(qos: Any) -> bool:
    connection = qos.channel.connection
    return connection is None or connection.client is None


def _survive_closed_channel(original: Any, done: str) -> Any:
    """Wrap QoS.ack or QoS.reject: over a channel whose connection is gone, leave the message in Redis."""

    def settle(self: Any, delivery_tag: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return original(self, delivery_tag, *args, **kwargs)
        except AttributeError as exc:
            if not _connection_gone(self):
                raise
            logger.warning(
                "Redis connection gone before message %s could be %s (%s); it stays in Redis's unacked hash",
                delivery_tag,
                done,
                exc,
            )
            self._delivered.pop(delivery_tag, None)
            return None

    settle.arena_fixed = True  # type: ignore[attr-defined]
    return settle
