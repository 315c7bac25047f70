from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    """Clubs, their members, ratings and seasons (seed 003). Uses scoring, never the reverse;
    tournaments uses clubs (a tournament's club, an entrant's member)."""

    name = "clubs"
    verbose_name = _("Clubs")

    def ready(self) -> None:
        """Plug clubs into scoring's seams: its error kinds' statuses and the follower of club
        games' changes (members' results and ratings, written in each change's transaction), and the
        linker of a new game's club and members, and the board's way back to the club."""
        from clubs.services import club_games
        from clubs.services.game_follower import CLUB_GAME, follow_club_game
        from clubs.web.board_links import club_board_links
        from scoring.access import register_managed_game_links
        from scoring.managed_changes import register_change_follower

        register_change_follower(CLUB_GAME, follow_club_game)
        # `club` and `members` of a new game (the games API), checked and written by the clubs linker.
        club_games.register()
        # A finished club game's board links back to its club.
        register_managed_game_links(CLUB_GAME, club_board_links)
