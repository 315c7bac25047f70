"""The staff's pages of the rounds: the dashboard of the current round (with its live partial, polled
by htmx, and the calls for an official, polled on their own and more often), seating the next
round, a round's seating with the swap form, publishing, finalizing (the 409 naming the tables in
the way, an override with a reason), clearing a flagged table and the printable table cards with
their QR codes."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from golfclub.core.errors import catch_refusal
from golfclub.core.form_fields import place_problems
from scoring.rules.errors import Problem
from tournaments import services
from tournaments.access import Action
from tournaments.clock import round_clock
from tournaments.models import Round, RoundStatus, Table, TableSeat
from tournaments.services.seating_plans import plan_summary
from tournaments.web.access import POST_ONLY, Forbidden, TournamentPage, tournament_page_for
from tournaments.web.forms import ReasonForm, SwapForm
from tournaments.web.next_step import next_step, table_facts
from tournaments.web.officiating_selectors import open_calls
from tournaments.web.phone_status import attach_phone_statuses
from tournaments.web.selectors import player_counts, rounds_of, table_lines
from tournaments.web.table_cards import table_cards_of

POLL_SECONDS = 10
#: The calls for an official are polled more often than the tables: a call should show at once.
CALLS_POLL_SECONDS = 5


def _dashboard_context(page: TournamentPage) -> dict[str, Any]:
    """What the dashboard and its live partial draw (a fixed number of queries)."""
    tournament = page.tournament
    rounds = rounds_of(tournament)
    current = rounds[-1] if rounds else None
    lines = table_lines(current) if current else []
    to_chase = attach_phone_statuses(lines, current.status) if current else []
    states = [line.state for line in lines]
    counts = player_counts(tournament)
    return page.context(
        rounds=rounds,
        current=current,
        lines=lines,
        to_chase=to_chase,
        counts=counts,
        step=next_step(
            rounds_planned=tournament.rounds,
            rounds_seated=len(rounds),
            current_status=current.status if current else None,
            tables=table_facts(lines),
            active_players=counts["active"],
        ),
        playing=states.count("playing") + states.count("waiting"),
        finished=states.count("finished"),
        confirmed=states.count("confirmed"),
        flagged=states.count("flagged"),
        poll_seconds=POLL_SECONDS,
        clock=round_clock(tournament, current) if current else None,
        plan=plan_summary(tournament),
    )


def dashboard(request: HttpRequest, pk: int) -> HttpResponse:
    """The event's main page for its staff; everyone else is shown the event's public page."""
    page = tournament_page_for(request, pk, Action.VIEW)
    if not page.is_staff:
        return redirect("tournaments:public", pk=page.tournament.pk)
    return _render_dashboard(request, page)


def _render_dashboard(
    request: HttpRequest,
    page: TournamentPage,
    *,
    problems: list | None = None,
    override_form: ReasonForm | None = None,
    status: int = 200,
) -> HttpResponse:
    context = _dashboard_context(page)
    context.update(
        problems=problems or [], override_form=override_form or ReasonForm(), **_calls_context(page)
    )
    return render(request, "tournaments/dashboard.html", context, status=status)


def dashboard_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The dashboard's live part (round status and tables), polled every ten seconds."""
    page = tournament_page_for(request, pk, Action.SEE_LIVE)
    return render(request, "tournaments/dashboard.html#live", {**_dashboard_context(page), "polled": True})


def _calls_context(page: TournamentPage) -> dict[str, Any]:
    """The open calls for an official, for those who answer them (one query; none for the others)."""
    shown = page.allows(Action.OFFICIATE)
    return {
        "calls_shown": shown,
        "calls": open_calls(page.tournament) if shown else [],
        "calls_poll_seconds": CALLS_POLL_SECONDS,
    }


def dashboard_calls(request: HttpRequest, pk: int) -> HttpResponse:
    """The dashboard's calls for an official alone, polled every few seconds (one query)."""
    page = tournament_page_for(request, pk, Action.OFFICIATE)
    return render(request, "tournaments/dashboard.html#calls", page.context(**_calls_context(page)))


def round_seat(request: HttpRequest, pk: int) -> HttpResponse:
    """Seat the next round, then show its seating (to swap, then publish)."""
    page = tournament_page_for(request, pk, Action.RUN, methods=POST_ONLY)
    return page.write_once(request, lambda: _round_seat(request, page))


def _round_seat(request: HttpRequest, page: TournamentPage) -> HttpResponse:
    with catch_refusal() as refused:
        round_ = services.seat_next_round(page.tournament, actor=request.user)
    if refused:
        return _render_dashboard(request, page, problems=refused.problems, status=refused.status)
    messages.success(
        request,
        _("Round %(n)s is seated: check the tables, then publish it.") % {"n": round_.number},
    )
    return redirect("tournaments:seating", pk=page.tournament.pk, number=round_.number)


def round_publish(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Let the tables of a seated round score."""
    page = tournament_page_for(request, pk, Action.RUN, methods=POST_ONLY)
    return page.write_once(request, lambda: _round_publish(request, page, number))


def _round_publish(request: HttpRequest, page: TournamentPage, number: int) -> HttpResponse:
    with catch_refusal() as refused:
        services.publish_round(page.tournament, number, actor=request.user)
    if refused:
        return _render_dashboard(request, page, problems=refused.problems, status=refused.status)
    messages.success(request, _("Round %(n)s is published: the tables can score.") % {"n": number})
    return redirect("tournaments:dashboard", pk=page.tournament.pk)


def round_finalize(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Lock a round; with `override` and a reason, despite finished but unconfirmed tables."""
    page = tournament_page_for(request, pk, Action.RUN, methods=POST_ONLY)
    if request.POST.get("override") == "1" and not page.allows(Action.OVERRIDE):  # the director's alone
        raise Forbidden(page.tournament, [Problem("override", _("Only the director may override."))])
    return page.write_once(request, lambda: _round_finalize(request, page, number))


def _round_finalize(request: HttpRequest, page: TournamentPage, number: int) -> HttpResponse:
    form = ReasonForm(request.POST)
    override = request.POST.get("override") == "1"
    if not form.is_valid():
        return _render_dashboard(request, page, override_form=form, status=400)
    with catch_refusal() as refused:
        services.finalize_round(
            page.tournament,
            number,
            override=override,
            reason=form.cleaned_data.get("reason") or "",
            actor=request.user,
        )
    if refused:
        if override:
            place_problems(form, refused.problems)
        return _render_dashboard(
            request, page, problems=refused.problems, override_form=form, status=refused.status
        )
    messages.success(request, _("Round %(n)s is finalized.") % {"n": number})
    return redirect("tournaments:dashboard", pk=page.tournament.pk)


def table_clear(request: HttpRequest, pk: int, table_id: int) -> HttpResponse:
    """The director settled a table's disagreement: its players can confirm again."""
    page = tournament_page_for(request, pk, Action.RUN, methods=POST_ONLY)
    return page.write_once(request, lambda: _table_clear(request, page, table_id))


def _table_clear(request: HttpRequest, page: TournamentPage, table_id: int) -> HttpResponse:
    table = Table.objects.filter(pk=table_id, round__tournament=page.tournament).first()
    if table is None:
        raise Http404(_("No such table in this tournament."))
    form = ReasonForm(request.POST)
    note = form.cleaned_data.get("reason", "") if form.is_valid() else ""
    services.clear_dispute(table, note=note, actor=request.user)
    messages.success(request, _("Table %(n)s: the disagreement is cleared.") % {"n": table.number})
    return redirect("tournaments:dashboard", pk=page.tournament.pk)


def round_or_404(page: TournamentPage, number: int, *, seating: bool = False) -> Round:
    """Round `number` of the page's tournament, or 404; with `seating`, also 404 when the user may
    not see its seating yet (`tournaments.access.sees_seating`: a round seated, not published)."""
    found = Round.objects.filter(tournament=page.tournament, number=number).first()
    if found is None:
        raise Http404(_("No such round."))
    if seating and not page.shows_seating(found.status):
        raise Http404(_("Round %(n)s's seating is not public yet.") % {"n": number})
    return found


def _seating_page(
    request: HttpRequest, page: TournamentPage, round_: Round, form: SwapForm | None = None, status: int = 200
) -> HttpResponse:
    lines = table_lines(round_)
    players = sorted(
        (
            (seat.entrant_id, seat.entrant.name)
            for seat in TableSeat.objects.filter(round=round_).select_related("entrant")
        ),
        key=lambda pair: pair[1].casefold(),
    )
    return render(
        request,
        "tournaments/seating.html",
        page.context(
            round=round_,
            lines=lines,
            swap_form=form or SwapForm(players=players),
            can_swap=page.can_run and round_.status == RoundStatus.SEATED,
            plan=plan_summary(page.tournament) if page.is_staff else None,
        ),
        status=status,
    )


def round_seating(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A round's tables: players in seat order, who deals first, the repeat pairings."""
    page = tournament_page_for(request, pk, Action.VIEW)
    return _seating_page(request, page, round_or_404(page, number, seating=True))


def round_swap(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Swap two players of a seated round, with a reason kept in the log."""
    page = tournament_page_for(request, pk, Action.RUN, methods=POST_ONLY)
    return page.write_once(request, lambda: _round_swap(request, page, number))


def _round_swap(request: HttpRequest, page: TournamentPage, number: int) -> HttpResponse:
    round_ = round_or_404(page, number)
    players = list(
        TableSeat.objects.filter(round=round_)
        .values_list("entrant_id", "entrant__name")
        .order_by("entrant__name_key")
    )
    form = SwapForm(request.POST, players=players)
    if not form.is_valid():
        return _seating_page(request, page, round_, form, status=400)
    with catch_refusal() as refused:
        services.swap_players(
            page.tournament,
            number,
            form.cleaned_data["first"],
            form.cleaned_data["second"],
            reason=form.cleaned_data["reason"],
            actor=request.user,
        )
    if refused:
        place_problems(form, refused.problems)
        return _seating_page(request, page, round_, form, status=refused.status)
    messages.success(request, _("Swapped."))
    return redirect("tournaments:seating", pk=page.tournament.pk, number=number)


def table_cards(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """One printable card per table: the table's players, who deals first, its link and QR code."""
    page = tournament_page_for(request, pk, Action.SEE_LIVE)
    round_ = round_or_404(page, number)
    cards = table_cards_of(request, round_)
    return render(request, "tournaments/table_cards.html", page.context(round=round_, cards=cards))
