"""The Watch Arena Django project: settings, URLs and the platform's apps.

It lives in ``platform/arena`` and ``platform/`` is deliberately not a package,
so ``import platform`` is always the standard library (Django, Celery and
psycopg import it). ``platform/`` is put on ``sys.path`` by manage.py,
wsgi.py and pytest's configuration.
"""

from arena.celeryconf import app as celery_app

__all__ = ["celery_app"]
