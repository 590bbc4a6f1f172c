"""Admin for seasons and entries, with the season lifecycle as actions, and the shared action helpers.

The actions call arena.ops.operations, which holds the rules; an action
that does not apply to one of the selected rows says why for that row and
carries on with the others. :func:`confirm_then_apply` is also used by the
bots' and series' admins for actions that ask a reason or a confirmation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse

from arena.ops import operations
from arena.seasons.models import RECORD_FIELDS, FinalStanding, Season, SeasonEntry


class ReasonForm(forms.Form):
    """The reason an operator gives for a disable or a cancel."""

    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 80}),
        max_length=2000,
        help_text="Shown as written: say what was wrong and what would fix it.",
    )


def apply_each(
    modeladmin: admin.ModelAdmin,
    request: HttpRequest,
    objects: Iterable[Model],
    apply: Callable[[Model], Any],
    done: str,
) -> int:
    """Apply ``apply`` to each object, log it, report refusals per object; return how many it applied to."""
    applied = 0
    for obj in objects:
        try:
            apply(obj)
        except operations.OperationError as exc:
            modeladmin.message_user(request, str(exc), messages.ERROR)  # each message names its object
            continue
        modeladmin.log_change(request, obj, done)
        applied += 1
    if applied:
        noun = modeladmin.model._meta.verbose_name if applied == 1 else modeladmin.model._meta.verbose_name_plural
        modeladmin.message_user(request, f"{done}: {applied} {noun}.", messages.SUCCESS)
    return applied


def confirm_then_apply(
    modeladmin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet[Any],
    *,
    title: str,
    explanation: str,
    done: str,
    apply: Callable[[Model, str], Any],
    ask_reason: bool,
) -> TemplateResponse | None:
    """Show a page that lists the selected rows (and asks a reason); on its submit, apply to each and return None.

    ``apply(obj, reason)`` gets an empty reason when none is asked.
    """
    form = ReasonForm(request.POST if "apply" in request.POST else None) if ask_reason else None
    if "apply" in request.POST and (form is None or form.is_valid()):
        reason = form.cleaned_data["reason"] if form is not None else ""
        apply_each(modeladmin, request, queryset, lambda obj: apply(obj, reason), done)
        return None  # back to the list, with the messages
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "explanation": explanation,
        "objects": list(queryset),
        "form": form,
        "opts": modeladmin.model._meta,
        "action": request.POST.get("action", ""),
        "select_across": request.POST.get("select_across", "0"),
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "submit_label": done,
    }
    return TemplateResponse(request, "seasons/admin_confirm_action.html", context)


def operator_name(request: HttpRequest) -> str:
    """Return how an operator is named in reasons the owners read."""
    return f"operator {request.user.get_username()}"


class FinalStandingInline(admin.TabularInline):
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
    extra = 0
    can_delete = False
    verbose_name_plural = "final standings (frozen when the season finished)"

    def has_add_permission(self, request: HttpRequest, obj: Season | None = None) -> bool:
        return False  # written by the finish action, from the ratings, and never changed


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
