"""How the tournament follows its tables' games: `scoring`'s signals, connected in `ready()`.

- any hole recorded, corrected or deleted at a table moves its round's and its tournament's
  versions on (the keys of the cached standings, the event pages' ETags);
- a correction, a deletion or a reopened game clears the table's confirmation while the round is
  in play: the players confirm the scorecard the standings count, not an earlier one. A finalized
  round keeps its confirmations; a director's correction there is kept in the event's log.
"""

from __future__ import annotations

from typing import Any

from django.db.models import F

from scoring import signals
from tournaments.models import TABLE_MANAGER, Round, Tournament
from tournaments.services.tables import scorecard_changed


def _bump(game_id: int) -> None:
    """The table's round and its tournament moved on: their cached standings no longer hold."""
    Round.objects.filter(tables__game_id=game_id).update(version=F("version") + 1)
    Tournament.objects.filter(
        pk__in=Tournament.objects.filter(round_set__tables__game_id=game_id).values("pk")
    ).update(version=F("version") + 1)


def follow_hole_recorded(sender: Any, event: signals.HoleEvent, **kwargs: Any) -> None:
    """A table recorded a hole: the standings moved."""
    if event.managed_by == TABLE_MANAGER:
        _bump(event.game_id)


def follow_hole_changed(sender: Any, event: signals.HoleEvent, **kwargs: Any) -> None:
    """A table's hole was corrected or deleted: the standings moved, the confirmation no longer holds."""
    if event.managed_by == TABLE_MANAGER:
        scorecard_changed(
            event.game_id,
            change="deleted" if not event.scores else "corrected",
            hole=event.number,
            reason=event.reason,
            by=event.actor,
        )
        _bump(event.game_id)


def follow_game_reopened(sender: Any, event: signals.GameEvent, **kwargs: Any) -> None:
    """A finished table's game is open again: its confirmation no longer holds."""
    if event.managed_by == TABLE_MANAGER:
        scorecard_changed(event.game_id, change="reopened")
        _bump(event.game_id)


def connect() -> None:
    """Connect the receivers (idempotent: each has a dispatch uid)."""
    signals.hole_recorded.connect(follow_hole_recorded, dispatch_uid="tournaments.hole_recorded")
    signals.hole_corrected.connect(follow_hole_changed, dispatch_uid="tournaments.hole_corrected")
    signals.hole_deleted.connect(follow_hole_changed, dispatch_uid="tournaments.hole_deleted")
    signals.game_reopened.connect(follow_game_reopened, dispatch_uid="tournaments.game_reopened")
