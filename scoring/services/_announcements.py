"""What the services announce, built from what they just wrote: to a managed game's manager in the
change's transaction (`scoring.managed_changes`), and to anyone after the commit (`scoring.signals`).

Every hole change passes through `announce_hole_change` (it is called where the change is logged)
and every status change through `announce_status_change` (where the status is stored), so no path
(recording, correcting, deleting, undo, redo) can forget to announce. The manager's follower runs
at once, inside the change's transaction (its failure rolls the change back): a game's manager
(`Game.managed_by`), or else the app that keeps its results (`Game.followed_by`). The signals go out
after the transaction commits, for listeners whose failure may only be logged (nothing the app
shows may depend on them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring import managed_changes, signals
from scoring.models import Game, GameStatus, Seat


def announce_hole_change(
    game: Game,
    hole_id: int,
    *,
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any] | None,
    actor: str,
    reason: str = "",
) -> None:
    """Announce a hole recorded (no `before`), deleted (no `after`) or corrected (both): to the
    game's manager now, in the transaction; to the signals' listeners after commit."""
    state = after if after is not None else before
    if state is None:
        return
    if before is None:
        signal = signals.hole_recorded
    elif after is None:
        signal = signals.hole_deleted
    else:
        signal = signals.hole_corrected
    follower = game.managed_by or game.followed_by
    if follower:  # an ordinary game has no one to tell: nothing built on its hot path
        managed_changes.follow_change(
            managed_changes.ManagedChange(
                game_id=game.pk,
                managed_by=follower,
                kind="recorded" if before is None else "deleted" if after is None else "corrected",
                hole_number=int(state["number"]),
                playoff=bool(state.get("playoff", False)),
                actor=actor,
                reason=reason,
                hole_id=hole_id,
            )
        )
    scores = {entry["name"]: entry["score"] for entry in after["entries"]} if after is not None else {}
    event = signals.HoleEvent(
        game_id=game.pk,
        hole_id=hole_id,
        number=int(state["number"]),
        playoff=bool(state.get("playoff", False)),
        actor=actor,
        managed_by=game.managed_by,
        scores=scores,
        reason=reason,
    )
    signals.send_after_commit(signal, event)


def announce_status_change(game: Game, previous: str, seats: Sequence[Seat]) -> None:
    """Announce that `game` finished, or that a finished game is open again: to the game's manager
    now, in the transaction; to the signals' listeners after commit."""
    finished = GameStatus.FINISHED
    if (game.status == finished) == (previous == finished):
        return
    follower = game.managed_by or game.followed_by
    if follower:
        kind = "finished" if game.status == finished else "reopened"
        change = managed_changes.ManagedChange(game_id=game.pk, managed_by=follower, kind=kind)
        managed_changes.follow_change(change)
    signal = signals.game_finished if game.status == finished else signals.game_reopened
    event = signals.GameEvent(
        game_id=game.pk,
        status=str(game.status),
        winners=tuple(game.winners),
        totals={seat.name: seat.total for seat in seats},
        managed_by=game.managed_by,
    )
    signals.send_after_commit(signal, event)
