"""The database hangs: /ops/metrics still answers and says so; pages end with an error page, not a killed worker.

gunicorn serves the site as compose's web service runs it (one worker, its
30 s timeout), on the test database reached through a proxy of the test's
own, with a Redis of its own as the broker. The database then hangs in the
two ways an operator meets:

* a lock: another connection holds the series table (as a long migration
  would); the server is fine and cancels what waits too long
  (``statement_timeout``);
* a server that does not answer at all: the proxy stops forwarding (as a
  stopped server or a network dropping everything would); only the client can
  give up: the connect timeout, and the deadlines that cut a connection that
  waits too long (arena/ops/deadlines.py).

Through all of it the scraper's /ops/metrics answers well within gunicorn's
timeout, with what Redis says and the database reported timed out or
unreachable with the time it took; the home page, which needs the database,
answers the site's error page within the web's timeouts; and when the
database is back, both work again in the same worker.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import psycopg
import pytest
import redis
from django.db import connection

from tests.arena.services import OwnRedis, StallingProxy, free_port, service_environment

pytestmark = pytest.mark.django_db

TOKEN = "hang-test-token"
#: The timeouts of this test's web process (seconds): short, so the test is short.
STATEMENT_S, METRICS_S, CONNECT_S = 1, 1, 2
#: gunicorn kills a worker whose request runs this long: every answer must come well before.
GUNICORN_TIMEOUT_S = 30
#: What "well before" means here: the mechanisms answer within about 4 s at worst (a cut deadline, then a connect
#: timeout); this leaves room for a loaded machine and still proves no request waited for gunicorn's timeout.
ANSWER_BOUND_S = 12


def get(port: int, path: str, token: str | None = None) -> tuple[int, str, float]:
    """Return (status, body, seconds taken) of GET ``path``; a connection gunicorn dropped raises."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=GUNICORN_TIMEOUT_S + 10) as response:
            status, body = response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        status, body = exc.code, exc.read().decode()
    return status, body, time.monotonic() - started


def metrics(port: int) -> tuple[dict[str, float], str, float]:
    """Return /ops/metrics as {sample: value}, its text, and the seconds it took; it must answer 200."""
    status, text, took = get(port, "/ops/metrics", TOKEN)
    assert status == 200, text
    samples = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            samples[name] = float(value)
    return samples, text, took


def assert_database_down(port: int, state: str) -> str:
    """Check /ops/metrics during a hang: prompt, the broker's figures there, the database ``state``; return the text."""
    samples, text, took = metrics(port)
    assert took < ANSWER_BOUND_S, f"/ops/metrics took {took:.1f} s"
    assert samples["arena_database_up"] == 0, text
    assert samples[f'arena_database_state{{state="{state}"}}'] == 1, text
    assert 0 < samples["arena_database_response_seconds"] < ANSWER_BOUND_S, text
    assert samples["arena_broker_up"] == 1, text
    assert samples['arena_queue_messages{queue="matches"}'] == 3, text  # Redis still answers for itself
    # Nothing made up for the database: none of the figures counted in it (the counters Redis keeps,
    # like arena_series_resent_total, stay).
    counted_in_the_database = ("arena_series{", "arena_series_done_per_minute", "arena_results_waiting",
                               "arena_oldest_outstanding_series_age_seconds")  # fmt: skip
    assert not any(name.startswith(counted_in_the_database) for name in samples), text
    words = {"timed_out": "timed out", "unreachable": "unreachable"}[state]
    assert re.search(rf"^# database {words} after \d+\.\d s", text, re.MULTILINE), text
    return text


def assert_error_page(port: int) -> None:
    status, body, took = get(port, "/")
    assert status == 500, body
    assert "Something went wrong" in body  # the site's error page, not a dropped connection
    assert took < ANSWER_BOUND_S, f"the home page took {took:.1f} s"


def test_metrics_answer_and_pages_fail_fast_while_the_database_hangs(tmp_path: Path) -> None:
    db = connection.settings_dict
    proxy = StallingProxy(int(db["PORT"] or 5432), db["HOST"] or "127.0.0.1")
    broker = OwnRedis()
    broker.start()
    redis.Redis.from_url(broker.url).lpush("matches", "a", "b", "c")
    environment = service_environment(
        ARENA_NO_BOOTSTRAP="1",
        ARENA_DATABASE_URL=f"postgres://{db['USER']}@127.0.0.1:{proxy.port}/{db['NAME']}",
        ARENA_BROKER_URL=broker.url,
        ARENA_METRICS_TOKEN=TOKEN,
        ARENA_SECRET_KEY="hang-test-key",
        ARENA_VAR_DIR=str(tmp_path),
        ARENA_WEB_STATEMENT_TIMEOUT_S=str(STATEMENT_S),
        ARENA_METRICS_DB_TIMEOUT_S=str(METRICS_S),
        ARENA_DB_CONNECT_TIMEOUT_S=str(CONNECT_S),
    )
    port = free_port()
    log = tmp_path / "gunicorn.log"
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "arena.wsgi:application", "--bind", f"127.0.0.1:{port}",
         "--workers", "1", "--timeout", str(GUNICORN_TIMEOUT_S), "--env", "ARENA_PROCESS_ROLE=web"],  # as compose
        cwd=tmp_path, env=environment, stdout=log.open("wb"), stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, log.read_text()[-3000:]
            try:
                samples, text, _ = metrics(port)
                break
            except (ConnectionError, urllib.error.URLError):
                assert time.monotonic() < deadline, f"gunicorn did not answer within 60 s:\n{log.read_text()[-3000:]}"
                time.sleep(0.2)
        # Healthy: everything, the database's figures included.
        assert samples["arena_database_up"] == 1, text
        assert samples['arena_database_state{state="up"}'] == 1, text
        assert samples['arena_series{state="queued"}'] == 0, text
        assert get(port, "/")[0] == 200

        # A lock held on the series table: the server cancels what waits for it.
        with psycopg.connect(
            host=db["HOST"] or None, port=db["PORT"] or None, user=db["USER"], dbname=db["NAME"], autocommit=False
        ) as locker:
            locker.execute("LOCK TABLE series_series IN ACCESS EXCLUSIVE MODE")
            assert "the server cancelled the statement" in assert_database_down(port, "timed_out")
            assert_error_page(port)
            locker.rollback()
        assert get(port, "/")[0] == 200

        # The server stops answering, with the worker's connection open: the metrics' deadline cuts it.
        proxy.stall()
        assert "no answer to the connection's health check" in assert_database_down(port, "timed_out")
        assert_error_page(port)  # a fresh connection: the connect timeout
        proxy.resume()
        assert get(port, "/")[0] == 200

        # Again, now for a page: the request's deadline cuts its connection, then a fresh one times out.
        proxy.stall()
        assert_error_page(port)
        assert "connection timeout expired" in assert_database_down(port, "unreachable")
        proxy.resume()

        # Back: the same worker answers everything again.
        samples, text, _ = metrics(port)
        assert samples["arena_database_up"] == 1, text
        assert get(port, "/")[0] == 200
    finally:
        server.terminate()
        server.wait(30)
        proxy.close()
        broker.remove()
    output = log.read_text()
    assert "WORKER TIMEOUT" not in output, output[-3000:]
    assert output.count("Booting worker") == 1, output[-3000:]  # never killed and replaced
    assert "the database did not answer within" in output  # the cut is logged for the operator
