"""A table's page, reached through the table's link (its game's edit token): the event, round, table
and players, and what the table can do at that moment (`table_stage`): wait for the round, score on
the game page and call an official, then confirm the finished scorecard ("I confirm" or "I disagree"
with a note), and afterwards what happened to it. While a call for an official is open, its part
of the page (`table_officials`) is polled, so the table reads the ruling once it is given.

The table link opens this page and its game, nothing else of the event: no standings, no other
table, no link to the dashboard.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring.access import Capability, TokenKind
from scoring.error_statuses import ANSWERED_ERRORS, problems_of, status_for
from scoring.selectors import holes_to_play, scorecards, seat_names
from scoring.web.games.access import grant_or_404
from tournaments import services
from tournaments.clock import hole_clock, table_clock
from tournaments.models import TABLE_MANAGER, OfficialCall, RoundStatus, Ruling, Table
from tournaments.services.calls import call_official
from tournaments.web.forms import ConfirmForm, add_problems
from tournaments.web.officiating_forms import CallForm
from tournaments.web.one_time_forms import one_time_form

#: How often a table's page asks, while its call is open, whether the official has answered.
OFFICIALS_POLL_SECONDS = 10


def _table_of_link(request: HttpRequest, token: str) -> Table:
    """The table whose game has this edit token (decided by `scoring.access`, as every path to a
    game is: the table link scores), or 404 for any other link or game."""
    grant = grant_or_404(request, token)
    table = None
    if (
        grant.token_kind is TokenKind.EDIT
        and grant.allows(Capability.SCORE)
        and grant.game.managed_by == TABLE_MANAGER
    ):
        table = (
            Table.objects.select_related("round__tournament", "confirmed_by", "disputed_by")
            .filter(game_id=grant.game.pk)
            .first()
        )
    if table is None:
        raise Http404(_("No table has this link. Check that the whole link was copied."))
    table.game = grant.game
    return table


def table_stage(*, round_status: str, finished: bool, holes_played: int, table: Table) -> str:
    """Where the table is, as its page says it: "waiting" (round not published), "before" (no hole
    yet), "playing", "to_confirm" (over, no confirmation), "confirmed", "disputed", "closed"
    (the round is finalized)."""
    if round_status == RoundStatus.FINALIZED:
        return "closed"
    if round_status == RoundStatus.SEATED:
        return "waiting"
    if table.is_disputed:
        return "disputed"
    if not finished:
        return "playing" if holes_played else "before"
    return "confirmed" if table.is_confirmed else "to_confirm"


def officials_at(table: Table) -> dict[str, Any]:
    """What the table's page says of its calls for an official (two queries): the call still open,
    then each ruling given at this table (for its call, or naming this round and table) with what
    was decided, and the calls settled without a ruling."""
    calls = list(OfficialCall.objects.filter(table=table).order_by("created_at", "pk"))
    rulings = (
        Ruling.objects.filter(
            Q(call__table=table)
            | Q(
                tournament_id=table.round.tournament_id,
                round_number=table.round.number,
                table_number=table.number,
            )
        )
        .select_related("penalty__entrant")
        .distinct()
        .order_by("created_at", "pk")
    )
    return {
        "open_call": next((c for c in calls if c.answered_at is None), None),
        "table_rulings": list(rulings),
        "settled_calls": [c for c in calls if c.answered_at is not None and c.ruling_id is None],
        "officials_poll_seconds": OFFICIALS_POLL_SECONDS,
    }


@require_http_methods(["GET", "HEAD"])
def table_officials(request: HttpRequest, token: str) -> HttpResponse:
    """The table page's part on its calls and rulings alone: polled while a call is open, so that
    the table reads the ruling once the official has given it."""
    table = _table_of_link(request, token)
    return render(
        request,
        "tournaments/table_confirm.html#officials",
        {
            "table": table,
            "token": token,
            "in_play": table.round.status == RoundStatus.PUBLISHED,
            "call_form": CallForm(names=seat_names(table.game_id)),
            **officials_at(table),
        },
    )


@require_http_methods(["POST"])
@one_time_form
def table_call(request: HttpRequest, token: str) -> HttpResponse:
    """ "Call an official": open a call for this table (a second tap answers the open one)."""
    table = _table_of_link(request, token)
    names = seat_names(table.game_id)
    form = CallForm(request.POST, names=names)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect("tournaments:table", token=token)
    try:
        call_official(table, called_by=form.cleaned_data["called_by"], note=form.cleaned_data["note"] or "")
    except ANSWERED_ERRORS as error:
        messages.error(request, " ".join(p.message for p in problems_of(error)))
    else:
        messages.success(request, _("An official is called: stay at the table, they are on their way."))
    return redirect("tournaments:table", token=token)


@require_http_methods(["GET", "HEAD", "POST"])
@one_time_form
def table_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """Show what the table can do now (and its scorecard once a hole is in); POST `action=confirm`
    (with `by`) or `action=disagree` (with a note)."""
    table = _table_of_link(request, token)
    game = table.game
    card = scorecards([game.pk])[game.pk]
    form = ConfirmForm(request.POST or None, names=card.players)
    status = 200
    if request.method == "POST":
        disagree = request.POST.get("action") == "disagree"
        if form.is_valid():
            try:
                services.confirm_table(
                    game, form.cleaned_data["by"], disagree=disagree, note=form.cleaned_data.get("note") or ""
                )
            except ANSWERED_ERRORS as error:
                add_problems(form, problems_of(error))
                status = status_for(error)
            else:
                messages.success(
                    request,
                    _("Your disagreement is sent to the director.")
                    if disagree
                    else _("Thank you: the scorecard is confirmed."),
                )
                return redirect("tournaments:table", token=token)
        else:
            status = 400
    return render(
        request,
        "tournaments/table_confirm.html",
        {
            "table": table,
            "round": table.round,
            "event": table.round.tournament,
            "game": game,
            "card": card,
            "form": form,
            "finished": game.is_finished,
            "stage": table_stage(
                round_status=table.round.status,
                finished=game.is_finished,
                holes_played=len(card.holes),
                table=table,
            ),
            "holes_total": holes_to_play(game.ruleset),
            "token": token,
            "clock": table_clock(table.round.tournament, table.round, table, finished=game.is_finished),
            "hole_clock": hole_clock(table.round.tournament, table.round, table),
            "call_form": CallForm(names=card.players),
            **officials_at(table),
            "in_play": table.round.status == RoundStatus.PUBLISHED,
        },
        status=status,
    )
