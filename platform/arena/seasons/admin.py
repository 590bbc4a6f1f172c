from __future__ import annotations

from django.contrib import admin

from arena.seasons.models import Season, SeasonEntry


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


@admin.register(SeasonEntry)
class SeasonEntryAdmin(admin.ModelAdmin):
    list_display = ("version", "season", "active", "joined_at")
    list_filter = ("active", "season")
    search_fields = ("version__bot__name", "version__bot__owner__username")
    list_select_related = ("version__bot__owner", "season")
    raw_id_fields = ("version",)
