"""The hole page's drafts and saved-meanwhile answers: what a phone typed is kept in the browser
until the server accepted the hole, and a form saved twice (or by two phones) is told what happened."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from golfclub.core.inputs import SMALL_INT_MAX, int_or_none, text_or_none
from scoring import selectors
from scoring.models import Game

# The hole page keeps what is typed in the browser (localStorage, static/js/game.js) until the server
# has accepted the hole: this cookie, set only on that answer, names the draft the next page drops.
DRAFT_DONE_COOKIE = "golf_draft_done"


def draft_key(game: Game, number: int, playoff: bool) -> str:
    """The hole form's data-draft-key: "<game id>-<number>", "<game id>-p<number>" for a playoff hole."""
    return f"{game.pk}-{'p' if playoff else ''}{number}"


def mark_draft_done(
    request: HttpRequest, response: HttpResponse, game: Game, number: int, playoff: bool
) -> HttpResponse:
    """Tell the browser that the draft of this hole can go: the hole is saved."""
    response.set_cookie(
        DRAFT_DONE_COOKIE,
        draft_key(game, number, playoff),
        max_age=3600,
        path="/",
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response


def said_saved_meanwhile(request: HttpRequest, game: Game, playoff: bool) -> bool:
    """For a hole form posted once the match (or the tie) is over: if its hole was saved, say by
    whom it was saved (this form, sent twice, or another phone) and what; True when said."""
    number = int_or_none(request.POST.get("number"), minimum=1, maximum=SMALL_INT_MAX)
    if number is None or selectors.hole_detail(game, number, playoff=playoff) is None:
        return False
    key = text_or_none(request.POST.get("idempotency_key"), max_length=64)
    if selectors.idempotency_key_used(game, key):
        say_sent_twice(request, game, number, playoff)
        return True
    label = _("Playoff hole %(n)s") if playoff else _("Hole %(n)s")
    messages.error(
        request,
        _("%(hole)s was just saved by someone else, so yours was not saved. Check the scores below.")
        % {"hole": label % {"n": number}},
    )
    messages.info(request, saved_message(game, number, playoff))
    return True


def say_sent_twice(request: HttpRequest, game: Game, number: int | None, playoff: bool) -> None:
    """For a hole form sent again (a double tap): say it was saved once, and what was saved.

    A double tap's page is the second copy's answer, so this is all the scorer sees of the save.
    """
    messages.info(request, _("That hole was already saved (the form was sent twice)."))
    if number is not None and selectors.hole_detail(game, number, playoff=playoff) is not None:  # not undone
        messages.success(request, saved_message(game, number, playoff))


def saved_message(game: Game, number: int, playoff: bool) -> str:
    """ "Hole 3 saved: Ann 5, Bob 12." so the scorer sees at once what the engine made of it."""
    line = selectors.hole_detail(game, number, playoff=playoff)
    scores = ", ".join(f"{e.name} {e.score}" for e in line.entries) if line else ""
    if playoff:
        return _("Playoff hole %(n)s saved: %(scores)s.") % {"n": number, "scores": scores}
    return _("Hole %(n)s saved: %(scores)s.") % {"n": number, "scores": scores}
