"""What the services announce (`scoring.signals`), built from what they just wrote.

Every hole change passes through `announce_hole_change` (it is called where the change is logged)
and every status change through `announce_status_change` (where the status is stored), so no path
(recording, correcting, deleting, undo, redo) can forget to announce. The signals go out after the
transaction commits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring import signals
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
    """Announce a hole recorded (no `before`), deleted (no `after`) or corrected (both), after commit."""
    state = after if after is not None else before
    if state is None:
        return
    if before is None:
        signal = signals.hole_recorded
    elif after is None:
        signal = signals.hole_deleted
    else:
        signal = signals.hole_corrected
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
    """Announce that `game` finished, or that a finished game is open again, after commit."""
    finished = GameStatus.FINISHED
    if (game.status == finished) == (previous == finished):
        return
    signal = signals.game_finished if game.status == finished else signals.game_reopened
    event = signals.GameEvent(
        game_id=game.pk,
        status=str(game.status),
        winners=tuple(game.winners),
        totals={seat.name: seat.total for seat in seats},
        managed_by=game.managed_by,
    )
    signals.send_after_commit(signal, event)
