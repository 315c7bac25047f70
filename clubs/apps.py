from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    """Clubs, their members, ratings and seasons (seed 003). Uses scoring, never the reverse;
    tournaments uses clubs (a tournament's club, an entrant's member)."""

    name = "clubs"
    verbose_name = _("Clubs")

    def ready(self) -> None:
        """Register the club as the follower of its live games, once (`ClubGameManager`: a new
        game's club and members, their results and ratings written in each change's transaction,
        and the board's way back to the club)."""
        from clubs.game_manager import ClubGameManager
        from clubs.models import CLUB_GAME
        from scoring.game_managers import register_game_manager

        register_game_manager(CLUB_GAME, ClubGameManager())
