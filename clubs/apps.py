from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    """Clubs, their members, ratings and seasons (seed 003). Uses scoring, never the reverse;
    tournaments uses clubs (a tournament's club, an entrant's member)."""

    name = "clubs"
    verbose_name = _("Clubs")

    def ready(self) -> None:
        """Plug clubs into scoring's seams: its error kinds' statuses (more below as they come)."""
        from clubs.errors import STATUSES
        from scoring.error_statuses import register_error_status

        for kind, status in STATUSES.items():
            register_error_status(kind, status)

        from clubs.services import club_games

        club_games.register()  # `club` and `members` of a new game (the games API)
