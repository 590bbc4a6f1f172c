"""The admin's action helpers: apply an operation to each selected row, or confirm (and ask a reason) first.

The actions call arena.ops.operations, which holds the rules; an action
that does not apply to one of the selected rows says why for that row and
carries on with the others.
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
    return TemplateResponse(request, "ops/admin_confirm_action.html", context)


def operator_name(request: HttpRequest) -> str:
    """Return how an operator is named in reasons the owners read."""
    return f"operator {request.user.get_username()}"
