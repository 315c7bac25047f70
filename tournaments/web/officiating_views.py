"""The officials' pages: the desk (open calls polled by htmx, drafted time penalties, the ledger),
a ruling from the catalogue (facts asked, the answer shown with its sections and the penalty
rule 6.3 gives the player now, then recorded), rescinding, table extensions and the rulings log.

Every page asks the access policy: officials, co-directors and the director OFFICIATE; rescinding
and extensions are RUN (the directors); the rulings log is READ_RULINGS (the staff, and everybody
who sees the event when the director made it public). The forms work without JavaScript.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from golfclub.core.errors import catch_refusal, flash_refusal
from golfclub.core.form_fields import place_problems
from tournaments import services
from tournaments.access import Action
from tournaments.errors import DisqualificationToConfirm
from tournaments.models import Entrant, OfficialCall, PenaltyStep, TableSeat
from tournaments.officiating.advice import advise
from tournaments.officiating.catalogue import BY_ID, SITUATIONS
from tournaments.services import calls as call_services
from tournaments.services.penalties import proposed_rung
from tournaments.services.seating_plans import replanned_message
from tournaments.web.access import FORM_METHODS, POST_ONLY, TournamentPage, tournament_page_for
from tournaments.web.forms import ReasonForm
from tournaments.web.officiating_forms import ExtensionForm, RulingForm, situation_choices
from tournaments.web.officiating_selectors import (
    drafts_of,
    ledger,
    open_calls,
    round_in_play,
    rule_link,
    rulings_log,
)

POLL_SECONDS = 10


def _desk_context(page: TournamentPage) -> dict[str, Any]:
    current = round_in_play(page.tournament)
    return page.context(
        calls=open_calls(page.tournament),
        current=current,
        drafts=drafts_of(page.tournament, current),
        ledger=ledger(page.tournament),
        situations=SITUATIONS,
        poll_seconds=POLL_SECONDS,
    )


def desk(request: HttpRequest, pk: int) -> HttpResponse:
    """The officials' desk: calls waiting (oldest first), a ruling to start, drafts, the ledger."""
    page = tournament_page_for(request, pk, Action.OFFICIATE)
    return render(request, "tournaments/officiating.html", _desk_context(page))


def desk_calls(request: HttpRequest, pk: int) -> HttpResponse:
    """The open calls alone: the partial the desk polls."""
    page = tournament_page_for(request, pk, Action.OFFICIATE)
    return render(request, "tournaments/officiating.html#calls", _desk_context(page))


def _players(page: TournamentPage, call: OfficialCall | None) -> list[tuple[int, str]]:
    """The players a ruling may name: those of the calling table, else everybody, by name."""
    if call is not None:
        seats = TableSeat.objects.filter(table=call.table).select_related("entrant").order_by("seat")
        return [(seat.entrant_id, seat.entrant.name) for seat in seats]
    return list(
        Entrant.objects.filter(tournament=page.tournament).order_by("name_key").values_list("pk", "name")
    )


def _call_of(page: TournamentPage, value: Any) -> OfficialCall | None:
    text = value if isinstance(value, str) else ""
    if not (text.isascii() and text.isdigit() and len(text) < 19):
        return None
    return (
        OfficialCall.objects.filter(tournament=page.tournament, pk=int(text), answered_at__isnull=True)
        .select_related("table__round")
        .first()
    )


def ruling(request: HttpRequest, pk: int) -> HttpResponse:
    """Choose the situation, answer its facts, see the ruling and the penalty step, record it."""
    page = tournament_page_for(request, pk, Action.OFFICIATE, methods=FORM_METHODS)
    return page.write_once(request, lambda: _ruling(request, page))


def _ruling(request: HttpRequest, page: TournamentPage) -> HttpResponse:
    data = request.POST if request.method == "POST" else request.GET
    situation = BY_ID.get(data.get("situation", ""))
    call = _call_of(page, data.get("call"))
    context = page.context(situation=situation, call=call, choices=situation_choices())
    if situation is None:
        return render(request, "tournaments/ruling.html", context, status=400 if "situation" in data else 200)
    initial = {"round": call.table.round.number, "table": call.table.number} if call else {}
    if not call and (current := round_in_play(page.tournament)):
        initial = {"round": current.number}
    form = RulingForm(
        request.POST or None, situation=situation, players=_players(page, call), initial=initial
    )
    context["form"] = form
    if request.method != "POST":
        return render(request, "tournaments/ruling.html", context)
    if not form.is_valid():
        return render(request, "tournaments/ruling.html", context, status=400)
    facts, values = form.facts(), form.cleaned_data
    with catch_refusal() as refused:
        if request.POST.get("action") == "record":
            recorded = services.record_ruling(
                page.tournament,
                situation=situation.id,
                facts=facts,
                player=values["player"],
                round_number=values["round"],
                table=values["table"],
                hole=values["hole"],
                step=values["step"] or None,
                note=values["note"] or "",
                actor=request.user,
                # The page asks once more before a disqualification: "" until it is confirmed.
                confirmed_dq=str(request.POST.get("confirm_dq", ""))[:40],
            )
            if call is not None:
                call_services.answer_call(page.tournament, call.pk, ruling=recorded, actor=request.user)
            messages.success(request, _recorded_message(recorded))
            dq = recorded.penalty is not None and recorded.penalty.step == PenaltyStep.EVENT_DQ
            if dq and (replanned := replanned_message(page.tournament)):
                messages.info(request, replanned)
            return redirect("tournaments:officiating", pk=page.tournament.pk)
        advice = advise(situation.id, facts)
        context.update(advice=advice, citations=[(c, rule_link(c)) for c in advice.citations])
        if advice.offence and values["player"]:
            context["proposed"] = proposed_rung(
                page.tournament, values["player"], advice.offence, seconds_over=advice.seconds_over
            )
    if isinstance(question := refused.error, DisqualificationToConfirm):
        # Nothing is written: a second page names the player and the consequence, and its form sends
        # the same ruling back with this very disqualification confirmed (and its own one-time key).
        context.update(question=question, consequence=_consequence(question))
        return render(request, "tournaments/ruling_confirm.html", context)
    if refused:
        place_problems(form, refused.problems)
        # A refusal of the event's state (already disqualified) is a 409, bad input a 400.
        return render(request, "tournaments/ruling.html", context, status=refused.status)
    return render(request, "tournaments/ruling.html", context)


def _consequence(question: DisqualificationToConfirm) -> str:
    """What the disqualification about to be recorded does, in words, naming the player."""
    if question.step == PenaltyStep.EVENT_DQ:
        return _(
            "Disqualify %(name)s from the tournament: %(name)s is removed from the standings' ranking "
            "(placed last, marked DQ) and is not seated in any later round. Only rescinding the "
            "penalty on appeal brings them back."
        ) % {"name": question.player}
    return _(
        "Disqualify %(name)s from round %(n)s: %(name)s's game of round %(n)s no longer counts, so "
        "their record is incomplete and ranks below every complete one."
    ) % {"name": question.player, "n": question.round_number}


def _recorded_message(recorded: Any) -> str:
    if recorded.penalty is None:
        return _("Ruling recorded.")
    penalty = recorded.penalty
    return _("Ruling recorded: %(step)s for %(name)s%(points)s.") % {
        "step": penalty.get_step_display().lower(),
        "name": penalty.entrant.name,
        "points": f" (+{penalty.points})" if penalty.points else "",
    }


def call_close(request: HttpRequest, pk: int, call_id: int) -> HttpResponse:
    """Close a call without a ruling (the official settled it by explaining the rules)."""
    page = tournament_page_for(request, pk, Action.OFFICIATE, methods=POST_ONLY)
    return page.write_once(request, lambda: _call_close(request, page, call_id))


def _call_close(request: HttpRequest, page: TournamentPage, call_id: int) -> HttpResponse:
    with flash_refusal(request):
        call_services.answer_call(page.tournament, call_id, actor=request.user)
    return redirect("tournaments:officiating", pk=page.tournament.pk)


def draft_confirm(request: HttpRequest, pk: int, table_id: int) -> HttpResponse:
    """Give the drafted time penalty of a table (the time over is the server's, not the form's)."""
    page = tournament_page_for(request, pk, Action.OFFICIATE, methods=POST_ONLY)
    return page.write_once(request, lambda: _draft_confirm(request, page, table_id))


def _draft_confirm(request: HttpRequest, page: TournamentPage, table_id: int) -> HttpResponse:
    draft = next(
        (d for d in drafts_of(page.tournament, round_in_play(page.tournament)) if d.table.pk == table_id),
        None,
    )
    if draft is None:
        messages.error(request, _("No time penalty is drafted for that table (already given?)."))
    else:
        given = call_services.give_time_penalties(
            page.tournament, table_id, draft.seconds_over, actor=request.user
        )
        messages.success(
            request,
            ngettext(
                "Time penalty given to %(n)s player of table %(t)s (+%(p)s each).",
                "Time penalty given to %(n)s players of table %(t)s (+%(p)s each).",
                len(given),
            )
            % {"n": len(given), "t": draft.table.number, "p": given[0].points if given else 0},
        )
    return redirect("tournaments:officiating", pk=page.tournament.pk)


def penalty_rescind(request: HttpRequest, pk: int, penalty_id: int) -> HttpResponse:
    """Rescind a penalty on appeal, with a reason."""
    page = tournament_page_for(request, pk, Action.RUN, methods=POST_ONLY)
    return page.write_once(request, lambda: _penalty_rescind(request, page, penalty_id))


def _penalty_rescind(request: HttpRequest, page: TournamentPage, penalty_id: int) -> HttpResponse:
    form = ReasonForm(request.POST)
    reason = form.cleaned_data.get("reason", "") if form.is_valid() else ""
    with flash_refusal(request):
        penalty = services.rescind_penalty(page.tournament, penalty_id, reason=reason, actor=request.user)
        messages.success(request, _("Penalty rescinded; the standings follow."))
        if penalty.step == PenaltyStep.EVENT_DQ and (replanned := replanned_message(page.tournament)):
            messages.info(request, replanned)
    return redirect("tournaments:officiating", pk=page.tournament.pk)


def table_extend(request: HttpRequest, pk: int, table_id: int) -> HttpResponse:
    """Give a table of the round in play more minutes, with a reason."""
    page = tournament_page_for(request, pk, Action.RUN, methods=POST_ONLY)
    return page.write_once(request, lambda: _table_extend(request, page, table_id))


def _table_extend(request: HttpRequest, page: TournamentPage, table_id: int) -> HttpResponse:
    form = ExtensionForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect("tournaments:dashboard", pk=page.tournament.pk)
    with flash_refusal(request):
        table = call_services.extend_table(
            page.tournament, table_id, form.cleaned_data["minutes"], reason=form.cleaned_data["reason"],
            actor=request.user,
        )  # fmt: skip
        messages.success(
            request,
            _("Table %(t)s now has %(m)s extra minutes.") % {"t": table.number, "m": table.extra_minutes},
        )
    return redirect("tournaments:dashboard", pk=page.tournament.pk)


def rulings(request: HttpRequest, pk: int) -> HttpResponse:
    """The event's rulings log, newest first, each with its sections and the penalty it carried."""
    page = tournament_page_for(request, pk, Action.READ_RULINGS)
    lines = [(r, [(c, rule_link(c)) for c in r.citations]) for r in rulings_log(page.tournament)]
    return render(request, "tournaments/rulings.html", page.context(lines=lines))
