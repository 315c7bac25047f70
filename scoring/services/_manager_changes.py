"""The changes the services tell a game's manager of, built from what they just wrote.

Every hole change is logged by one of two functions (`_hole_writing.log_hole_change`, and undo's
own), and every status change is stored by one of two (`_hole_writing.refresh_totals_and_status`,
`_hole_totals` for a new hole): each calls `manager_of(game).after_change(...)` with the change
built here, right where it is written, inside the change's transaction and under the game's lock
(`scoring.game_managers`). So no path (recording, correcting, deleting, undo, redo) can forget the
manager, and what the manager writes is committed with the change or rolled back with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.game_managers import ManagedChange
from scoring.models import Game, GameStatus

__all__ = ["deleted_game", "hole_changed", "status_changed"]


def hole_changed(
    game: Game,
    hole_id: int,
    *,
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any] | None,
    actor: str,
    reason: str = "",
) -> ManagedChange:
    """A hole recorded (no `before`), deleted (no `after`) or corrected (both)."""
    state = after if after is not None else before
    if state is None:
        raise ValueError("A hole's change has the hole before it, after it, or both.")
    return ManagedChange(
        game_id=game.pk,
        managed_by=game.managed_by or game.followed_by,
        kind="recorded" if before is None else "deleted" if after is None else "corrected",
        hole_number=int(state["number"]),
        playoff=bool(state.get("playoff", False)),
        actor=actor,
        reason=reason,
        hole_id=hole_id,
    )


def status_changed(game: Game, previous: str) -> ManagedChange | None:
    """`game` finished, or a finished game is open again; None when the status did not cross."""
    finished = GameStatus.FINISHED
    if (game.status == finished) == (previous == finished):
        return None
    kind = "finished" if game.status == finished else "reopened"
    return ManagedChange(game_id=game.pk, managed_by=game.managed_by or game.followed_by, kind=kind)


def deleted_game(game: Game) -> ManagedChange:
    """`game` is about to be deleted (a club takes it out of its members' results and ratings)."""
    return ManagedChange(game_id=game.pk, managed_by=game.managed_by or game.followed_by, kind="game_deleted")
