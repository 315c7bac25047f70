"""Admin pages for live games: look things up, fix a title; scores change only through the services."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from scoring.models import Game, GameChange, Hole, HoleEntry, IdempotentRequest, Player, Seat


class SeatInline(admin.TabularInline):
    """The table, in seat order, with the stored totals (read-only: recomputed by the services)."""

    model = Seat
    extra = 0
    fields = ("seat", "name", "player", "total", "holes_played", "playoff_total")
    readonly_fields = ("seat", "player", "total", "holes_played", "playoff_total")
    can_delete = False
    show_change_link = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Games: the ruleset, status and totals are shown, not edited (use the game's link to score)."""

    list_display = ("__str__", "owner", "status", "preset_name", "version", "updated_at")
    list_filter = ("status", "created_at")
    search_fields = ("title", "seats__name", "owner__username")
    readonly_fields = (
        "edit_token",
        "view_token",
        "ruleset",
        "ruleset_frozen_at",
        "first_dealer",
        "version",
        "status",
        "winners",
        "created_at",
        "updated_at",
    )
    fields = ("title", "owner", *readonly_fields)
    raw_id_fields = ("owner",)
    inlines = [SeatInline]

    @admin.display(description=_("preset"))
    def preset_name(self, game: Game) -> str:
        """The preset the ruleset starts from."""
        return game.preset


class HoleEntryInline(admin.TabularInline):
    """Each player's entry with the engine's scores."""

    model = HoleEntry
    extra = 0
    fields = ("seat", "cards", "typed_total", "blocks_marked", "grid_score", "adjustments", "score")
    readonly_fields = fields
    can_delete = False


@admin.register(Hole)
class HoleAdmin(admin.ModelAdmin):
    """Holes, read-only: edits go through the game's link so totals and history stay right."""

    list_display = ("__str__", "game", "dealer_seat", "ender", "version", "updated_at")
    list_filter = ("is_playoff",)
    list_select_related = ("game", "ender")
    readonly_fields = ("game", "number", "is_playoff", "dealer_seat", "ender", "version", "created_by")
    inlines = [HoleEntryInline]

    def has_add_permission(self, request, obj=None) -> bool:
        """Holes are recorded through the services only."""
        return False


@admin.register(GameChange)
class GameChangeAdmin(admin.ModelAdmin):
    """The history of every game, read-only."""

    list_display = ("game", "action", "hole_number", "is_playoff", "actor", "created_at")
    list_filter = ("action",)
    list_select_related = ("game",)
    readonly_fields = ("game", "action", "hole_number", "is_playoff", "actor", "before", "after", "undoes")

    def has_add_permission(self, request, obj=None) -> bool:
        """History is written by the services only."""
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    """Players: users' rosters and names typed at tables."""

    list_display = ("name", "owner", "last_played_at")
    search_fields = ("name", "owner__username")
    raw_id_fields = ("owner",)


@admin.register(IdempotentRequest)
class IdempotentRequestAdmin(admin.ModelAdmin):
    """The keyed writes seen (holes recorded, games ended, club and tournament writes), for support."""

    list_display = ("key", "scope", "route", "status", "hole_number", "created_at")
    search_fields = ("key", "scope")
    readonly_fields = (
        "scope", "key", "method", "route", "request_hash", "about", "status", "game", "hole", "hole_number",
    )  # fmt: skip
    # The stored answers are not shown: a new game's answer holds its edit link, a club's or
    # tournament's its secret links, and support needs to see that a key was used, not the answer.
    exclude = ("body", "headers")
