"""/ops/metrics: the pipeline's figures in Prometheus's text format, for a scraper's token or staff only."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from arena.series.models import Series, SeriesState

pytestmark = pytest.mark.django_db


def test_a_scraper_with_the_token_reads_the_figures(settings: Any, season: Any) -> None:
    settings.ARENA_METRICS_TOKEN = "s3cret-token"
    settings.CELERY_BROKER_URL = ""
    Series.objects.create(season=season, seed=1, state=SeriesState.QUEUED)
    response = Client().get("/ops/metrics", HTTP_AUTHORIZATION="Bearer s3cret-token")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=0.0.4")
    text = response.content.decode()
    assert "# TYPE arena_series gauge" in text
    assert 'arena_series{state="queued"} 1' in text
    assert 'arena_series{state="done"} 0' in text
    assert "arena_broker_up 1" in text
    assert "arena_oldest_outstanding_series_age_seconds " in text
    assert 'arena_series_done_per_minute{window="5m"} 0' in text
    assert "arena_results_waiting 0" in text


def test_queue_depths_come_from_redis(settings: Any, own_redis_server: str) -> None:
    settings.ARENA_METRICS_TOKEN = "t"
    settings.CELERY_BROKER_URL = f"{own_redis_server}/9"  # the run's own Redis server (tests/conftest.py)
    text = Client().get("/ops/metrics", HTTP_AUTHORIZATION="Bearer t").content.decode()
    assert 'arena_queue_messages{queue="matches"} ' in text
    assert 'arena_queue_messages{queue="platform"} ' in text


def test_a_broker_that_is_down_shows_as_down_not_as_an_error_page(settings: Any) -> None:
    settings.ARENA_METRICS_TOKEN = "t"
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = Client().get("/ops/metrics", HTTP_AUTHORIZATION="Bearer t")
    assert response.status_code == 200
    assert "arena_broker_up 0" in response.content.decode()


@pytest.mark.parametrize("header", [None, "Bearer wrong", "Bearer ", "s3cret-token", "Basic czNjcmV0"])
def test_without_the_token_or_staff_it_is_refused(settings: Any, header: str | None) -> None:
    settings.ARENA_METRICS_TOKEN = "s3cret-token"
    extra = {"HTTP_AUTHORIZATION": header} if header is not None else {}
    assert Client().get("/ops/metrics", **extra).status_code == 401


def test_no_token_configured_means_staff_only(settings: Any, django_user_model: Any) -> None:
    settings.ARENA_METRICS_TOKEN = ""
    settings.CELERY_BROKER_URL = ""
    assert Client().get("/ops/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 401
    staff = django_user_model.objects.create_user("op", is_staff=True)
    client = Client()
    client.force_login(staff)
    assert client.get("/ops/metrics").status_code == 200


def test_the_metrics_show_what_the_matchmaker_sees_and_how_long_series_waited(
    settings: Any, season: Any, own_redis_server: str
) -> None:
    from datetime import timedelta

    import redis
    from django.utils import timezone

    from workers import health

    settings.ARENA_METRICS_TOKEN = "t"
    settings.ARENA_MATCHMAKER_DEPTH_PER_PROCESS = 2
    url = settings.CELERY_BROKER_URL = f"{own_redis_server}/6"  # the run's own Redis server (tests/conftest.py)
    client = redis.Redis.from_url(url)
    client.flushdb()
    for name, concurrency, out in (("a@h", 2, None), ("b@h", 1, None), ("sick@h", 4, health.Out("full", 0, None))):
        monitor = health.Monitor()
        monitor.worker, monitor.broker_url, monitor.concurrency, monitor.out = name, url, concurrency, out
        monitor.publish()
    now = timezone.now()
    for number in range(20):  # waited 1 to 20 s in the queue, recorded a minute ago
        series = Series.objects.create(season=season, seed=number, state=SeriesState.DONE, finished_at=now)
        created = now - timedelta(minutes=1)
        Series.objects.filter(pk=series.pk).update(created=created, started_at=created + timedelta(seconds=number + 1))
    Series.objects.create(season=season, seed=99, state=SeriesState.DONE, finished_at=now)  # its start not said
    try:
        text = Client().get("/ops/metrics", HTTP_AUTHORIZATION="Bearer t").content.decode()
    finally:
        client.flushdb()
    lines = set(text.splitlines())
    assert {"arena_matchmaker_capacity 3", "arena_matchmaker_workers 2", "arena_matchmaker_target 6"} <= lines
    assert 'arena_series_wait_seconds{quantile="0.5"} 10' in lines
    assert 'arena_series_wait_seconds{quantile="0.95"} 19' in lines
    assert 'arena_series_wait_seconds{quantile="1"} 20' in lines
    assert "arena_series_wait_count 20" in lines
