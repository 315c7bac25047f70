"""Undo and redo of hole changes: each moves one hole between the states a change recorded."""

from __future__ import annotations

from typing import Any, TypedDict, Unpack

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from golfclub.core.limits import MAX_ACTOR_LENGTH
from scoring.game_errors import (
    ChangeNotCurrent,
    NothingToUndo,
)
from scoring.game_managers import manager_of
from scoring.models import (
    ChangeAction,
    Game,
    GameChange,
    Hole,
)
from scoring.rules.errors import Problem
from scoring.selectors import (
    change_origin,
    game_ruleset,
    redo_target_change,
    undo_target_change,
)
from scoring.services._entry_scoring import rescore_snapshot
from scoring.services._guards import Capabilities, check_hole_policy
from scoring.services._hole_writing import (
    copy_game_state,
    find_hole,
    lock_game,
    refresh_totals_and_status,
    shift_later_holes,
    snapshot_hole,
    write_hole_entries,
)
from scoring.services._manager_changes import hole_changed


class ChangeRequest(TypedDict, total=False):
    """What undo and redo take, all optional: `actor`, `expected_change` (the change the client saw
    as the one to revert), `capabilities` (what the access policy granted; None for the code
    itself) and the `reason` a game's manager may ask for."""

    actor: str
    expected_change: int | None
    capabilities: Capabilities
    reason: str


def undo_last_change(game: Game, **request: Unpack[ChangeRequest]) -> GameChange:
    """Revert the latest hole change not yet undone, and record the undo as a change itself.

    Undoing a recorded hole deletes it, undoing an edit restores the state before it, undoing a
    delete puts the hole back at its number; undoing a redo reverts it again. Tapping again walks
    further back. `expected_change` is the id of the change the client saw as the one to undo: a
    resent form or retried request then raises `ChangeNotCurrent` (with `already=True` when that
    change is already undone) instead of undoing one more. Raises `NothingToUndo` when none is left.
    On a managed game the manager's hole policy judges the undo as a change of that hole, with
    `capabilities` and `reason`; the hole's change is told to the game's manager in its transaction.
    """
    return _revert_latest_change(game, redo=False, **request)


def redo_change(game: Game, **request: Unpack[ChangeRequest]) -> GameChange:
    """Apply again the change the latest undo reverted, and record the redo as a change itself.

    Redo is offered until a new hole is recorded, edited or deleted; after several undos, redo
    walks forward again. `expected_change` is the id of the undo the client saw as the one to redo
    (a repeat raises `ChangeNotCurrent`). Raises `NothingToUndo` when there is nothing to redo.
    The hole policy and the game's manager as for `undo_last_change`.
    """
    return _revert_latest_change(game, redo=True, **request)


def _revert_latest_change(
    game: Game,
    *,
    redo: bool,
    actor: str = "",
    expected_change: int | None = None,
    capabilities: Capabilities = None,
    reason: str = "",
) -> GameChange:
    """One transaction: revert the undo target (or, for `redo`, the redo target), logged as a change."""
    with transaction.atomic():
        locked = lock_game(game)
        target = redo_target_change(locked) if redo else undo_target_change(locked)
        _refuse_other_named_change(locked, target, expected_change, redo=redo)
        if target is None:
            message = _("There is nothing to redo.") if redo else _("There is no change to undo.")
            raise NothingToUndo(Problem("redo" if redo else "undo", message))
        original = change_origin(target)
        reason = check_hole_policy(
            locked,
            action="redo" if redo else "undo",
            number=_hole_number_of(original),
            playoff=original.is_playoff,
            capabilities=capabilities,
            reason=reason,
        )
        change = _move_hole_to_state(
            locked,
            original,
            forward=redo,
            actor=actor,
            action=ChangeAction.REDO if redo else ChangeAction.UNDO,
            reverts=target,
            reason=reason,
        )
        refresh_totals_and_status(locked)
    copy_game_state(locked, game)
    return change


def _refuse_other_named_change(
    game: Game, target: GameChange | None, expected: int | None, *, redo: bool
) -> None:
    """Refuse an undo or redo that names another change than the one to revert now."""
    if expected is None or (target is not None and target.pk == expected):
        return
    named = GameChange.objects.filter(game=game, pk=expected).select_related("undone_by").first()
    already = False
    if named is not None:
        try:
            already = named.undone_by is not None
        except GameChange.DoesNotExist:
            already = False
    if already:
        message = (
            _("That undo was already redone: nothing more was changed.")
            if redo
            else _("That change was already undone: nothing more was undone.")
        )
    else:
        message = _("The game changed meanwhile: reload it and check what to undo or redo now.")
    raise ChangeNotCurrent(Problem("change", message), already=already)


def _hole_number_of(change: GameChange) -> int:
    """The number of the hole `change` moved, as it stood after (or, for a delete, before) it."""
    return int((change.after or change.before or {}).get("number", change.hole_number))


def _move_hole_to_state(
    game: Game,
    original: GameChange,
    *,
    forward: bool,
    actor: str,
    action: str,
    reverts: GameChange,
    reason: str = "",
) -> GameChange:
    """Move hole `original` names from its before state to its after one (forward) or back."""
    ruleset = game_ruleset(game)
    seats = list(game.seats.order_by("seat"))
    playoff = original.is_playoff
    target_state = original.after if forward else original.before
    current_state = original.before if forward else original.after
    number = (target_state or current_state or {}).get("number", original.hole_number)
    if target_state is None:  # the hole goes away (undo a recording, redo a delete)
        hole = find_hole(game, number, playoff)
        before, after = snapshot_hole(hole), None
        hole_id = hole.pk
        hole.delete()
        shift_later_holes(game, playoff, after=number, by=-1)
    elif current_state is None:  # the hole comes back (undo a delete, redo a recording)
        shift_later_holes(game, playoff, after=number - 1, by=1)
        scored, ender_seat = rescore_snapshot(seats, ruleset, target_state)
        hole = Hole.objects.create(
            id=_hole_id_if_free(target_state.get("id")),
            # A version above the one it had, so a validator read before it went away never matches.
            version=int(target_state.get("version") or 0) + 1,
            game=game,
            number=number,
            is_playoff=playoff,
            dealer_seat=target_state["dealer_seat"],
            ender=ender_seat,
            created_by=target_state.get("created_by", ""),
        )
        write_hole_entries(hole, scored, ender_seat, fresh=True)
        before, after, hole_id = None, snapshot_hole(hole), hole.pk
    else:  # an edit: put the other entries back
        hole = find_hole(game, number, playoff)
        before = snapshot_hole(hole)
        Hole.objects.filter(pk=hole.pk).update(version=F("version") + 1, updated_at=timezone.now())
        scored, ender_seat = rescore_snapshot(seats, ruleset, target_state)
        write_hole_entries(hole, scored, ender_seat)
        after, hole_id = snapshot_hole(hole), hole.pk
    change = GameChange.objects.create(
        game=game,
        action=action,
        hole_number=number,
        is_playoff=playoff,
        actor=actor[:MAX_ACTOR_LENGTH],
        reason=reason,
        before=before,
        after=after,
        undoes=reverts,
    )
    changed = hole_changed(game, hole_id, before=before, after=after, actor=change.actor, reason=reason)
    manager_of(game).after_change(changed)  # up into the game's manager, in this transaction
    return change


def _hole_id_if_free(hole_id: Any) -> int | None:
    """The id a hole had, to give it again when it is put back; None (a new id) if taken or unknown."""
    if not isinstance(hole_id, int) or Hole.objects.filter(pk=hole_id).exists():
        return None
    return hole_id
