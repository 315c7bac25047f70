"""What a game's manager may refuse when a hole is recorded or changed, and the rule tables share.

A managed game's manager (`scoring.game_managers.GameManager.check_hole_change`) is asked before
every hole the services record, edit, delete, undo or redo, inside the game's lock, with the facts
it needs (`scoring.game_managers.HoleChange`: which hole, how many holes were recorded after it,
what the person asking may do, and the reason they gave). It refuses by raising
`HoleChangeRefused` or `ReasonRequired`; the reason given is kept in the game's history with the
change. `corrections_at_table_until_next_hole` is the rule of a tournament's tables, for any
manager to apply. Games without a manager are never asked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from scoring.game_errors import GameError

if TYPE_CHECKING:
    from scoring.game_managers import HoleChange

__all__ = ["HoleChangeRefused", "ReasonRequired", "corrections_at_table_until_next_hole"]


class HoleChangeRefused(GameError):
    """The game's manager does not let this person record or change this hole now."""

    http_status = 409


class ReasonRequired(GameError):
    """The correction is allowed, but only with a reason, and none was given."""

    http_status = 400


def corrections_at_table_until_next_hole(change: HoleChange) -> None:
    """A hole may be corrected at the table until the next hole is recorded; later only by an
    official or the manager, with a reason (a tournament table's rule). Recording is not judged."""
    if change.action == "record" or change.later_holes == 0:
        return
    if change.capabilities is not None and not change.capabilities & {"officiate", "manage"}:
        raise HoleChangeRefused(
            _(
                "Hole %(number)s can no longer be changed at the table: the next hole has been "
                "recorded. Call an official."
            )
            % {"number": change.hole_number},
            where="hole",
        )
    if change.capabilities is not None and not change.reason.strip():
        raise ReasonRequired(
            _("Say why hole %(number)s is being changed after the next hole was recorded.")
            % {"number": change.hole_number},
            where="reason",
        )
