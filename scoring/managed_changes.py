"""What the app managing a game writes with each change of its holes: inside the change's transaction.

A managed game (`Game.managed_by`, e.g. a tournament's table) may matter to data its manager keeps
(the event's log of a finalized round's corrections). Such data must follow from what is
committed: written by the service that writes the hole, in the hole's transaction, never by a
signal receiver run after the commit, whose failure (a dropped connection) could only be logged
and would leave it behind for good (issue 31). So the manager registers ONE follower for its label
in its app's `ready()`, without `scoring` importing it:

    from scoring import managed_changes

    def follow(change: managed_changes.ManagedChange) -> None:
        if change.kind == "corrected" and round_is_closed(change.game_id):
            keep_in_the_log(change)

    managed_changes.register_change_follower("tournaments.table", follow)

The services call it (`follow_change`) for every hole recorded, corrected or deleted (undo and redo
included) and every game finished or reopened, where they log that change: inside the game's lock
and the change's transaction. A follower that raises rolls the whole change back: the person gets
the error and nothing is saved, never a saved hole with its consequences missing. A follower keeps
the hole path fast: it returns at once for what it does not follow (a new hole, in a tournament),
and it takes no row lock of its own (the game's is held; locking rows its manager locks before the
game would invert the manager's lock order). Games without a manager never call one.

What only needs to be read fresh (the tournament's versions, ETags and cached standings; whether a
table's confirmation still holds) is derived from the game's `version`, which every change moves in
its own transaction: nothing has to be written for it (`tournaments.live_versions`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction

__all__ = [
    "ChangeFollower",
    "ManagedChange",
    "follow_change",
    "register_change_follower",
    "unregister_change_follower",
]


@dataclass(frozen=True, slots=True)
class ManagedChange:
    """One change of a managed game, as its follower sees it.

    `kind` is "recorded", "corrected" or "deleted" for a hole (undo and redo are one of those),
    "finished" or "reopened" for the game's status; `hole_number` is None for a status change;
    `actor` and `reason` are as kept in the game's history; `hole_id` is the hole's row (a deleted
    hole's former id), None for a status change.
    """

    game_id: int
    managed_by: str
    kind: str
    hole_number: int | None = None
    playoff: bool = False
    actor: str = ""
    reason: str = ""
    hole_id: int | None = None


ChangeFollower = Callable[[ManagedChange], None]

_followers: dict[str, ChangeFollower] = {}


def register_change_follower(managed_by: str, follower: ChangeFollower) -> None:
    """Make `follower` write what the manager `managed_by` keeps with each change of its games."""
    _followers[managed_by] = follower


def unregister_change_follower(managed_by: str) -> None:
    """Forget the follower of `managed_by` (tests)."""
    _followers.pop(managed_by, None)


def follow_change(change: ManagedChange) -> None:
    """Call the follower of `change.managed_by`, if any, in the change's transaction (the
    services' seam: an exception propagates and rolls the change back)."""
    follower = _followers.get(change.managed_by) if change.managed_by else None
    if follower is None:
        return
    if not transaction.get_connection().in_atomic_block:
        # Outside a transaction the follower's writes could stand without the change: a bug, said loudly.
        raise RuntimeError("A managed game's change is followed inside the change's transaction.")
    follower(change)
