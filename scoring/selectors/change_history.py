"""The history of a game's changes, and the targets of undo and redo (which change each would
revert now), each in one query."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet, Subquery
from django.db.models.functions import Coalesce

from scoring.models import ChangeAction, Game, GameChange


@dataclass(frozen=True)
class HistoryLine:
    """One change to a game, newest first: what, which hole, who, when, before and after, and why
    when whoever made it said (`GameChange.reason`: an official's correction, a paper slip)."""

    id: int
    action: str
    action_label: str
    hole_number: int | None
    is_playoff: bool
    actor: str
    created_at: Any
    before: Any
    after: Any
    undone: bool
    undoes_id: int | None
    reason: str = ""


def game_history(game: Game, *, limit: int | None = None) -> list[HistoryLine]:
    """Every change to `game`, newest first (one query)."""
    changes: QuerySet[GameChange] = game.changes.order_by("-pk").select_related("undone_by")
    if limit:
        changes = changes[:limit]
    lines = []
    for change in changes:
        try:
            undone = change.undone_by is not None
        except GameChange.DoesNotExist:
            undone = False
        lines.append(_history_line(change, undone=undone))
    return lines


def _history_line(change: GameChange, *, undone: bool) -> HistoryLine:
    return HistoryLine(
        id=change.pk,
        action=change.action,
        action_label=str(change.get_action_display()),
        hole_number=change.hole_number,
        is_playoff=change.is_playoff,
        actor=change.actor,
        created_at=change.created_at,
        before=change.before,
        after=change.after,
        undone=undone,
        undoes_id=change.undoes_id,
        reason=change.reason,
    )


def history_line(game: Game, change_id: int) -> HistoryLine | None:
    """One change of `game` as the history shows it, or None (one query)."""
    change = game.changes.filter(pk=change_id).select_related("undone_by").first()
    if change is None:
        return None
    try:
        undone = change.undone_by is not None
    except GameChange.DoesNotExist:
        undone = False
    return _history_line(change, undone=undone)


_HOLE_CHANGES = (ChangeAction.CREATE, ChangeAction.UPDATE, ChangeAction.DELETE)


def undo_target_change(game: Game) -> GameChange | None:
    """The change `undo_last_change` reverts: the latest hole change or redo not yet undone (one query)."""
    return (
        game.changes.filter(undone_by__isnull=True, action__in=[*_HOLE_CHANGES, ChangeAction.REDO])
        .order_by("-pk")
        .first()
    )


def undo_target(game: Game) -> HistoryLine | None:
    """What the undo button would revert now, as a history line (one query), or None."""
    change = undo_target_change(game)
    return _history_line(change, undone=False) if change else None


def redo_target_change(game: Game) -> GameChange | None:
    """The undo that `redo_change` reverts: the latest undo not yet redone, as long as no hole was
    recorded, edited or deleted after it (a new change ends what can be redone). One query."""
    latest_hole_change = game.changes.filter(action__in=_HOLE_CHANGES).order_by("-pk").values("pk")[:1]
    return (
        game.changes.filter(action=ChangeAction.UNDO, undone_by__isnull=True)
        .filter(pk__gt=Coalesce(Subquery(latest_hole_change), 0))
        .order_by("-pk")
        .first()
    )


def change_origin(change: GameChange) -> GameChange:
    """The hole change (recorded, edited, deleted) an undo or redo finally reverts, following the
    chain of undos and redos (one query a step)."""
    steps = 0
    while change.action in (ChangeAction.UNDO, ChangeAction.REDO) and change.undoes_id and steps < 1000:
        change = GameChange.objects.get(pk=change.undoes_id)
        steps += 1
    return change


def redo_target(game: Game) -> HistoryLine | None:
    """What the redo button would apply again now: the undo it reverts, as a history line, or None."""
    change = redo_target_change(game)
    if change is None:
        return None
    return _history_line(change, undone=False)
