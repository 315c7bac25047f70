"""The staff type a table's paper score slip into its game (`tournaments.services.paper_slips`).

`/tournaments/<id>/tables/<table id>/paper-slip/`: the table's scorecard as a grid (a row per hole,
a column per player in seat order, the totals below, as on the slip), the holes the phone recorded
filled in with their scores; the staff type the other holes' scores and save them all at once.
A disagreement with the phone is shown hole by hole (the phone's scores and the slip's), never
overwritten without the "replace" box ticked.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from golfclub.core.errors import catch_refusal
from golfclub.core.form_fields import WholeNumberField, place_problems
from golfclub.core.limits import TOTAL_LIMIT
from scoring import selectors as scoring_selectors
from scoring.selectors import Scoreboard
from tournaments.access import Action, Role
from tournaments.models import Table
from tournaments.services.paper_slips import (
    SlipConflicts,
    SlipRow,
    enter_paper_slip,
    slip_actor,
    typed_from_slip,
)
from tournaments.web.access import FORM_METHODS, TournamentPage, tournament_page_for

#: Rows a slip has when its match is played to a target score (as the printed slips).
SLIP_ROWS_WITHOUT_A_LIMIT = 12
ROLE_WORDS = {
    Role.DIRECTOR: gettext_lazy("director"),
    Role.CO_DIRECTOR: gettext_lazy("co-director"),
    Role.OFFICIAL: gettext_lazy("official"),
}


class PaperSlipForm(forms.Form):
    """A slip's grid: `h<hole>-p<seat>` each player's hole score, `h<hole>-version` the recorded
    hole's version the page showed, and `replace` to correct the phone's scores from the slip."""

    replace = forms.BooleanField(
        required=False,
        label=gettext_lazy(
            "Replace the phone's scores with the slip's where they differ (kept in the history)"
        ),
    )
    # A refusal's problems (`place_problems`) all go above the slip: the services name holes
    # ("hole-3"), not the slip's cells.
    problems_at_top = True

    def __init__(self, *args: Any, players: list[str], holes: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players, self.holes = players, holes
        for number in range(1, holes + 1):
            self.fields[f"h{number}-version"] = WholeNumberField(
                required=False, min_value=1, max_value=2**31 - 1, widget=forms.HiddenInput
            )
            for index, name in enumerate(players):
                self.fields[f"h{number}-p{index}"] = WholeNumberField(
                    label=_("Hole %(n)s, %(name)s") % {"n": number, "name": name},
                    where=_("Hole %(n)s, %(name)s") % {"n": number, "name": name},
                    required=False,
                    min_value=-TOTAL_LIMIT,
                    max_value=TOTAL_LIMIT,
                    widget=forms.TextInput(attrs={"inputmode": "numeric", "pattern": "-?[0-9]*", "size": 3}),
                )

    def clean(self) -> dict[str, Any]:
        """Each hole typed whole (a score for every player) or left blank."""
        data = super().clean()
        for number in range(1, self.holes + 1):
            names = [f"h{number}-p{index}" for index in range(len(self.players))]
            if any(name in self.errors for name in names):
                continue
            given = [data.get(name) is not None for name in names]
            if any(given) and not all(given):
                self.add_error(
                    names[given.index(False)],
                    _("Hole %(n)s: type a score for every player, or leave the whole hole blank.")
                    % {"n": number},
                )
        return data

    def rows(self) -> list[SlipRow]:
        """The holes typed, as the service takes them."""
        rows = []
        for number in range(1, self.holes + 1):
            scores = [self.cleaned_data.get(f"h{number}-p{index}") for index in range(len(self.players))]
            if all(score is not None for score in scores):
                rows.append(
                    SlipRow(
                        number,
                        dict(zip(self.players, scores, strict=True)),
                        self.cleaned_data.get(f"h{number}-version"),
                    )
                )
        return rows

    def grid(self) -> list[tuple[int, forms.BoundField, list[forms.BoundField]]]:
        """Per hole: its number, its hidden version and each player's field, for the template."""
        return [
            (n, self[f"h{n}-version"], [self[f"h{n}-p{i}"] for i in range(len(self.players))])
            for n in range(1, self.holes + 1)
        ]


def _table_or_404(page: TournamentPage, table_id: int) -> Table:
    table = (
        Table.objects.select_related("round", "game")
        .filter(pk=table_id, round__tournament=page.tournament)
        .first()
    )
    if table is None:
        raise Http404(_("No such table in this tournament."))
    return table


def _initial(board: Scoreboard, players: list[str]) -> dict[str, Any]:
    """The phone's holes as the form's initial values."""
    initial: dict[str, Any] = {}
    for hole in board.holes:
        initial[f"h{hole.number}-version"] = hole.version
        for index, name in enumerate(players):
            entry = hole.entry_for(name)
            if entry is not None:
                initial[f"h{hole.number}-p{index}"] = entry.score
    return initial


def _slip_rows(table: Table, board: Scoreboard) -> int:
    """As many rows as the printed slip (the match's holes, or 12), or more if the phone has more."""
    limit = scoring_selectors.holes_to_play(table.game.ruleset) or SLIP_ROWS_WITHOUT_A_LIMIT
    return max(limit, len(board.holes))


def paper_slip(request: HttpRequest, pk: int, table_id: int) -> HttpResponse:
    """The table's scorecard grid to type its paper slip into, and saving it (all holes at once)."""
    page = tournament_page_for(request, pk, Action.SCORE_TABLES, methods=FORM_METHODS)
    return page.write_once(request, lambda: _paper_slip(request, page, table_id))


def _paper_slip(request: HttpRequest, page: TournamentPage, table_id: int) -> HttpResponse:
    table = _table_or_404(page, table_id)
    board = scoring_selectors.scoreboard(table.game)
    players = [line.name for line in board.players]
    holes = _slip_rows(table, board)
    conflicts: list[Any] = []
    status = 200
    if request.method == "POST":
        form = PaperSlipForm(request.POST, players=players, holes=holes)
        if not form.is_valid():
            return _render(request, page, table, board, form, [], status=400)
        with catch_refusal() as refused:
            done = enter_paper_slip(
                table,
                form.rows(),
                replace=form.cleaned_data.get("replace", False),
                actor=request.user,
                actor_text=slip_actor(request.user.get_username(), str(ROLE_WORDS[Role(page.role)])),
                capabilities=page.table_capabilities,
            )
        if isinstance(slip := refused.error, SlipConflicts):
            # The page shows the phone's scores beside the slip's; the versions become the phone's
            # current ones, so saving again (after checking) compares with what is there now.
            data = request.POST.copy()
            for conflict in slip.conflicts:
                data[f"h{conflict.number}-version"] = conflict.phone_version or ""
            form = PaperSlipForm(data, players=players, holes=holes)
            form.is_valid()
            conflicts = slip.conflicts
        if refused:
            place_problems(form, refused.problems)
            return _render(request, page, table, board, form, conflicts, status=refused.status)
        if done.recorded or done.corrected:
            messages.success(
                request,
                _("Table %(t)s: holes %(holes)s saved from the paper slip.")
                % {"t": table.number, "holes": ", ".join(map(str, sorted(done.recorded + done.corrected)))},
            )
        else:
            messages.info(
                request,
                _("Table %(t)s: the slip agrees with the phone, nothing to save.") % {"t": table.number},
            )
        return redirect("tournaments:paper-slip", pk=page.tournament.pk, table_id=table.pk)
    form = PaperSlipForm(players=players, holes=holes, initial=_initial(board, players))
    return _render(request, page, table, board, form, conflicts, status=status)


def _render(
    request: HttpRequest,
    page: TournamentPage,
    table: Table,
    board: Scoreboard,
    form: PaperSlipForm,
    conflicts: list[Any],
    *,
    status: int,
) -> HttpResponse:
    return render(
        request,
        "tournaments/paper_slip.html",
        page.context(
            table=table,
            board=board,
            form=form,
            conflicts=conflicts,
            recorded={hole.number for hole in board.holes},
            from_slip=typed_from_slip(table, board.holes),
        ),
        status=status,
    )
