"""The kombu 5.7.0 workaround: restoring unacknowledged messages over a connection already gone is not fatal.

The real Redis restarts in tests/arena/test_restarts.py did not reach this
path on this machine (the worker survived them with and without the fix), so
it is pinned here the way kombu fails in it: the channel's connection has no
client any more, and opening one raises ``AttributeError`` on ``hostname``.
"""

from __future__ import annotations

import contextlib
from types import SimpleNamespace
from typing import Any

import pytest
from kombu.transport import redis as kombu_redis

from workers import kombu_fixes


def qos_over(connection: Any) -> Any:
    def conn_or_acquire(client: Any = None) -> Any:
        raise AttributeError("'NoneType' object has no attribute 'hostname'")

    qos = kombu_redis.QoS.__new__(kombu_redis.QoS)
    qos.channel = SimpleNamespace(connection=connection, conn_or_acquire=conn_or_acquire)
    qos._delivered = {"tag-1": True, "tag-2": True}
    return qos


def test_it_is_installed_by_the_workers_celery_configuration() -> None:
    import workers.celery_app  # noqa: F401  (configure() installs it)

    assert getattr(kombu_redis.QoS.restore_unacked, "arena_fixed", False)
    before = kombu_redis.QoS.restore_unacked
    kombu_fixes.install()
    assert kombu_redis.QoS.restore_unacked is before  # idempotent: never wrapped twice


def test_a_connection_already_gone_leaves_the_messages_in_redis_and_the_worker_alive(caplog: Any) -> None:
    kombu_fixes.install()
    qos = qos_over(SimpleNamespace(client=None))
    assert qos.restore_unacked() is None
    assert qos._delivered == {}
    assert "2 unacknowledged message(s)" in caplog.text


def test_the_same_error_over_a_live_connection_is_not_hidden() -> None:
    kombu_fixes.install()
    qos = qos_over(SimpleNamespace(client=SimpleNamespace(hostname="127.0.0.1")))
    with pytest.raises(AttributeError, match="hostname"), contextlib.suppress(KeyError):
        qos.restore_unacked()


def qos_on_a_closed_channel() -> Any:
    """A QoS whose channel lost its connection, as kombu leaves it after Redis restarted."""

    def conn_or_acquire(client: Any = None) -> Any:
        raise AttributeError("'NoneType' object has no attribute 'client'")

    qos = kombu_redis.QoS.__new__(kombu_redis.QoS)
    qos.channel = SimpleNamespace(connection=None, conn_or_acquire=conn_or_acquire)
    qos._delivered = {"tag-1": True}
    return qos


@pytest.mark.parametrize("settle", ["ack", "reject"])
def test_a_message_settled_after_the_connection_is_gone_stays_in_redis_and_the_worker_lives(
    settle: str, caplog: Any
) -> None:
    kombu_fixes.install()
    qos = qos_on_a_closed_channel()
    assert getattr(qos, settle)("tag-1") is None
    assert qos._delivered == {}
    assert "it stays in Redis's unacked hash" in caplog.text


def test_settling_over_a_live_connection_still_raises_what_it_raises() -> None:
    kombu_fixes.install()
    qos = qos_on_a_closed_channel()
    qos.channel.connection = SimpleNamespace(client=SimpleNamespace(hostname="127.0.0.1"))
    with pytest.raises(AttributeError, match="client"):
        qos.ack("tag-1")
