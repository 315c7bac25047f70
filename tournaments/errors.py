"""What the tournament services refuse, as `scoring`'s error kinds (each with its problems, "where"
and "message"), so that the API and the pages answer them as they answer a game's errors.

Statuses (each kind's `http_status`, which `golfclub.core.errors` answers): a bad value is a 400,
a wrong state (seating a round while one is in play, finalizing with unfinished tables) a 409 naming
what is in the way, a missing player or round a 404, something the person may not do a 403, a change
made against a version no longer current (`StaleEdit`, the API's stale If-Match) a 412 as a hole's.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.game_errors import GameError, StaleVersion
from scoring.rules.errors import Problem


class TournamentError(GameError):
    """Bad input for a tournament write (400)."""

    http_status = 400


class WrongState(GameError):
    """The event is not in a state that allows this now (409)."""

    http_status = 409


class NotFoundInTournament(GameError):
    """The player, round or table named is not in this tournament (404)."""

    http_status = 404


class NotAllowed(GameError):
    """The person asking may not do this (403)."""

    http_status = 403


class DisqualificationToConfirm(TournamentError):
    """A penalty would disqualify `player` (`step`: from `round_number`, or from the event) and the
    page that asked for it has not had that very disqualification confirmed yet: nothing is written.
    The page asks once more, naming the player and the consequence (an unhandled one is a 400)."""

    def __init__(self, *, player_id: int, player: str, step: str, round_number: int | None) -> None:
        super().__init__(Problem("step", _("Confirm the disqualification of %(name)s.") % {"name": player}))
        self.player_id = player_id
        self.player = player
        self.step = step
        self.round_number = round_number

    @property
    def token(self) -> str:
        """What the confirming form sends back: this disqualification and no other."""
        return f"{self.step}:{self.player_id}"


class StaleEdit(StaleVersion):
    """The tournament, player or round changed since the client read the version it names (412)."""
