"""What `scoring` announces after a change is committed, for listeners whose work may be lost.

A receiver runs after the commit: if it fails (the connection dropped at that moment) its work is
lost, only logged. So nothing the app shows may depend on one (issue 31: the tournament's versions
were bumped here, and its standings stayed behind a saved hole when that failed). What a game's
manager must write with a change goes through `scoring.managed_changes`, in the change's
transaction; what it must read fresh is derived from the game's version. Listeners connect a
receiver to these signals in their app's `ready()`, without `scoring` importing them; the app
itself connects none.

Every signal is sent with one keyword argument, `event`, a frozen dataclass holding what a
listener needs (ids, numbers, scores by name, the new status): no request, no HTTP, no model
instance that could be stale. Signals are sent only after the transaction that made the change
commits (`transaction.on_commit`), so a listener never sees a change that was rolled back, and
never from inside the game's lock. A listener that raises is logged; it cannot undo the change
that was already saved, nor turn a saved hole into an error page.

    from scoring import signals

    def follow_hole(sender, event: signals.HoleEvent, **kwargs):
        ...

    signals.hole_recorded.connect(follow_hole, dispatch_uid="standings.follow_hole")
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field

from django.db import transaction
from django.dispatch import Signal

__all__ = [
    "GameEvent",
    "HoleEvent",
    "game_finished",
    "game_reopened",
    "hole_corrected",
    "hole_deleted",
    "hole_recorded",
    "send_after_commit",
]

logger = logging.getLogger(__name__)

#: A hole was recorded (a new hole, or one brought back by undo or redo).
hole_recorded = Signal()
#: A recorded hole's entries changed (a correction, or one put back by undo or redo).
hole_corrected = Signal()
#: A hole was deleted (by a delete, or by undoing the change that recorded it).
hole_deleted = Signal()
#: The game's status became `finished` (every hole played and any playoff decided).
game_finished = Signal()
#: A finished game is no longer finished (a hole deleted, corrected or undone).
game_reopened = Signal()


@dataclass(frozen=True, slots=True)
class HoleEvent:
    """One hole's change: which game and hole, its scores after the change, and who made it.

    `scores` maps each player's name at the table to their score on the hole (empty for a
    deleted hole); `managed_by` is the game's manager label ("" for an ordinary game), so a
    listener can ignore games that are not its own without a query.
    """

    game_id: int
    hole_id: int
    number: int
    playoff: bool
    actor: str
    managed_by: str = ""
    scores: Mapping[str, int] = field(default_factory=dict)
    reason: str = ""


@dataclass(frozen=True, slots=True)
class GameEvent:
    """A game's status change: its new status and winners, and its stored totals by name."""

    game_id: int
    status: str
    winners: tuple[str, ...]
    totals: Mapping[str, int]
    managed_by: str = ""


def send_after_commit(signal: Signal, event: HoleEvent | GameEvent) -> None:
    """Send `signal` with `event` once the current transaction commits (at once outside one).

    Receivers are called robustly: one that raises is logged with its traceback and the others
    still run, because the change is already saved and the person who made it must be told so.
    """

    def send() -> None:
        for receiver, result in signal.send_robust(sender=type(event), event=event):
            if isinstance(result, Exception):
                logger.error(
                    "Receiver %r of a scoring signal failed for %r",
                    receiver,
                    event,
                    exc_info=(type(result), result, result.__traceback__),
                )

    transaction.on_commit(send)
