"""The staff page /ops/: what arena_status prints, refused to everyone else."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
import redis
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from arena.bots.models import BotVersion
from arena.series.models import Series, SeriesState

pytestmark = pytest.mark.django_db


def test_staff_see_queues_throughput_stuck_and_failed_series_and_seasons(
    admin_client: Client, pair: list[BotVersion], make_series: Callable[..., Series], settings: Any
) -> None:
    settings.CELERY_BROKER_URL = ""
    done = make_series(pair, SeriesState.DONE)
    Series.objects.filter(pk=done.pk).update(finished_at=timezone.now() - timedelta(minutes=2))
    stuck = make_series(pair, SeriesState.RUNNING)
    failed = make_series(pair, SeriesState.FAILED)
    Series.objects.filter(pk=failed.pk).update(deadline=timezone.now(), failure_reason="bwrap: <no cgroup>")
    response = admin_client.get(reverse("ops"))
    assert response.status_code == 200
    assert response["Cache-Control"].startswith("max-age=0")
    page = response.content.decode()
    assert "in-process (no broker)" in page
    assert '<dd class="rate-5">0.20</dd>' in page
    assert f"Series {stuck.pk}</a>" in page
    assert "Failed in the last day: 1" in page
    assert "bwrap: &lt;no cgroup&gt;" in page  # a failure reason is text, never markup
    assert "<td>watch</td><td>2</td><td>1</td>" in page  # entries 2, series done 1
    assert "No worker answered" not in page


def test_staff_see_the_queue_depths_from_redis(
    admin_client: Client, settings: Any, db: None, own_redis_server: str
) -> None:
    url = f"{own_redis_server}/14"  # the run's own Redis server (tests/conftest.py)
    settings.CELERY_BROKER_URL = url.replace("redis://", "redis://:s3cret@")
    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
        client.rpush("matches", b"fake", b"fake")
        for n in range(3):  # results appended by match workers, not yet drained
            client.xadd("arena:results", {"outcome": str(n)})
        page = admin_client.get(reverse("ops")).content.decode()
    finally:
        client.flushdb()
        client.close()
    assert '<th scope="row">matches</th><td class="queue-depth">2</td>' in page
    assert '<th scope="row">platform</th><td class="queue-depth">0</td>' in page
    assert '<th scope="row">results</th><td class="queue-depth">3</td>' in page
    assert "No worker answered within a second" in page
    assert "s3cret" not in page


def test_an_anonymous_visitor_is_sent_to_log_in(client: Client, db: None) -> None:
    response = client.get(reverse("ops"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_user_who_is_not_staff_is_refused(member_client: Client, settings: Any) -> None:
    settings.CELERY_BROKER_URL = ""
    response = member_client.get(reverse("ops"))
    assert response.status_code == 403
    assert "Operations" not in response.content.decode()


def test_it_only_answers_reads(admin_client: Client, db: None) -> None:
    assert admin_client.post(reverse("ops")).status_code == 405
