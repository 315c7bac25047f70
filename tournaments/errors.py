"""What the tournament services refuse, as `scoring`'s error kinds (each with its problems, "where"
and "message"), so that the API and the pages answer them as they answer a game's errors.

Statuses (registered in `TournamentsConfig.ready()`): a bad value is a 400, a wrong state (seating
a round while one is in play, finalizing with unfinished tables) a 409 naming what is in the way,
a missing player or round a 404, something the person may not do a 403, a change made against a
version no longer current (`StaleEdit`, the API's stale If-Match) a 412 as a hole's.
"""

from __future__ import annotations

from scoring.game_errors import GameError, StaleVersion


class TournamentError(GameError):
    """Bad input for a tournament write (400)."""


class WrongState(GameError):
    """The event is not in a state that allows this now (409)."""


class NotFoundInTournament(GameError):
    """The player, round or table named is not in this tournament (404)."""


class NotAllowed(GameError):
    """The person asking may not do this (403)."""


STATUSES: dict[type[GameError], int] = {
    TournamentError: 400,
    WrongState: 409,
    NotFoundInTournament: 404,
    NotAllowed: 403,
}


class StaleEdit(StaleVersion):
    """The tournament, player or round changed since the client read the version it names (412)."""
