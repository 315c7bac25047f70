"""A tournament's players: the list with its counts, adding one, a CSV import (every bad line named by
its number, nothing imported), check-in (htmx, or a plain form), drop / withdraw / reinstate after a
confirm step, and check-in or drop in bulk (ticked players, or everyone not yet checked in), each
bulk action undone in one tap."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from golfclub.core.errors import catch_refusal
from golfclub.core.form_fields import place_problems
from tournaments import services
from tournaments.access import Action
from tournaments.csv_import import with_line_texts
from tournaments.models import Entrant, EntrantStatus
from tournaments.services import club_links
from tournaments.services.bulk_players import BULK_CHECK_IN, BULK_DROP, bulk_summary, recent_bulk_actions
from tournaments.services.seating_plans import replanned_message
from tournaments.web.access import FORM_METHODS, POST_ONLY, TournamentPage, tournament_page_for
from tournaments.web.forms import ImportForm, PlayerForm, ReasonForm
from tournaments.web.selectors import player_counts

#: The status changes of the confirm step: what the button says, what it does.
STATUS_ACTIONS = {
    "drop": (gettext_lazy("Drop %(name)s from the later rounds"), EntrantStatus.DROPPED),
    "withdraw": (gettext_lazy("Withdraw %(name)s from the event"), EntrantStatus.WITHDRAWN),
    "reinstate": (gettext_lazy("Bring %(name)s back for the later rounds"), EntrantStatus.ACTIVE),
}
#: What the page says once each is done: what happened to the player, and what it means.
STATUS_DONE = {
    "drop": gettext_lazy(
        "%(name)s was dropped from the event: they keep their scores so far and are not seated in the "
        "rounds to come."
    ),
    "withdraw": gettext_lazy(
        "%(name)s has withdrawn from the event: the rounds they played stay in the record, and they are "
        "not seated again."
    ),
    "reinstate": gettext_lazy("%(name)s is back in the event: seated again from the next round seated."),
}


def _players_page(
    request: HttpRequest,
    page: TournamentPage,
    *,
    form: PlayerForm | None = None,
    import_form: ImportForm | None = None,
    import_problems: list | None = None,
    bulk_problems: list | None = None,
    selected: list[str] | None = None,
    status: int = 200,
) -> HttpResponse:
    tournament = page.tournament
    entrants = list(tournament.entrants.order_by("name_key", "pk"))

    return render(
        request,
        "tournaments/players.html",
        page.context(
            entrants=entrants,
            counts=player_counts(tournament),
            form=form or PlayerForm(),
            import_form=import_form or ImportForm(),
            import_problems=import_problems or [],
            bulk_problems=bulk_problems or [],
            selected=set(selected or ()),
            bulk_actions=recent_bulk_actions(tournament) if page.can_run else [],
        ),
        status=status,
    )


def players(request: HttpRequest, pk: int) -> HttpResponse:
    """The players and, for those who run the event, the forms that change them."""
    page = tournament_page_for(request, pk, Action.VIEW)
    return _players_page(request, page)


def player_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Register one player."""
    page = tournament_page_for(request, pk, Action.RUN, methods=POST_ONLY)
    return page.write_once(request, lambda: _player_add(request, page))


def _player_add(request: HttpRequest, page: TournamentPage) -> HttpResponse:
    form = PlayerForm(request.POST)
    if not form.is_valid():
        return _players_page(request, page, form=form, status=400)
    with catch_refusal() as refused:
        entrant = services.add_entrant(
            page.tournament,
            form.cleaned_data["name"],
            club=form.cleaned_data.get("club") or "",
            rating=form.cleaned_data.get("rating"),
            actor=request.user,
        )
    if refused:
        place_problems(form, refused.problems)
        return _players_page(request, page, form=form, status=refused.status)
    messages.success(request, _("%(name)s is registered.") % {"name": entrant.name})
    if replanned := replanned_message(page.tournament):
        messages.info(request, replanned)
    return redirect("tournaments:players", pk=page.tournament.pk)


def player_import(request: HttpRequest, pk: int) -> HttpResponse:
    """Import a CSV list, uploaded or pasted: all the players or, when any line is bad, none."""
    page = tournament_page_for(request, pk, Action.RUN, methods=POST_ONLY)
    return page.write_once(request, lambda: _player_import(request, page))


def _player_import(request: HttpRequest, page: TournamentPage) -> HttpResponse:
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _players_page(request, page, import_form=form, status=400)
    upload = form.cleaned_data.get("file")
    text: str | bytes = upload.read() if upload else form.cleaned_data["text"]
    with catch_refusal() as refused:
        created = services.import_entrants(page.tournament, text, actor=request.user)
    if refused:
        shown = with_line_texts(text, refused.problems)
        return _players_page(request, page, import_form=form, import_problems=shown, status=refused.status)
    messages.success(
        request,
        ngettext("%(n)s player imported.", "%(n)s players imported.", len(created)) % {"n": len(created)},
    )
    if replanned := replanned_message(page.tournament):
        messages.info(request, replanned)
    # A club's tournament: the names that match members are offered for the director to confirm.
    matches = sum(1 for link in club_links.entrant_links(page.tournament) if link.suggestion is not None)
    if matches:
        messages.info(
            request,
            ngettext(
                "%(n)s player's name matches a member of the club: confirm the link below.",
                "%(n)s players' names match members of the club: confirm the links below.",
                matches,
            )
            % {"n": matches},
        )
        return redirect("tournaments:club", pk=page.tournament.pk)
    return redirect("tournaments:players", pk=page.tournament.pk)


def player_check_in(request: HttpRequest, pk: int, entrant_id: int) -> HttpResponse:
    """Mark a player present or not (`checked_in` = "1" or "0"); htmx gets the row back, a plain
    form the players page."""
    page = tournament_page_for(request, pk, Action.RUN, methods=POST_ONLY)
    return page.write_once(request, lambda: _player_check_in(request, page, entrant_id))


def _player_check_in(request: HttpRequest, page: TournamentPage, entrant_id: int) -> HttpResponse:
    wanted = request.POST.get("checked_in") == "1"
    with catch_refusal() as refused:
        entrant = services.set_checked_in(page.tournament, entrant_id, wanted, actor=request.user)
    refused.raise_if_not_found()
    if refused:
        # Refused (a player dropped since the list was read): the list again, saying why.
        refused.flash(request)
        players = reverse("tournaments:players", args=[page.tournament.pk])
        if request.htmx:
            return HttpResponse(headers={"HX-Redirect": players})
        return redirect(players)
    if request.htmx:
        response = render(request, "tournaments/players.html#player_row", page.context(entrant=entrant))
        # The counts above the list change too: htmx swaps them out of band.
        extra = render(
            request,
            "tournaments/players.html#counts",
            page.context(counts=player_counts(page.tournament), oob=True),
        )
        response.content += extra.content
        return response
    return redirect("tournaments:players", pk=page.tournament.pk)


def player_status(request: HttpRequest, pk: int, entrant_id: int) -> HttpResponse:
    """Drop, withdraw or reinstate a player: GET asks to confirm, POST does it."""
    page = tournament_page_for(request, pk, Action.RUN, methods=FORM_METHODS)
    return page.write_once(request, lambda: _player_status(request, page, entrant_id))


def _player_status(request: HttpRequest, page: TournamentPage, entrant_id: int) -> HttpResponse:
    action = str(request.POST.get("action") if request.method == "POST" else request.GET.get("action", ""))
    entrant = Entrant.objects.filter(tournament=page.tournament, pk=entrant_id).first()
    if entrant is None:
        raise Http404(_("No such player in this tournament."))
    if action not in STATUS_ACTIONS:
        messages.error(request, _("Choose drop, withdraw or reinstate."))
        return redirect("tournaments:players", pk=page.tournament.pk)
    label, target = STATUS_ACTIONS[action]
    form = ReasonForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            with catch_refusal() as refused:
                if target == EntrantStatus.ACTIVE:
                    services.reinstate_entrant(page.tournament, entrant.pk, actor=request.user)
                else:
                    services.drop_entrant(
                        page.tournament,
                        entrant.pk,
                        status=target,
                        actor=request.user,
                        reason=form.cleaned_data.get("reason") or "",
                    )
            if refused:
                place_problems(form, refused.problems)
                status = refused.status
            else:
                messages.success(request, STATUS_DONE[action] % {"name": entrant.name})
                if replanned := replanned_message(page.tournament):
                    messages.info(request, replanned)
                return redirect("tournaments:players", pk=page.tournament.pk)
        else:
            status = 400
    return render(
        request,
        "tournaments/player_status.html",
        page.context(entrant=entrant, action=action, label=label % {"name": entrant.name}, form=form),
        status=status,
    )


#: The bulk form's buttons: what each does.
BULK_BUTTONS = ("check_in", "check_in_all", "drop")


def players_bulk(request: HttpRequest, pk: int) -> HttpResponse:
    """Check in the ticked players, or everyone not yet checked in, or drop the ticked players with a
    reason; a refusal shows every player in the way, with the ticks kept, and changes nobody."""
    page = tournament_page_for(request, pk, Action.RUN, methods=POST_ONLY)
    return page.write_once(request, lambda: _players_bulk(request, page))


def _players_bulk(request: HttpRequest, page: TournamentPage) -> HttpResponse:
    action = request.POST.get("action", "")
    ids = request.POST.getlist("players")
    if action not in BULK_BUTTONS:
        return _players_page(
            request, page, bulk_problems=[_("Choose what to do with the players.")], selected=ids, status=400
        )
    with catch_refusal() as refused:
        if action == "drop":
            result = services.drop_players(
                page.tournament, ids, reason=request.POST.get("reason", ""), actor=request.user
            )
        else:
            result = services.check_in_players(
                page.tournament, ids, everyone=action == "check_in_all", actor=request.user
            )
    if refused:
        return _players_page(
            request, page, bulk_problems=refused.messages, selected=ids, status=refused.status
        )
    if not result.changed:
        messages.info(request, _("Nothing to change: they are all as asked already."))
    else:
        kind = BULK_DROP if action == "drop" else BULK_CHECK_IN
        messages.success(
            request,
            bulk_summary(result, kind) + " " + _('Undo it under "Recent bulk actions" if it was a mistake.'),
        )
        if action == "drop" and (replanned := replanned_message(page.tournament)):
            messages.info(request, replanned)
    return redirect("tournaments:players", pk=page.tournament.pk)


def players_bulk_undo(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    """Undo a bulk check-in or drop: exactly the players it changed and nothing changed since."""
    page = tournament_page_for(request, pk, Action.RUN, methods=POST_ONLY)
    return page.write_once(request, lambda: _players_bulk_undo(request, page, entry_id))


def _players_bulk_undo(request: HttpRequest, page: TournamentPage, entry_id: int) -> HttpResponse:
    with catch_refusal() as refused:
        result = services.undo_bulk_action(page.tournament, entry_id, actor=request.user)
    if refused:
        return _players_page(request, page, bulk_problems=refused.messages, status=refused.status)
    text = bulk_summary(result, "undo")
    if result.unchanged:
        text += " " + _("Left as they are (changed since): %(names)s.") % {
            "names": ", ".join(e.name for e in result.unchanged)
        }
    messages.success(request, text)
    if result.changed and (replanned := replanned_message(page.tournament)):
        messages.info(request, replanned)
    return redirect("tournaments:players", pk=page.tournament.pk)
