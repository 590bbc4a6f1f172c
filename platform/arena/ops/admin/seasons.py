"""Admin for seasons and entries, with the season lifecycle as actions (arena.ops.operations)."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse

from arena.ops import operations
from arena.ops.admin.actions import apply_each, confirm_then_apply, operator_name
from arena.ops.admin.inlines import WrittenElsewhereInline
from arena.seasons.models import RECORD_FIELDS, FinalStanding, Season, SeasonEntry


class FinalStandingInline(WrittenElsewhereInline):
    """The final standings: written by the finish action, from the ratings, and never changed."""

    model = FinalStanding
    fields = (
        "rank",
        "version",
        "conservative",
        "mu",
        "sigma",
        *RECORD_FIELDS,
        "provisional",
    )
    readonly_fields = fields
    verbose_name_plural = "final standings (frozen when the season finished)"


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "game",
        "rules_version",
        "status",
        "players_per_series",
        "games_per_series",
        "decision_ms",
        "bank_ms",
        "starts_at",
        "ends_at",
    )
    list_filter = ("status", "game")
    search_fields = ("name",)
    actions = ("start", "pause", "resume", "finish")

    def get_inlines(self, request: HttpRequest, obj: Season | None) -> tuple[type[admin.TabularInline], ...]:
        # Only a finished season has standings; elsewhere an empty inline would only add a formset to post.
        return (FinalStandingInline,) if obj is not None and obj.status == Season.Status.FINISHED else ()

    def save_model(self, request: HttpRequest, obj: Season, form: forms.ModelForm, change: bool) -> None:
        """Save; a status changed to finished goes through finish_season, so the standings are frozen either way."""
        if change and "status" in form.changed_data and obj.status == Season.Status.FINISHED:
            obj.status = form.initial["status"]
            super().save_model(request, obj, form, change)
            operations.finish_season(obj, operator_name(request))
            return
        super().save_model(request, obj, form, change)

    @admin.action(description="Start the selected seasons", permissions=["change"])
    def start(self, request: HttpRequest, queryset: QuerySet[Season]) -> None:
        apply_each(self, request, queryset, operations.start_season, "Started")

    @admin.action(description="Pause the selected seasons", permissions=["change"])
    def pause(self, request: HttpRequest, queryset: QuerySet[Season]) -> None:
        apply_each(self, request, queryset, operations.pause_season, "Paused")

    @admin.action(description="Resume the selected seasons", permissions=["change"])
    def resume(self, request: HttpRequest, queryset: QuerySet[Season]) -> None:
        apply_each(self, request, queryset, operations.resume_season, "Resumed")

    @admin.action(description="Finish the selected seasons (final: freezes the standings)", permissions=["change"])
    def finish(self, request: HttpRequest, queryset: QuerySet[Season]) -> TemplateResponse | None:
        operator = operator_name(request)
        return confirm_then_apply(
            self,
            request,
            queryset,
            title="Finish seasons",
            explanation=(
                "Finishing is final. The standings are frozen from the current ratings, "
                "queued and running series are cancelled, and no result changes the standings afterwards."
            ),
            done="Finished",
            apply=lambda season, _reason: operations.finish_season(season, operator),
            ask_reason=False,
        )


@admin.register(SeasonEntry)
class SeasonEntryAdmin(admin.ModelAdmin):
    list_display = ("version", "season", "active", "joined_at")
    list_filter = ("active", "season")
    search_fields = ("version__bot__name", "version__bot__owner__username")
    list_select_related = ("version__bot__owner", "season")
    raw_id_fields = ("version",)
