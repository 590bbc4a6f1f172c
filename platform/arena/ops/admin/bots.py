"""Admin for bots and versions, with disable/re-enable/retire actions, and users linked to their bots."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html

from arena.bots.models import Bot, BotVersion
from arena.ops import operations
from arena.ops.admin.actions import apply_each, confirm_then_apply
from arena.ops.admin.inlines import WrittenElsewhereInline


class BotVersionInline(WrittenElsewhereInline):
    """Versions of the bot: they come from submissions, which validate and store the archive."""

    model = BotVersion
    fields = ("number", "status", "status_reason", "archive_sha256", "uploaded_at")
    readonly_fields = fields
    show_change_link = True


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "version_count", "created")
    list_filter = ("created", ("owner", admin.RelatedOnlyFieldListFilter))
    search_fields = ("name", "owner__username")
    list_select_related = ("owner",)
    inlines = (BotVersionInline,)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Bot]:
        return super().get_queryset(request).annotate(version_count=Count("versions"))

    @admin.display(description="versions", ordering="version_count")
    def version_count(self, bot: Bot) -> int:
        return bot.version_count  # type: ignore[attr-defined]


@admin.register(BotVersion)
class BotVersionAdmin(admin.ModelAdmin):
    list_display = ("__str__", "status", "games", "short_sha256", "archive_size", "uploaded_at")
    list_filter = ("status", "archive_format", "uploaded_at")
    search_fields = ("bot__name", "bot__owner__username", "archive_sha256")
    list_select_related = ("bot__owner",)
    # Everything but the status is immutable once stored (BotVersion.save refuses changes).
    readonly_fields = (
        "bot",
        "number",
        *BotVersion.ARCHIVE_FIELDS,
        "uploaded_at",
        "predecessor",
    )
    fields = (*readonly_fields, "status", "status_reason")
    actions = ("disable", "enable", "retire")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # `manage.py submit_bot` or the upload page: they validate and store the archive

    @admin.display(description="sha256", ordering="archive_sha256")
    def short_sha256(self, version: BotVersion) -> str:
        return version.archive_sha256[:12]

    @admin.action(description="Disable the selected versions (asks the reason the owner sees)", permissions=["change"])
    def disable(self, request: HttpRequest, queryset: QuerySet[BotVersion]) -> TemplateResponse | None:
        return confirm_then_apply(
            self,
            request,
            queryset,
            title="Disable bot versions",
            explanation=(
                "Disabled versions are taken out of every season and paired no more; "
                "their owners see the reason below on their bot's page. Ratings and recorded series stay."
            ),
            done="Disabled",
            apply=operations.disable_version,
            ask_reason=True,
        )

    @admin.action(description="Re-enable the selected disabled versions", permissions=["change"])
    def enable(self, request: HttpRequest, queryset: QuerySet[BotVersion]) -> None:
        apply_each(self, request, queryset, operations.enable_version, "Re-enabled")

    @admin.action(description="Retire the selected versions", permissions=["change"])
    def retire(self, request: HttpRequest, queryset: QuerySet[BotVersion]) -> None:
        apply_each(self, request, queryset, operations.retire_version, "Retired")


class HasBotsFilter(admin.SimpleListFilter):
    """Users with or without bots: the bot authors among the accounts."""

    title = "bots"
    parameter_name = "has_bots"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [("yes", "has bots"), ("no", "has no bots")]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() == "yes":
            return queryset.filter(bot_count__gt=0)
        if self.value() == "no":
            return queryset.filter(bot_count=0)
        return queryset


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class ArenaUserAdmin(UserAdmin):
    """The stock user admin, with each user's bots counted and linked."""

    list_display = (*UserAdmin.list_display, "bots_link", "date_joined")
    list_filter = (*UserAdmin.list_filter, HasBotsFilter)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).annotate(bot_count=Count("bots"))

    @admin.display(description="bots", ordering="bot_count")
    def bots_link(self, user: object) -> str:
        count = user.bot_count  # type: ignore[attr-defined]
        if not count:
            return "none"
        url = reverse("admin:bots_bot_changelist") + f"?owner__id__exact={user.pk}"  # type: ignore[attr-defined]
        return format_html('<a href="{}">{} bot{}</a>', url, count, "" if count == 1 else "s")
