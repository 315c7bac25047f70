"""The history of a game's changes, and the targets of undo and redo (which change each would
revert now), each in one query."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

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
    # The change in one sentence that reads on its own: "Hole 9 recorded, then undone",
    # "Undone: recording of hole 9" (`change_sentence`).
    summary: str = ""


def game_history(game: Game, *, limit: int | None = None) -> list[HistoryLine]:
    """Every change to `game`, newest first (one query)."""
    changes: QuerySet[GameChange] = game.changes.order_by("-pk").select_related("undone_by", "undoes__undoes")
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
        summary=change_sentence(change, undone=undone),
    )


# What a change did to its hole, as a sentence starting with the hole ("Hole 9 recorded").
_DONE = {
    ChangeAction.CREATE: gettext_lazy("%(subject)s recorded"),
    ChangeAction.UPDATE: gettext_lazy("%(subject)s edited"),
    ChangeAction.DELETE: gettext_lazy("%(subject)s deleted"),
}
# What an undo reverted, by the action of the change it reverted.
_UNDONE = {
    ChangeAction.CREATE: gettext_lazy("Undone: recording of %(subject)s"),
    ChangeAction.UPDATE: gettext_lazy("Undone: edit of %(subject)s"),
    ChangeAction.DELETE: gettext_lazy("Undone: deletion of %(subject)s"),
    ChangeAction.REDO: gettext_lazy("Undone: redo of %(subject)s"),
}
# What a redo applied again, by the action of the change its undo had reverted.
_REDONE = {
    ChangeAction.CREATE: gettext_lazy("Redone: recording of %(subject)s"),
    ChangeAction.UPDATE: gettext_lazy("Redone: edit of %(subject)s"),
    ChangeAction.DELETE: gettext_lazy("Redone: deletion of %(subject)s"),
    ChangeAction.REDO: gettext_lazy("Redone: redo of %(subject)s"),
}


def change_sentence(change: GameChange, *, undone: bool) -> str:
    """`change` in one sentence that reads on its own, with what became of it: "Hole 9 recorded",
    "Hole 9 recorded, then undone", "Undone: recording of hole 9", "Undone: edit of playoff hole 1,
    then redone". `change.undoes` (and, for a redo, the undo's target) is read: select it related."""
    if change.action == ChangeAction.RULESET:
        return _("Rules changed")
    if change.action == ChangeAction.END:
        return _("Game ended early after hole %(n)s") % {"n": change.hole_number}
    if change.action == ChangeAction.RESUME:
        return _("Game resumed after hole %(n)s") % {"n": change.hole_number}
    number = {"n": change.hole_number}
    subject = _("playoff hole %(n)s") % number if change.is_playoff else _("hole %(n)s") % number
    values = {"subject": subject}
    if change.action in _DONE:
        sentence = capfirst(str(_DONE[change.action]) % values)
    else:
        reverted = change.undoes
        if change.action == ChangeAction.REDO and reverted is not None and reverted.undoes is not None:
            reverted = reverted.undoes  # a redo applies again what its undo reverted
        table = _REDONE if change.action == ChangeAction.REDO else _UNDONE
        kind = reverted.action if reverted is not None else ChangeAction.CREATE
        sentence = str(table.get(kind, table[ChangeAction.CREATE])) % values
    if not undone:
        return sentence
    if change.action == ChangeAction.UNDO:
        return _("%(change)s, then redone") % {"change": sentence}
    return _("%(change)s, then undone") % {"change": sentence}


def history_line(game: Game, change_id: int) -> HistoryLine | None:
    """One change of `game` as the history shows it, or None (one query)."""
    change = game.changes.filter(pk=change_id).select_related("undone_by", "undoes__undoes").first()
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


def change_by_id(change_id: int) -> GameChange | None:
    """The change `change_id` (of any game: the caller found it through its game), or None."""
    return GameChange.objects.filter(pk=change_id).first()


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
