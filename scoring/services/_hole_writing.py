"""The steps every hole write shares: lock the game, write entries, snapshot a hole for the
history, log the change, shift later holes, and recompute the stored totals and status.

Every writer takes the game lock first (`lock_game`), so hole numbers, stored totals and the game
version are computed by one writer at a time, in the database, never with a process-local lock.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from golfclub.core.limits import MAX_ACTOR_LENGTH
from scoring import db_statements
from scoring.game_errors import (
    GameGone,
    HoleGone,
    HoleNotFound,
    PlayoffHolesStale,
    StaleVersion,
)
from scoring.game_managers import manager_of
from scoring.models import (
    Game,
    GameChange,
    Hole,
    HoleEntry,
    Seat,
)
from scoring.rules import (
    Ruleset,
)
from scoring.rules.errors import Problem
from scoring.selectors import (
    MatchState,
    game_ruleset,
    match_state,
)
from scoring.services._entry_scoring import ScoredEntry
from scoring.services._manager_changes import hole_changed, status_changed

_RENUMBER_OFFSET = 1000


def lock_game(game: Game) -> Game:
    """The game row, locked until the transaction ends (every writer takes this lock first);
    `GameGone` (404) when it was deleted meanwhile (a tournament deleted with its tables)."""
    locked = Game.objects.select_for_update().filter(pk=game.pk).first()
    if locked is None:
        raise GameGone(Problem("game", _("This game was deleted meanwhile: nothing was saved.")))
    return locked


def copy_game_state(source: Game, target: Game) -> None:
    """Refresh the caller's Game instance with the state just committed."""
    if source is target:
        return
    for field in (
        "title",
        "ruleset",
        "ruleset_frozen_at",
        "first_dealer",
        "version",
        "status",
        "winners",
        "ended_early",
    ):
        setattr(target, field, getattr(source, field))
    target.updated_at = source.updated_at


def match_state_from_entries(game: Game, seats: Sequence[Seat], ruleset: Ruleset) -> MatchState:
    """The match state (totals, status, winners, playoff) computed from every stored entry."""
    rows = HoleEntry.objects.filter(hole__game=game).values_list(
        "seat_id", "hole__is_playoff", "hole__number", "score"
    )
    return match_state(ruleset, seats, rows, ended_early=game.ended_early)


def write_hole_entries(
    hole: Hole,
    scored: Sequence[ScoredEntry],
    ender: Seat | None,
    *,
    fresh: bool = False,
    writes: db_statements.Writes | None = None,
) -> list[HoleEntry]:
    """Write the hole's entries (replacing any) and its ender; answer the entries created."""
    if not fresh:
        hole.entries.all().delete()
        if hole.ender_id != (ender.pk if ender else None):
            Hole.objects.filter(pk=hole.pk).update(ender=ender)
            hole.ender = ender
    created = [
        HoleEntry(
            hole=hole,
            seat=s.seat,
            cards=s.cards,
            typed_total=s.typed_total,
            blocks_marked=s.blocks_marked,
            grid_score=s.grid_score,
            adjustments=s.adjustments,
            score=s.score,
        )
        for s in scored
    ]
    db_statements.insert_hole_entries(created, writes=writes)
    return created


def snapshot_hole(hole: Hole) -> dict[str, Any]:
    """A hole as JSON for the history: enough to restore it (and to show before/after)."""
    return snapshot_with_entries(hole, list(hole.entries.select_related("seat")))


def snapshot_with_entries(hole: Hole, entries: Sequence[HoleEntry]) -> dict[str, Any]:
    """The history's JSON of `hole` with these entries (each with its `seat` loaded)."""
    entries = sorted(entries, key=lambda e: e.seat.seat)
    return {
        "id": hole.pk,  # a hole put back by undo or redo keeps its id (its ETag, a retry's key)
        "version": hole.version,
        "number": hole.number,
        "playoff": hole.is_playoff,
        "dealer_seat": hole.dealer_seat,
        "ender": hole.ender.name if hole.ender_id and hole.ender else None,
        "created_by": hole.created_by,
        "entries": [
            {
                "name": e.seat.name,
                "seat": e.seat.seat,
                "cards": e.cards,
                "total": e.typed_total,
                "blocks_marked": e.blocks_marked,
                "grid_score": e.grid_score,
                "adjustments": e.adjustments,
                "score": e.score,
            }
            for e in entries
        ],
    }


def shift_later_holes(game: Game, playoff: bool, *, after: int, by: int) -> None:
    """Move the holes numbered above `after` by `by` (+1 or -1) without breaking the unique number."""
    later = Hole.objects.filter(game=game, is_playoff=playoff, number__gt=after)
    # Two steps through a free range, since a unique index is checked row by row.
    later.update(number=F("number") + _RENUMBER_OFFSET)
    Hole.objects.filter(game=game, is_playoff=playoff, number__gt=after + _RENUMBER_OFFSET).update(
        number=F("number") - _RENUMBER_OFFSET + by, version=F("version") + 1
    )


def log_hole_change(
    game: Game,
    action: str,
    hole: Hole,
    actor: str,
    *,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    writes: db_statements.Writes | None = None,
    reason: str = "",
) -> GameChange:
    """Record a hole's change in the history (queued in `writes` if given), tell the game's manager
    (in this transaction, under the game's lock), and answer it."""
    change = GameChange(
        game=game,
        action=action,
        hole_number=hole.number,
        is_playoff=hole.is_playoff,
        actor=actor[:MAX_ACTOR_LENGTH],
        reason=reason,
        before=before,
        after=after,
    )
    db_statements.insert_game_change(change, writes=writes)
    # Up into the game's manager (a tournament, a club): what it keeps is written now, with the change.
    manager_of(game).after_change(
        hole_changed(game, hole.pk, before=before, after=after, actor=change.actor, reason=reason)
    )
    return change


def refresh_totals_and_status(game: Game, *, seats: list[Seat] | None = None) -> None:
    """Recompute every seat's stored totals and the match status from the entries; bump the version.

    `seats`: the game's seats in seat order, when the caller read them under this game lock (they
    are current: not read again). A game that finishes, or is no longer finished, is told to its
    manager, in this transaction.
    """
    previous_status = game.status
    ruleset = game_ruleset(game)
    if seats is None:
        seats = list(game.seats.order_by("seat"))
    state = match_state_from_entries(game, seats, ruleset)
    if state.playoff_stale:
        # Raised inside the change's transaction: the change is rolled back, nothing half-done.
        raise PlayoffHolesStale(
            Problem(
                "hole",
                _(
                    "Playoff holes were played to break the tie as it stood; this change would leave them "
                    "deciding a different tie (or none). Delete the playoff holes first (Undo brings them "
                    "back), then make this change."
                ),
            )
        )
    for seat in seats:
        line = state.seats[seat.pk]
        seat.total, seat.holes_played, seat.playoff_total = line.total, line.holes_played, line.playoff_total
    Seat.objects.bulk_update(seats, ["total", "holes_played", "playoff_total"])
    now = timezone.now()
    Game.objects.filter(pk=game.pk).update(
        version=F("version") + 1, status=state.status, winners=list(state.winners), updated_at=now
    )
    game.refresh_from_db(fields=["version", "status", "winners", "updated_at", "ruleset_frozen_at"])
    if (crossed := status_changed(game, previous_status)) is not None:
        manager_of(game).after_change(crossed)  # up into the manager, in this transaction


def find_hole(game: Game, number: int, playoff: bool) -> Hole:
    """Hole (or playoff hole) `number` of `game` with its ender; `HoleNotFound` if none."""
    hole = Hole.objects.filter(game=game, number=number, is_playoff=playoff).select_related("ender").first()
    if hole is None:
        label = _("playoff hole") if playoff else _("hole")
        raise HoleNotFound(
            Problem("number", _("This game has no %(label)s %(n)s.") % {"label": label, "n": number})
        )
    return hole


def find_named_hole(game: Game, number: int, playoff: bool, expected_id: int | None) -> Hole:
    """Hole `number`, checked to be the hole the client read (`expected_id`) when it names one.

    Holes keep their id when renumbered, so an old form or ETag never reaches another hole.
    """
    if expected_id is None:
        return find_hole(game, number, playoff)
    hole = Hole.objects.filter(game=game, pk=expected_id).select_related("ender").first()
    label = _("playoff hole") if playoff else _("hole")
    if hole is None and Hole.objects.filter(pk=expected_id).exclude(game=game).exists():
        raise StaleVersion(  # a validator copied from another game's hole: not this game's at all
            Problem(
                "If-Match",
                _("That %(label)s belongs to another game: nothing was changed.") % {"label": label},
            )
        )
    if hole is None:
        raise HoleGone(
            Problem(
                "If-Match",
                _("That %(label)s was already deleted (or undone): nothing was changed.") % {"label": label},
            )
        )
    if hole.number != number or hole.is_playoff != playoff:
        raise StaleVersion(
            Problem(
                "If-Match",
                _(
                    "The %(label)s you loaded is now %(hole)s (holes were renumbered meanwhile). "
                    "Reload and make your change again."
                )
                % {"label": label, "hole": str(hole)},
            )
        )
    return hole


def bump_hole_version(hole: Hole, expected_version: int | None) -> None:
    """The optimistic-concurrency check: one UPDATE ... WHERE id = ? AND version = ?.

    `expected_version=None` (If-Match: *) bumps whatever version is current, under the game lock.
    """
    rows = Hole.objects.filter(pk=hole.pk)
    if expected_version is not None:
        rows = rows.filter(version=expected_version)
    changed = rows.update(version=F("version") + 1, updated_at=timezone.now())
    if changed == 0:
        current = Hole.objects.filter(pk=hole.pk).values_list("version", flat=True).first()
        raise StaleVersion(
            Problem(
                "version",
                _(
                    "%(hole)s was changed by someone else since you loaded it (your version %(yours)s, "
                    "now %(now)s). Reload it and make your change again."
                )
                % {"hole": str(hole), "yours": expected_version, "now": current},
            )
        )


def remove_hole_logged(game: Game, hole: Hole, actor: str, *, action: str, reason: str = "") -> None:
    """Delete `hole` (logged with its state) and move the later holes down one number."""
    before = snapshot_hole(hole)
    log_hole_change(game, action, hole, actor, before=before, after=None, reason=reason)
    hole.delete()
    shift_later_holes(game, hole.is_playoff, after=hole.number, by=-1)
