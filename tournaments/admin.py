"""Admin pages for tournaments: look things up; every change of an event goes through its pages or
API (the services keep the round lifecycle, the tables' games and the event log consistent)."""

from __future__ import annotations

from django.contrib import admin

from tournaments.models import Entrant, EventLogEntry, Penalty, Round, Staff, Table, Tournament


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown, never edited here."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class StaffInline(admin.TabularInline):
    model = Staff
    extra = 0
    can_delete = False
    readonly_fields = ("user", "role", "added_at")


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    """Events, with their staff."""

    list_display = ("name", "date", "director", "rounds", "seating", "public", "created_at")
    search_fields = ("name", "venue", "director__username")
    list_filter = ("public", "seating", "standings_release")
    inlines = [StaffInline]


@admin.register(Entrant)
class EntrantAdmin(ReadOnlyAdmin):
    list_display = ("name", "tournament", "club", "rating", "status", "checked_in")
    search_fields = ("name", "club", "tournament__name")
    list_filter = ("status", "checked_in")
    list_select_related = ("tournament",)


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = (
        "tournament",
        "number",
        "status",
        "seating_mode",
        "repeat_pairs",
        "seated_at",
        "finalized_at",
    )
    list_select_related = ("tournament",)


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ("round", "number", "confirmed_at", "disputed_at")
    list_select_related = ("round__tournament",)
    exclude = ("game",)  # its edit token is the table's link: not shown here


@admin.register(Penalty)
class PenaltyAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "entrant", "offence", "step", "points", "rescinded_at")
    list_select_related = ("tournament", "entrant")


@admin.register(EventLogEntry)
class EventLogAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "created_at", "action", "round_number", "actor", "reason")
    list_select_related = ("tournament", "actor")
