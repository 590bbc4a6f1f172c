"""Admin for series and their result log, with re-run and cancel actions (arena.ops.operations)."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse

from arena.ops import operations
from arena.ops.admin.actions import apply_each, confirm_then_apply, operator_name
from arena.ops.admin.inlines import WrittenElsewhereInline
from arena.series.models import GameRecord, Series, SeriesResultLog, SeriesSeat


class SeriesSeatInline(admin.TabularInline):
    model = SeriesSeat
    raw_id_fields = ("version",)
    extra = 0


class GameRecordInline(WrittenElsewhereInline):
    """The series' games: written from the result document when the series is recorded."""

    model = GameRecord
    fields = ("index", "winner", "reason", "moves", "forfeit")
    readonly_fields = fields


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "season",
        "state",
        "attempts",
        "resends",
        "created",
        "started_at",
        "finished_at",
        "failure_reason",
    )
    list_filter = ("state", "season")
    list_select_related = ("season",)
    search_fields = ("=id", "seats__version__bot__name")
    date_hierarchy = "created"
    inlines = (SeriesSeatInline, GameRecordInline)
    actions = ("rerun", "cancel")

    @admin.action(description="Re-run the selected failed or cancelled series (as new series)", permissions=["change"])
    def rerun(self, request: HttpRequest, queryset: QuerySet[Series]) -> None:
        apply_each(self, request, queryset, operations.rerun_series, "Queued again")

    @admin.action(description="Cancel the selected queued or running series", permissions=["change"])
    def cancel(self, request: HttpRequest, queryset: QuerySet[Series]) -> TemplateResponse | None:
        operator = operator_name(request)
        return confirm_then_apply(
            self,
            request,
            queryset,
            title="Cancel series",
            explanation="Cancelled series count for nobody; a result that arrives for one later is not recorded.",
            done="Cancelled",
            apply=lambda series, reason: operations.cancel_series(series, reason, operator),
            ask_reason=True,
        )


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
