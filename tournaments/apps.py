from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Events, seating, standings and officiating. Depends on scoring, never the reverse."""

    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        """Plug the tournament into `scoring`'s seams: access, hole policy, error statuses, the
        follower of its tables' changes (called in each change's transaction, not after it), the
        Idempotency-Key store, and a club's counted tournament games."""
        from clubs.services.results import register_linked_games
        from scoring import hole_policies, managed_changes
        from scoring.access import (
            register_access_provider,
            register_game_manager,
            register_managed_game_links,
        )
        from scoring.api.write_once import register_write_once
        from scoring.form_once import register_form_once
        from tournaments.access import table_hole_policy, table_staff_capabilities
        from tournaments.api.idempotency import call_once
        from tournaments.models import TABLE_MANAGER
        from tournaments.services.club_results import club_tables
        from tournaments.services.tables import follow_table_change
        from tournaments.web.links import table_board_links
        from tournaments.web.one_time_forms import write_once as form_write_once

        register_access_provider("tournaments.staff", table_staff_capabilities)
        register_game_manager(TABLE_MANAGER, _("the tournament's directors"))
        hole_policies.register_hole_policy(TABLE_MANAGER, table_hole_policy)
        register_managed_game_links(TABLE_MANAGER, table_board_links)
        managed_changes.register_change_follower(TABLE_MANAGER, follow_table_change)
        # scoring's API POSTs keep their Idempotency-Keys in the tournament API's one store.
        register_write_once(call_once)
        # A club's member results also count its tournaments' finalized tables.
        register_linked_games(club_tables)
        # Page forms of apps below tournaments (clubs) write once through the tournament pages' keys.
        register_form_once(form_write_once)
