"""A table's page, reached through the table's link (its game's edit token): the event, round, table
and players, and what the table can do at that moment (`table_stage`): wait for the round, score on
the game page and call an official, then confirm the finished scorecard ("I confirm" or "I disagree"
with a note), and afterwards what happened to it. While a call for an official is open, its part
of the page (`table_officials`) is polled, so the table reads the ruling once it is given.

The table link opens this page and its game, nothing else of the event: no standings, no other
table, no link to the dashboard.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from golfclub.core.errors import catch_refusal, flash_refusal
from golfclub.core.form_fields import place_problems
from scoring.form_once import keeps_nothing, write_form_once
from scoring.rules.errors import Problem
from scoring.selectors import Scorecard, holes_to_play, scorecards, seat_names
from tournaments import services
from tournaments.clock import hole_clock, table_clock
from tournaments.models import OfficialCall, RoundStatus, Ruling, Table
from tournaments.services.calls import call_official
from tournaments.web.access import table_of_link
from tournaments.web.forms import ConfirmForm
from tournaments.web.officiating_forms import CallForm

#: How often a table's page asks, while its call is open, whether the official has answered.
OFFICIALS_POLL_SECONDS = 10


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
    table = table_of_link(request, token)
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
def table_call(request: HttpRequest, token: str) -> HttpResponse:
    """ "Call an official": open a call for this table (a second tap answers the open one)."""
    table = table_of_link(request, token)
    return write_form_once(request, lambda: _call_official(request, table, token))


def _call_official(request: HttpRequest, table: Table, token: str) -> HttpResponse:
    names = seat_names(table.game_id)
    form = CallForm(request.POST, names=names)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect("tournaments:table", token=token)
    with flash_refusal(request):
        call_official(table, called_by=form.cleaned_data["called_by"], note=form.cleaned_data["note"] or "")
        messages.success(request, _("An official is called: stay at the table, they are on their way."))
    return redirect("tournaments:table", token=token)


#: The session key of a table's attempt to be shown again (its values and what was wrong).
_ATTEMPT = "tournaments.table-attempt.%s"
_FIELDS = ("action", "by", "note")


@require_http_methods(["GET", "HEAD", "POST"])
@never_cache
def table_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """Show what the table can do now (and its scorecard once a hole is in); POST `action=confirm`
    (with `by`) or `action=disagree` (with a note).

    Post/redirect/get, whatever the answer: an attempt refused is kept in the session and shown
    again by the GET it redirects to, so the browser's history holds pages only, never a POST to
    send again. Back after confirming therefore shows the table as it is now (the page is never
    cached), and a stale copy of the form sent to a confirmed table is answered "already
    confirmed", not with the errors of its empty fields."""
    table = table_of_link(request, token)
    if request.method != "POST":
        return _table_page(request, table, token)
    return write_form_once(request, lambda: _answer_post(request, table, token))


def _answer_post(request: HttpRequest, table: Table, token: str) -> HttpResponse:
    """A POST of the form (not a copy of one carried out): "already confirmed" for a confirmation
    that holds, the attempt kept to show again when refused, else carried out."""
    if request.POST.get("action") != "disagree" and table.confirms(table.game.version):
        messages.info(
            request,
            _("The scorecard is already confirmed by %(name)s: nothing more to do.")
            % {"name": table.confirmed_by.name if table.confirmed_by else ""},
        )
        return keeps_nothing(redirect("tournaments:table", token=token))
    form = ConfirmForm(request.POST, names=seat_names(table.game_id))
    if not form.is_valid():
        return _show_again(request, table, token, problems=[])
    return _confirm(request, table, token, form)


def _confirm(request: HttpRequest, table: Table, token: str, form: ConfirmForm) -> HttpResponse:
    """Carry out a valid confirmation or disagreement. A confirmation carries the scorecard the page
    showed (`shown_card`): a hole saved or corrected since (another phone's queue arriving, an
    official) refuses it, naming the difference, instead of confirming a card nobody read."""
    disagree = request.POST.get("action") == "disagree"
    with catch_refusal() as refused:
        services.confirm_table(
            table.game,
            form.cleaned_data["by"],
            disagree=disagree,
            note=form.cleaned_data.get("note") or "",
            scorecard=None if disagree else _posted_card(request),
        )
    if refused:
        return _show_again(request, table, token, problems=refused.problems)
    messages.success(
        request,
        _("Your disagreement is sent to the director.")
        if disagree
        else _("Thank you: the scorecard is confirmed."),
    )
    return redirect("tournaments:table", token=token)


def shown_card(card: Scorecard) -> str:
    """The scorecard as the page shows it, for the form to send back: {name: [hole scores]} as
    JSON ("" when a score is missing: nothing to check against)."""
    scores = {name: [hole.scores[seat] for hole in card.holes] for seat, name in enumerate(card.players)}
    if any(score is None for line in scores.values() for score in line):
        return ""
    return json.dumps(scores, separators=(",", ":"))


def _posted_card(request: HttpRequest) -> Any:
    """The scorecard the form sent back (None when absent or unreadable: then nothing is checked)."""
    try:
        return json.loads(request.POST.get("scorecard") or "null")
    except ValueError:
        return None


def _show_again(request: HttpRequest, table: Table, token: str, *, problems: list[Problem]) -> HttpResponse:
    """Keep a refused attempt (its values, the service's problems) for the page it redirects to."""
    request.session[_ATTEMPT % table.pk] = {
        "data": {name: request.POST.get(name, "") for name in _FIELDS},
        "problems": [[problem.where, str(problem.message)] for problem in problems],
    }
    return keeps_nothing(redirect("tournaments:table", token=token))


def _attempt_form(request: HttpRequest, table: Table, names: list[str]) -> ConfirmForm:
    """The confirmation form: the refused attempt kept for this table (once), with its errors, or
    a blank one."""
    attempt = request.session.pop(_ATTEMPT % table.pk, None) if request.method == "GET" else None
    if not attempt:
        return ConfirmForm(names=names)
    form = ConfirmForm(attempt["data"], names=names)
    form.is_valid()  # the fields' own errors, as they were
    place_problems(form, [Problem(where, message) for where, message in attempt["problems"]])
    return form


def _form_shown(stage: str, form: ConfirmForm) -> bool:
    """Whether the page shows the confirmation form: to confirm, or settle a disagreement; while
    playing only to show a refused attempt's errors; never once confirmed or closed."""
    return stage in ("to_confirm", "disputed") or (stage == "playing" and bool(form.errors))


def _table_page(request: HttpRequest, table: Table, token: str) -> HttpResponse:
    """The table's page as it is now, with a refused attempt's errors where they were kept."""
    game = table.game
    card = scorecards([game.pk])[game.pk]
    form = _attempt_form(request, table, card.players)
    stage = table_stage(
        round_status=table.round.status, finished=game.is_finished, holes_played=len(card.holes), table=table
    )
    form_shown = _form_shown(stage, form)
    if form.errors and not form_shown:  # the form is gone (closed, confirmed): say it at the top
        for message in [*form.non_field_errors(), *(e for n, errs in form.errors.items() if n for e in errs)]:
            messages.error(request, message)
    return render(
        request,
        "tournaments/table_confirm.html",
        {
            "table": table,
            "round": table.round,
            "event": table.round.tournament,
            "game": game,
            "card": card,
            "shown_card": shown_card(card),
            "form": form,
            "form_shown": form_shown,
            "finished": game.is_finished,
            "stage": stage,
            "holes_total": holes_to_play(game.ruleset),
            "token": token,
            "clock": table_clock(table.round.tournament, table.round, table, finished=game.is_finished),
            "hole_clock": hole_clock(table.round.tournament, table.round, table),
            "call_form": CallForm(names=card.players),
            **officials_at(table),
            "in_play": table.round.status == RoundStatus.PUBLISHED,
        },
    )
