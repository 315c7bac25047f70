"""Forms of entering and correcting one hole, deleting it, and undo or redo.

The hole form is built from the game's ruleset (grid shape) and players; it only checks the form's
own shape (a grid or a total for each player, whole numbers) and leaves every Golf rule to the
engine through the services.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from golfclub.core.form_fields import TextField, WholeNumberField, place_problems
from golfclub.core.inputs import int_or_none
from golfclub.core.limits import (
    GAME_PAGE_MAX_BLOCKS_MARKED,
    INT_MAX,
    MAX_REASON_LENGTH,
    SMALL_INT_MAX,
    TOTAL_LIMIT,
)
from scoring.rules import Problem, Ruleset
from scoring.web.grid_entry import (
    GridEntry,
    build_grid_entry,
    is_blank,
    is_complete,
    names_a_cell,
    read_tokens,
    token_problems,
)


@dataclass(frozen=True)
class PlayerFields:
    """One player's part of the hole form, for the template: the card grid and the typed-total field."""

    index: int
    name: str
    grid: GridEntry
    total: forms.BoundField
    blocks: forms.BoundField | None
    errors: list[str]
    is_dealer: bool
    is_first: bool


class HoleForm(forms.Form):
    """One hole: for each player a grid of card tokens or a typed total, and who ended the hole.

    Cards come from the grid-entry component, cell inputs `p<seat>-<row>-<col>` (1-based row and
    column); `p<seat>-total` is a typed total, `p<seat>-blocks` the blocks marked by hand (only when
    the ruleset has the block rule); `ender` is a seat index or empty; `version` guards edits and
    `idempotency_key` makes a retried save record the hole once.
    """

    ender = forms.TypedChoiceField(
        label=gettext_lazy("Who ended the hole?"),
        coerce=int,
        empty_value=None,
        required=False,
        choices=(),
        widget=forms.RadioSelect,
    )
    version = WholeNumberField(
        widget=forms.HiddenInput, required=False, min_value=0, max_value=INT_MAX, where="version"
    )
    # The hole being corrected, by id: holes keep it when renumbered, so a form loaded before a
    # delete never overwrites the hole that took its number.
    hole_id = WholeNumberField(
        widget=forms.HiddenInput, required=False, min_value=1, max_value=2**63 - 1, where="hole_id"
    )
    idempotency_key = TextField(
        widget=forms.HiddenInput, required=False, max_length=64, where="idempotency_key"
    )
    # The hole a new hole's form was filled for: checked under the game lock when it is saved.
    number = WholeNumberField(
        widget=forms.HiddenInput, required=False, min_value=1, max_value=SMALL_INT_MAX, where="number"
    )
    scorer = TextField(label=gettext_lazy("Scored by"), required=False)
    # Why a hole is corrected, when the game's manager asks for one (an official's correction).
    reason = TextField(
        label=gettext_lazy("Reason for the change"),
        required=False,
        max_length=MAX_REASON_LENGTH,
        where="reason",
    )
    # A refusal's problems (`place_problems`) all go in the list atop the page; the grids and players
    # show theirs again (`problems_to_place` keeps them, `player_fields` reads them).
    problems_at_top = True

    def __init__(
        self,
        *args: Any,
        players: Sequence[str],
        ruleset: Ruleset,
        grids: Mapping[str, Sequence[Sequence[str]]] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        self.ruleset = ruleset
        self.initial_grids = dict(grids or {})
        self.problems: list[Problem] = []
        self.stale = False
        self.moved_from: int | None = None  # the hole number this form was filled for, when it moved on
        self.fields["ender"].choices = [("", _("Not recorded"))] + [
            (index, name) for index, name in enumerate(self.players)
        ]
        for index, name in enumerate(self.players):
            self.fields[f"p{index}-total"] = WholeNumberField(
                label=_("%(name)s: or type the hole total") % {"name": name},
                where=_("%(name)s's total") % {"name": name},
                required=False,
                min_value=-TOTAL_LIMIT,
                max_value=TOTAL_LIMIT,
                widget=forms.TextInput(attrs={"inputmode": "numeric", "pattern": "-?[0-9]*", "size": 5}),
            )
            if ruleset.four_of_a_kind_block is not None:
                self.fields[f"p{index}-blocks"] = WholeNumberField(
                    label=_("%(name)s: blocks of four (with a typed total)") % {"name": name},
                    where=_("%(name)s's blocks of four") % {"name": name},
                    required=False,
                    min_value=0,
                    max_value=GAME_PAGE_MAX_BLOCKS_MARKED,
                    widget=forms.TextInput(attrs={"inputmode": "numeric", "pattern": "[0-9]*", "size": 3}),
                )
        for field_name, field in self.fields.items():
            if field_name.endswith(("-total", "-blocks")):
                # Each keystroke is a whole new number: the live preview follows it at once
                # (static/js/htmx-events.js raises "preview-now"), not after a typing pause.
                field.widget.attrs["data-preview-now"] = ""

    def tokens(self, index: int) -> list[list[str]]:
        """The card tokens typed for player `index` (blank strings for empty cells)."""
        if self.is_bound:
            return read_tokens(self.data, f"p{index}", self.ruleset.rows, self.ruleset.cols)
        saved = self.initial_grids.get(self.players[index])
        if saved:
            return [[str(token) for token in row] for row in saved]
        return [["" for _c in range(self.ruleset.cols)] for _r in range(self.ruleset.rows)]

    def player_fields(self, *, dealer: int | None = None, first: int | None = None) -> list[PlayerFields]:
        """Each player's grid, total field and messages, in seat order."""
        out = []
        for index, name in enumerate(self.players):
            where = f"entries.{name}"
            grid = build_grid_entry(
                f"p{index}",
                self.ruleset.rows,
                self.ruleset.cols,
                tokens=self.tokens(index),
                problems=self.problems,
                where=where,
                label=_("%(name)s's cards") % {"name": name},
            )
            total = self[f"p{index}-total"]
            errors = [str(e) for e in total.errors]
            errors += [p.message for p in self.problems if p.where == where and not names_a_cell(p)]
            blocks = self[f"p{index}-blocks"] if f"p{index}-blocks" in self.fields else None
            if blocks is not None:
                errors += [str(e) for e in blocks.errors]
            out.append(
                PlayerFields(
                    index=index,
                    name=name,
                    grid=grid,
                    total=total,
                    blocks=blocks,
                    errors=errors,
                    is_dealer=index == dealer,
                    is_first=index == first,
                )
            )
        return out

    def clean(self) -> dict[str, Any]:
        """Each player needs a full grid or a total (not a half-filled grid, not both)."""
        cleaned = super().clean() or {}
        entries: dict[str, Any] = {}
        blocks: dict[str, int] = {}
        for index, name in enumerate(self.players):
            if f"p{index}-total" in self.errors:
                continue
            tokens = self.tokens(index)
            total = cleaned.get(f"p{index}-total")
            message = None
            if not is_blank(tokens) and total is not None:
                message = _("%(name)s: enter the cards or a total, not both (clear one of them).") % {
                    "name": name
                }
            elif total is not None:
                entries[name] = total
            elif is_complete(tokens):
                # A card the engine cannot read is named now, with every other mistake of the
                # form, not only once those are fixed and the engine gets the hole.
                unreadable = bad_cards(name, tokens, self.ruleset)
                if unreadable:
                    place_problems(self, unreadable)
                else:
                    entries[name] = tokens
            elif not is_blank(tokens):
                # A typo in a half-filled grid is named now, not only once the grid is complete.
                place_problems(self, bad_cards(name, tokens, self.ruleset))
                missing = [
                    _("row %(row)s, column %(col)s") % {"row": r + 1, "col": c + 1}
                    for r, row in enumerate(tokens)
                    for c, token in enumerate(row)
                    if not token
                ]
                message = _("%(name)s: the grid is missing a card at %(where)s.") % {
                    "name": name,
                    "where": ", ".join(missing),
                }
            else:
                message = _("%(name)s: enter the final grid or type the hole total.") % {"name": name}
            if message:
                self.add_error(f"p{index}-total", message)
            marked = cleaned.get(f"p{index}-blocks")
            if marked:
                blocks[name] = marked
        ender = cleaned.get("ender")
        cleaned["entries"] = entries
        cleaned["blocks_marked"] = blocks
        cleaned["ender_name"] = self.players[ender] if ender is not None else None
        return cleaned

    def error_summary(self) -> list[str]:
        """Every message of the form, once each, the form's own first: the list atop the page."""
        messages: list[str] = []
        for message in [*self.non_field_errors(), *(e for name in self.fields for e in self[name].errors)]:
            if str(message) not in messages:
                messages.append(str(message))
        return messages

    def problems_to_place(self, problems: Sequence[Problem]) -> list[Problem]:
        """The engine's or the services' problems as this form shows them (`place_problems` reads this
        hook): each message naming whose grid it is, kept for the grids and players they name."""
        owners = {f"entries.{name}": name for name in self.players}
        named = []
        for problem in problems:
            # The engine says "row 1, column 1": the form says whose grid (entries.<name>[r][c]).
            owner = owners.get(problem.where.split("[", 1)[0]) or owners.get(problem.where.rsplit(".", 1)[0])
            named.append(Problem(problem.where, named_problem(owner, problem.message)) if owner else problem)
        self.problems.extend(named)
        return named

    def partial_entries(self) -> tuple[dict[str, Any], str | None]:
        """What can be previewed from a half-filled form: complete grids and typed totals only.

        Used by the live preview, which must not complain about players not entered yet.
        """
        entries: dict[str, Any] = {}
        for index, name in enumerate(self.players):
            total_text = str(self.data.get(f"p{index}-total", "")).strip()
            if total_text:
                total = int_or_none(total_text)  # still being typed: previewed once it is a number
                if total is not None:
                    entries[name] = total
                continue
            tokens = self.tokens(index)
            if is_complete(tokens):
                entries[name] = tokens
        ender_index = int_or_none(self.data.get("ender"), minimum=0, maximum=len(self.players) - 1)
        ender = None
        if ender_index is not None:
            ender = self.players[ender_index]
            if ender not in entries:
                ender = None
        return entries, ender


def named_problem(name: str, message: str) -> str:
    """ "Bob: Unknown card ..." so a table of four knows whose grid it is (once, however often called)."""
    prefix = f"{name}: "
    return message if message.startswith(prefix) else prefix + message


def bad_cards(name: str, tokens: Sequence[Sequence[str]], ruleset: Ruleset | None = None) -> list[Problem]:
    """The engine's complaint about each filled cell of `name`'s grid that names no card, with the name."""
    jokers = ruleset is None or ruleset.jokers > 0
    return [
        Problem(problem.where, named_problem(name, problem.message))
        for problem in token_problems(tokens, f"entries.{name}", jokers)
    ]


def hole_initial(players: Sequence[str], entries: Sequence[Any], ender: str | None) -> dict[str, Any]:
    """Initial form values that show a saved hole's typed totals, blocks and ender.

    `entries` are the selector's EntryLine objects (name, typed_total, blocks_marked, ...); the card
    grids go to the form's `grids` argument instead.
    """
    initial: dict[str, Any] = {}
    index_of = {name: i for i, name in enumerate(players)}
    for entry in entries:
        index = index_of.get(entry.name)
        if index is None:
            continue
        if entry.typed:
            initial[f"p{index}-total"] = entry.typed_total
        if entry.blocks_marked:
            initial[f"p{index}-blocks"] = entry.blocks_marked
    if ender in index_of:
        initial["ender"] = index_of[ender]
    return initial


class HoleDeleteForm(forms.Form):
    """The delete confirmation: which hole (its id) at which version, so a resent form deletes nothing."""

    hole_id = WholeNumberField(min_value=1, max_value=2**63 - 1, where="hole_id")
    version = WholeNumberField(min_value=1, max_value=INT_MAX, where="version")
    reason = TextField(required=False, max_length=MAX_REASON_LENGTH, where="reason")


class ChangeForm(forms.Form):
    """The undo or redo button: the change it acts on, so a resent form changes nothing more."""

    change = WholeNumberField(min_value=1, max_value=2**63 - 1, where="change")
    reason = TextField(required=False, max_length=MAX_REASON_LENGTH, where="reason")
