"""The operator's views name the match workers that took themselves out and why, and count series sent again.

/ops/metrics, /ops/ and ``manage.py arena_status`` read what the workers keep
in Redis (workers/health.py), on a Redis server of the test's own; the records
are written by the same functions the workers run.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from io import StringIO
from typing import Any

import pytest
import redis
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from arena.matchmaking.inventory import RESENDS_COUNTER
from tests.arena.services import OwnRedis
from workers import health

pytestmark = pytest.mark.django_db

SICK = "its cache /var/cache/arena has 0.0 MB free, under the 64 MB it needs (ARENA_WORKER_MIN_FREE_MB)"
FAILURE = 'OSError: [Errno 28] No space left on device: "/var/cache/arena/archives/.incoming-x"'


@pytest.fixture
def workers_reporting(settings: Any) -> Iterator[redis.Redis]:
    """A sick match worker out for 130 s and a healthy one, as their processes report themselves."""
    server = OwnRedis()
    server.start()
    settings.CELERY_BROKER_URL = server.url
    client = redis.Redis.from_url(server.url)
    for name, out in (("sick@host-a", health.Out(SICK, time.time() - 130, None)), ("healthy@host-b", None)):
        monitor = health.Monitor()
        monitor.worker, monitor.broker_url, monitor.out, monitor.times_out = name, server.url, out, int(bool(out))
        monitor.publish()
    # The sick one's pool process failed a series on its disk; the healthy one played two.
    assert health._count_own_failure(client, "sick@host-a", 7, FAILURE) == 1
    client.hincrby(health.record_key("healthy@host-b"), "series_played", 2)
    client.set(RESENDS_COUNTER, 4)
    client.set(health.RETRIED_COUNTER, 3)
    client.set(health.GIVEN_UP_COUNTER, 1)
    yield client
    server.remove()


def test_the_metrics_name_the_worker_that_took_itself_out_and_count_resends(
    workers_reporting: redis.Redis, settings: Any
) -> None:
    settings.ARENA_METRICS_TOKEN = "t"
    text = Client().get("/ops/metrics", HTTP_AUTHORIZATION="Bearer t").content.decode()
    lines = set(text.splitlines())
    assert 'arena_worker_up{worker="sick@host-a"} 0' in lines
    assert 'arena_worker_up{worker="healthy@host-b"} 1' in lines
    assert f'arena_worker_out_info{{worker="sick@host-a",reason="{SICK}"}} 1' in lines
    assert not any(line.startswith('arena_worker_out_info{worker="healthy') for line in lines)
    assert 'arena_worker_infrastructure_failures_total{worker="sick@host-a"} 1' in lines
    assert 'arena_worker_infrastructure_failures_total{worker="healthy@host-b"} 0' in lines
    assert 'arena_worker_series_played_total{worker="healthy@host-b"} 2' in lines
    assert {"arena_series_resent_total 4", "arena_series_retried_total 3", "arena_series_given_up_total 1"} <= lines
    assert "# TYPE arena_worker_infrastructure_failures_total counter" in lines


def test_a_reason_cannot_break_the_metrics_format(workers_reporting: redis.Redis, settings: Any) -> None:
    settings.ARENA_METRICS_TOKEN = "t"
    monitor = health.Monitor()
    monitor.worker, monitor.broker_url = 'odd"name@h', settings.CELERY_BROKER_URL
    monitor.out = health.Out('a "quoted" reason\\ with\na new line', time.time(), None)
    monitor.publish()
    text = Client().get("/ops/metrics", HTTP_AUTHORIZATION="Bearer t").content.decode()
    assert 'arena_worker_out_info{worker="odd\\"name@h",reason="a \\"quoted\\" reason\\\\ with\\na new line"} 1' in text


def test_the_ops_page_and_arena_status_say_which_worker_is_out_and_why(
    workers_reporting: redis.Redis, admin_client: Client
) -> None:
    page = admin_client.get(reverse("ops")).content.decode()
    assert '<tr class="worker-out">' in page
    # Out for 130 s when the test began (a second or two more by now).
    out_for = r"<strong>took itself out</strong> 2m 1\ds ago: "
    assert re.search(out_for + re.escape(SICK + "; back when that is fixed"), page)
    assert "<td>0</td><td>1</td><td>OSError: [Errno 28] No space left on device: &quot;" in page
    assert '<th scope="row">healthy@host-b</th>\n            <td>takes series</td>' in page
    assert "4 found lost and resent" in page
    out = StringIO()
    call_command("arena_status", stdout=out)
    text = out.getvalue()
    assert "match workers' health: 2 reporting, 1 took themselves out" in text
    assert re.search(r"\n  sick@host-a: OUT for 2m 1\ds: " + re.escape(f"{SICK}; back when that is fixed"), text)
    assert "  healthy@host-b: takes series (series played 2, infrastructure failures 0)" in text
    assert "series sent again: 4 found lost and resent, 3 back to the queue after failing on a worker, 1 given up" in (
        text
    )
    out = StringIO()
    call_command("arena_status", "--json", stdout=out)
    status = json.loads(out.getvalue())
    (sick,) = [w for w in status["worker_health"]["workers"] if w["state"] == "out"]
    assert (sick["name"], sick["reason"], sick["last_failure"]) == ("sick@host-a", SICK, FAILURE)
    assert status["resends"] == {"resent": 4, "retried": 3, "given_up": 1}


def test_a_worker_that_stopped_reporting_drops_out_of_the_list(workers_reporting: redis.Redis, settings: Any) -> None:
    from django.utils import timezone

    from arena.ops.status import worker_health

    assert len(worker_health(settings.CELERY_BROKER_URL, timezone.now())["workers"]) == 2
    workers_reporting.delete(health.record_key("sick@host-a"))  # its record expired: the worker is gone
    assert [w["name"] for w in worker_health(settings.CELERY_BROKER_URL, timezone.now())["workers"]] == [
        "healthy@host-b"
    ]
    assert workers_reporting.ttl(health.record_key("healthy@host-b")) <= 3 * health.PROBE_INTERVAL_S
