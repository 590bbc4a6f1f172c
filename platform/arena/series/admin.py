from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from arena.series.models import GameRecord, Series, SeriesResultLog, SeriesSeat


class SeriesSeatInline(admin.TabularInline):
    model = SeriesSeat
    raw_id_fields = ("version",)
    extra = 0


class GameRecordInline(admin.TabularInline):
    model = GameRecord
    fields = ("index", "winner", "reason", "moves", "forfeit")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Series | None = None) -> bool:
        return False  # written from the result document when a series is recorded


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ("id", "season", "state", "attempts", "created", "started_at", "finished_at")
    list_filter = ("state", "season")
    list_select_related = ("season",)
    search_fields = ("=id", "seats__version__bot__name")
    date_hierarchy = "created"
    inlines = (SeriesSeatInline, GameRecordInline)


@admin.register(SeriesResultLog)
class SeriesResultLogAdmin(admin.ModelAdmin):
    list_display = ("__str__", "series", "recorded_at")
    list_filter = ("series__season",)
    readonly_fields = ("series", "result", "recorded_at")

    # Append-only: the log is what a season's recompute replays.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: SeriesResultLog | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: SeriesResultLog | None = None) -> bool:
        return False
