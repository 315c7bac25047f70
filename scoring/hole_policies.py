"""Who may record or change a hole of a managed game, and when: a policy its manager supplies.

An ordinary game lets anyone who may score it record and correct any hole. A managed game (one
that belongs to something else, such as a tournament's table; `Game.managed_by` holds its
label) can have a policy registered for its label by the app that manages it, in that app's
`ready()`:

    from scoring import hole_policies

    def table_policy(change: hole_policies.HoleChange) -> None:
        if change.action == "record" and not round_is_open(change.game_id):
            raise hole_policies.HoleChangeRefused("This round is not open for scoring yet.")
        hole_policies.corrections_at_table_until_next_hole(change)

    hole_policies.register_hole_policy("tournaments.table", table_policy)

The services ask the policy before every hole they record, edit, delete, undo or redo
(`check_hole_change`), inside the game's lock, with the facts it needs: which hole, how many
holes were recorded after it, what the person asking may do, and the reason they gave. A policy
refuses by raising `HoleChangeRefused` or `ReasonRequired`; the reason given is kept in the
game's history with the change. Games without a manager never call a policy.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring.game_errors import GameError

__all__ = [
    "HoleChange",
    "HoleChangeRefused",
    "HolePolicy",
    "ReasonRequired",
    "check_hole_change",
    "corrections_at_table_until_next_hole",
    "policy_for",
    "register_hole_policy",
    "unregister_hole_policy",
]


class HoleChangeRefused(GameError):
    """The game's manager does not let this person record or change this hole now."""

    http_status = 409


class ReasonRequired(GameError):
    """The correction is allowed, but only with a reason, and none was given."""

    http_status = 400


@dataclass(frozen=True, slots=True)
class HoleChange:
    """A request to record or change a hole, as a policy sees it.

    `action` is "record", "edit", "delete", "undo" or "redo"; `later_holes` counts the holes of
    the same kind (regular or playoff) recorded after this one (0 when recording); `capabilities`
    are what the person asking was granted by the access policy ("score", "officiate",
    "manage"...), or None for a call made by the code itself (a manager's own service call).
    """

    game_id: int
    managed_by: str
    hole_number: int
    playoff: bool
    action: str
    later_holes: int
    capabilities: frozenset[str] | None
    reason: str = ""


HolePolicy = Callable[[HoleChange], None]

_policies: dict[str, HolePolicy] = {}


def register_hole_policy(managed_by: str, policy: HolePolicy) -> None:
    """Make `policy` decide the hole changes of every game managed under the label `managed_by`."""
    if not managed_by:
        raise ValueError("A hole policy needs the label of the games it manages.")
    _policies[managed_by] = policy


def unregister_hole_policy(managed_by: str) -> None:
    """Forget the policy of `managed_by` (tests use it to leave the registry as they found it)."""
    _policies.pop(managed_by, None)


def policy_for(managed_by: str) -> HolePolicy | None:
    """The policy registered for `managed_by`, or None (ordinary games never have one)."""
    return _policies.get(managed_by) if managed_by else None


def check_hole_change(change: HoleChange) -> None:
    """Raise when the policy of the game's manager refuses `change`; unmanaged games allow it."""
    policy = _policies.get(change.managed_by) if change.managed_by else None
    if policy is not None:
        policy(change)


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
