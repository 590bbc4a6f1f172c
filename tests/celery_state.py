"""Celery's current app, kept as a test found it.

The platform's tasks are declared with ``shared_task``: sending one goes through
Celery's current app, the platform's (``arena.celeryconf``) in this process. Making
an app, ``Celery(name)``, makes it the current one unless it is given
``set_as_current=False``; a test's own app on a Redis of its own, left current,
has every later test of the process send its tasks there, to a server that has
gone. Which tests come later depends on how the suite is split among workers,
so :func:`keeping_celery_current_app` fails the test that changed it, not the
ones after it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest


def celery_current_apps() -> tuple[Any, Any]:
    """This thread's current Celery app and the process's default one (either may be None)."""
    from celery import _state

    return getattr(_state._tls, "current_app", None), _state.default_app


@contextmanager
def keeping_celery_current_app() -> Iterator[None]:
    """Run the block; if it left another Celery app current (or default), put the old one back and fail."""
    from celery import _state

    before = celery_current_apps()
    yield
    after = celery_current_apps()
    if after[0] is before[0] and after[1] is before[1]:
        return
    _state._tls.current_app = before[0]
    _state.set_default_app(before[1])
    pytest.fail(
        f"the test left Celery's current app {after[0]!r} (default {after[1]!r}) instead of {before[0]!r}: "
        "every later task of this process would go to it; make a test's own app with set_as_current=False",
        pytrace=False,
    )
