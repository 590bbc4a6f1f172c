from __future__ import annotations

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest

from arena.bots.models import Bot, BotVersion


class BotVersionInline(admin.TabularInline):
    model = BotVersion
    fields = ("number", "status", "status_reason", "archive_sha256", "uploaded_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Bot | None = None) -> bool:
        return False  # versions come from submissions, which validate and store the archive


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "version_count", "created")
    list_filter = ("created",)
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
        "archive_sha256",
        "archive_size",
        "archive_format",
        "manifest",
        "entry",
        "games",
        "uploaded_at",
        "predecessor",
    )
    fields = (*readonly_fields, "status", "status_reason")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # `manage.py submit_bot` or the upload page: they validate and store the archive

    @admin.display(description="sha256", ordering="archive_sha256")
    def short_sha256(self, version: BotVersion) -> str:
        return version.archive_sha256[:12]
