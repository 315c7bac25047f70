from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Events, seating, standings and officiating. Depends on scoring, never the reverse."""

    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        """Plug the tournament into `scoring`'s seams: access, hole policy, error statuses,
        signals, the Idempotency-Key store."""
        from scoring import hole_policies
        from scoring.access import (
            register_access_provider,
            register_game_manager,
            register_managed_game_links,
        )
        from scoring.api.write_once import register_write_once
        from scoring.error_statuses import register_error_status
        from tournaments import receivers
        from tournaments.access import table_hole_policy, table_staff_capabilities
        from tournaments.api.idempotency import call_once
        from tournaments.errors import STATUSES
        from tournaments.models import TABLE_MANAGER
        from tournaments.web.links import table_board_links

        register_access_provider("tournaments.staff", table_staff_capabilities)
        register_game_manager(TABLE_MANAGER, _("the tournament's directors"))
        hole_policies.register_hole_policy(TABLE_MANAGER, table_hole_policy)
        register_managed_game_links(TABLE_MANAGER, table_board_links)
        for kind, status in STATUSES.items():
            register_error_status(kind, status)
        receivers.connect()
        # scoring's API POSTs keep their Idempotency-Keys in the tournament API's one store.
        register_write_once(call_once)
