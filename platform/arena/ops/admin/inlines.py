"""The admin's inline tables of rows that are written elsewhere: shown, never added or deleted here."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest


class WrittenElsewhereInline(admin.TabularInline):
    """An inline of rows another part of the arena writes; a subclass lists its ``fields`` as read-only too."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
