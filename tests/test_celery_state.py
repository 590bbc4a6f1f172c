"""A test that leaves its own Celery app current fails, and the platform's app is current again after it."""

from __future__ import annotations

import pytest
from celery import Celery

from tests.celery_state import celery_current_apps, keeping_celery_current_app


def make_stray_app_current() -> Celery:
    """A block that leaves an app of its own current, on a broker nobody runs."""
    with keeping_celery_current_app():
        stray = Celery("stray", broker="redis://127.0.0.1:1/0")
        assert celery_current_apps()[0] is stray
    return stray


def test_an_app_made_current_fails_the_block_and_the_old_one_is_put_back() -> None:
    found = celery_current_apps()
    with pytest.raises(pytest.fail.Exception, match="left Celery's current app <Celery stray") as failed:
        make_stray_app_current()
    assert "set_as_current=False" in str(failed.value)
    assert celery_current_apps()[0] is found[0]
    assert celery_current_apps()[1] is found[1]


def test_the_platforms_app_is_the_current_one_in_the_suite() -> None:
    from arena.celeryconf import app

    assert celery_current_apps()[0] is app


def test_an_app_of_the_tests_own_not_made_current_passes() -> None:
    with keeping_celery_current_app():
        own = Celery("own", broker="redis://127.0.0.1:1/0", set_as_current=False)
    assert celery_current_apps()[0] is not own
