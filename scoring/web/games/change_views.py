"""Undo and redo on the page, with the confirmation when an undo would delete a hole."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from golfclub.core.errors import catch_refusal
from golfclub.core.inputs import int_or_none
from scoring import selectors, services
from scoring.access import Capability, GameGrant
from scoring.game_errors import (
    ChangeNotCurrent,
)
from scoring.models import GameChange
from scoring.web.games import display
from scoring.web.games._page_helpers import scorer_name, undo_item
from scoring.web.games.access import POST_ONLY, game_for_page
from scoring.web.games.hole_forms import ChangeForm


def undo_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """Ask before an undo that deletes a recorded hole: what it deletes, "Keep it" and "Delete it".

    Asked for by the undo button when the latest change recorded a hole, so a second tap on Undo (one
    for an edit, one more by reflex) never deletes a hole unseen. The page's form is the ordinary undo
    form, naming the change: if another change came first, the undo refuses as it always does.
    """
    grant = game_for_page(request, token, Capability.SCORE)
    game = grant.game
    back = request.GET.get("next", "") == "history"
    undo = undo_item(game)
    wanted = int_or_none(request.GET.get("change"), minimum=1, maximum=2**63 - 1)
    if undo is None or undo["id"] != wanted:
        messages.info(request, _("That change is no longer the latest one: nothing was undone."))
        return (
            redirect("games:edit-history", token=token)
            if back
            else redirect(f"{reverse('games:edit', args=[token])}#news")
        )
    change = selectors.change_by_id(undo["id"])
    line = None
    if undo["deletes_hole"] and change is not None and change.hole_number is not None:
        line = selectors.hole_detail(game, change.hole_number, playoff=change.is_playoff)
    return render(
        request,
        "scoring/game_undo_confirm.html",
        {
            "game": game,
            "title": display.game_title(game),
            "token": token,
            "undo": undo,
            "line": line,
            "next": "history" if back else "",
            "back_url": reverse("games:edit-history", args=[token])
            if back
            else f"{reverse('games:edit', args=[token])}#news",
        },
    )


def game_undo(request: HttpRequest, token: str) -> HttpResponse:
    """One tap: revert the latest hole change (recorded in the history as an undo).

    The form names the change it undoes, so a resent form never undoes a second one.
    """
    grant = game_for_page(request, token, Capability.SCORE, methods=POST_ONLY)
    return _undo_or_redo(request, grant, redo=False)


def game_redo(request: HttpRequest, token: str) -> HttpResponse:
    """One tap: apply again what the latest undo reverted (recorded in the history as a redo)."""
    grant = game_for_page(request, token, Capability.SCORE, methods=POST_ONLY)
    return _undo_or_redo(request, grant, redo=True)


def _undo_or_redo(request: HttpRequest, grant: GameGrant, *, redo: bool) -> HttpResponse:
    token = grant.token
    named = ChangeForm(request.POST)
    if not named.is_valid():
        messages.error(request, _("The button lost which change it was for: nothing was changed. Try again."))
    else:
        service = services.redo_change if redo else services.undo_last_change
        with catch_refusal() as refused:
            change = service(
                grant.game,
                actor=scorer_name(request),
                expected_change=named.cleaned_data["change"],
                capabilities=grant.capabilities,
                reason=named.cleaned_data.get("reason") or "",
            )
            messages.success(request, _change_done_message(change, redo))
        if isinstance(refused.error, ChangeNotCurrent) and refused.error.already:
            messages.info(request, refused.error.message)  # a repeat of an undo or redo: a no-op
        elif refused:
            refused.flash(request)
    back = request.POST.get("next", "")
    if back == "history":
        return redirect("games:edit-history", token=token)
    return redirect(f"{reverse('games:edit', args=[token])}#news")


def _change_done_message(change: GameChange, redo: bool) -> str:
    """ "Undone: hole 5 recorded." / "Redone: hole 5 recorded." """
    target = selectors.change_origin(change.undoes) if change.undoes else None
    item = display.change_summary(target) if target else None
    if not item:
        return _("Redone.") if redo else _("The last change was undone.")
    values = {"what": item["label"].lower(), "subject": item["subject"]}
    return (
        _("Redone: %(what)s %(subject)s.") % values if redo else _("Undone: %(what)s %(subject)s.") % values
    )
