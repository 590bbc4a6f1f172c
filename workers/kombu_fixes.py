"""Work around a kombu 5.7.0 bug that kills a Celery worker when Redis restarts while it holds a message.

On a lost connection the worker closes its channel, and the Redis QoS's
``restore_unacked`` opens a client from the channel's connection, which is
already gone: ``AttributeError: 'NoneType' object has no attribute
'hostname'`` in ``Channel._connparams``, and the worker exits with
"Unrecoverable error". The messages it held stay in Redis's unacked hash
(restored after the visibility timeout), and the platform's inventory
re-sends their series as soon as their leases expire (workers/delivery.py),
so skipping the restore loses nothing; dying did.
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
            if self.channel.connection is not None and self.channel.connection.client is not None:
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
