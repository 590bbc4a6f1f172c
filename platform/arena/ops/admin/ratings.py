"""Admin for ratings and their append-only history (read-only: the recording writes them)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from arena.ratings.models import Rating, RatingHistory
from arena.seasons.models import RECORD_FIELDS


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = (
        "version",
        "season",
        "conservative",
        "mu",
        "sigma",
        *RECORD_FIELDS,
        "provisional",
    )
    list_filter = ("season", "provisional")
    search_fields = ("version__bot__name", "version__bot__owner__username")
    list_select_related = ("version__bot__owner", "season")
    ordering = ("season", "-conservative")
    raw_id_fields = ("version",)
    readonly_fields = ("conservative", "updated")


@admin.register(RatingHistory)
class RatingHistoryAdmin(admin.ModelAdmin):
    list_display = ("version", "season", "series", "mu", "sigma", "conservative", "recorded_at")
    list_filter = ("season",)
    search_fields = ("version__bot__name",)
    list_select_related = ("version__bot__owner", "season", "series")
    readonly_fields = ("season", "version", "series", "mu", "sigma", "conservative", "recorded_at")

    # Append-only: written by the rating updates, read by charts and recomputes.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: RatingHistory | None = None) -> bool:
        return False
