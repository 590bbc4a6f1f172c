"""WSGI entry point; puts ``platform/`` on sys.path like manage.py does."""

from __future__ import annotations

import os
import sys
from pathlib import Path

_PLATFORM_DIR = str(Path(__file__).resolve().parent.parent)
if _PLATFORM_DIR not in sys.path:
    sys.path.append(_PLATFORM_DIR)
_ROOT_DIR = str(Path(__file__).resolve().parent.parent.parent)
if _ROOT_DIR not in sys.path:
    sys.path.append(_ROOT_DIR)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")

from django.core.wsgi import get_wsgi_application  # noqa: E402

application = get_wsgi_application()
