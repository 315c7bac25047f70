from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Events, seating, standings and officiating. Depends on scoring, never the reverse."""

    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        """Register the tournament as the manager of its tables' games, once (`TableManager`: its
        staff's access, its hole rules, its tables' board links, what it writes with each change, in
        that change's transaction, and a club's counted tables)."""
        from scoring.game_managers import register_game_manager
        from tournaments.models import TABLE_MANAGER
        from tournaments.table_manager import TableManager

        register_game_manager(TABLE_MANAGER, TableManager())
