"""Scoring holes on the page: the next hole, a correction, a delete, and the live preview."""

from __future__ import annotations

import hashlib
import json
import uuid
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from golfclub.core.errors import catch_refusal
from golfclub.core.form_fields import place_problems
from golfclub.core.inputs import SMALL_INT_MAX, optional_int, text_or_none
from golfclub.core.limits import MAX_REASON_LENGTH
from scoring import selectors, services
from scoring.access import Capability, GameGrant
from scoring.game_errors import (
    HoleAlreadyRecorded,
    HoleGone,
    IdempotencyConflict,
    StaleVersion,
)
from scoring.models import Game
from scoring.rules import Ruleset
from scoring.web.games import display
from scoring.web.games._drafts import mark_draft_done, said_saved_meanwhile, saved_message, say_sent_twice
from scoring.web.games._page_helpers import SESSION_SCORER, hole_or_404, scorer_name
from scoring.web.games.access import FORM_METHODS, POST_ONLY, game_for_page
from scoring.web.games.hole_context import first_player_of, hole_context
from scoring.web.games.hole_forms import HoleDeleteForm, HoleForm, hole_initial

# --------------------------------------------------------------------------------------------
# Holes


def _request_hash(cleaned: dict[str, Any]) -> str:
    body = {"entries": cleaned["entries"], "ender": cleaned["ender_name"], "blocks": cleaned["blocks_marked"]}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def hole_new(request: HttpRequest, token: str, playoff: bool = False) -> HttpResponse:
    """Record the next hole (or the next playoff hole): each grid by keypad or a typed total."""
    grant = game_for_page(request, token, Capability.SCORE, methods=FORM_METHODS)
    board = selectors.scoreboard(grant.game)
    upcoming = board.next_hole
    if upcoming is None or upcoming.is_playoff != playoff:
        return _no_such_hole(request, grant, upcoming, playoff)
    players = list(upcoming.players)
    status = 200
    if request.method == "POST":
        form = HoleForm(request.POST, players=players, ruleset=board.ruleset)
        if form.is_valid():
            with catch_refusal() as refused:
                return _record_hole(request, grant, form, upcoming, playoff)
            place_problems(form, refused.problems)
            status = refused.status
        else:
            status = 400
    else:
        form = HoleForm(initial={"idempotency_key": uuid.uuid4().hex}, players=players, ruleset=board.ruleset)
    return _new_hole_page(request, grant, form, upcoming, board, playoff, status=status)


def _no_such_hole(
    request: HttpRequest, grant: GameGrant, upcoming: selectors.NextHole | None, playoff: bool
) -> HttpResponse:
    """Back to the game when the hole asked for is not the next one: the match is over, or a regular
    hole was asked during a playoff (or the reverse); a form another phone saved meanwhile says so."""
    game, token = grant.game, grant.token
    if request.method == "POST" and said_saved_meanwhile(request, game, playoff):
        return redirect("games:edit", token=token)
    if upcoming is None:
        messages.error(request, _("The match is over: no more holes to score."))
    elif playoff:
        messages.error(request, _("No sudden death is pending: score the next regular hole."))
    else:
        messages.error(request, _("The regular holes are over: the tie is settled by a playoff hole."))
    return redirect("games:edit", token=token)


def _record_hole(
    request: HttpRequest, grant: GameGrant, form: HoleForm, upcoming: selectors.NextHole, playoff: bool
) -> HttpResponse:
    """Record the valid form's hole and go back to the game; a refusal the engine or the game's
    state makes is raised for the caller's `catch_refusal` to show on the form."""
    game, token = grant.game, grant.token
    key = text_or_none(request.POST.get("idempotency_key"), max_length=64)  # the form names a bad one
    try:
        # The number the form was filled for is checked under the game lock: of two phones
        # saving the same hole, one records it and the other is told, its cards kept.
        hole = services.hole_record(
            game,
            entries=form.cleaned_data["entries"],
            ender=form.cleaned_data["ender_name"],
            playoff=playoff,
            blocks_marked=form.cleaned_data["blocks_marked"] or None,
            actor=scorer_name(request),
            idempotency_key=key,
            request_hash=_request_hash(form.cleaned_data),
            expected_number=form.cleaned_data.get("number") or upcoming.number,
            capabilities=grant.capabilities,
        )
    except HoleAlreadyRecorded as moved:
        return hole_moved_on(request, grant, moved, playoff)
    except services.IdempotentReplay as replay:
        say_sent_twice(request, game, replay.record.hole_number, playoff)
        return mark_draft_done(request, redirect("games:edit", token=token), game, upcoming.number, playoff)
    except IdempotencyConflict:
        messages.error(
            request,
            _(
                "This form was already used to save a hole, so it was not saved again. "
                "To change that hole, tap its number on the scorecard."
            ),
        )
        return redirect("games:edit", token=token)
    messages.success(request, saved_message(game, hole.number, playoff))
    response = redirect(f"{reverse('games:edit', args=[token])}#news")
    return mark_draft_done(
        request, response, game, form.cleaned_data.get("number") or upcoming.number, playoff
    )


def _new_hole_page(
    request: HttpRequest,
    grant: GameGrant,
    form: HoleForm,
    upcoming: selectors.NextHole,
    board: selectors.Scoreboard,
    playoff: bool,
    *,
    status: int,
    moved_saved: str = "",
) -> HttpResponse:
    """The hole screen for the next hole (`moved_saved`: what another phone saved meanwhile)."""
    context = hole_context(
        grant.game,
        grant.token,
        form,
        number=upcoming.number,
        playoff=playoff,
        dealer=upcoming.dealer,
        first_player=upcoming.first_player,
        board=board,
    )
    context["scorer_name"] = request.session.get(SESSION_SCORER, "")
    context["moved_saved"] = moved_saved
    return render(request, "scoring/game_hole.html", context, status=status)


def _edit_form(line: selectors.HoleLine, ruleset: Ruleset, data: Any = None) -> HoleForm:
    players = [entry.name for entry in line.entries]
    grids = {entry.name: entry.cards for entry in line.entries if entry.cards}
    initial = hole_initial(players, line.entries, line.ender) | {"version": line.version, "hole_id": line.id}
    return HoleForm(data, initial=initial, players=players, ruleset=ruleset, grids=grids)


def hole_edit(request: HttpRequest, token: str, number: int, playoff: bool = False) -> HttpResponse:
    """Correct a recorded hole. The form carries the hole's version: a stale edit is refused."""
    grant = game_for_page(request, token, Capability.SCORE, methods=FORM_METHODS)
    board = selectors.scoreboard(grant.game)
    line = hole_or_404(grant.game, number, playoff)
    status = 200
    form = _edit_form(line, board.ruleset)
    if request.method == "POST":
        form = _edit_form(line, board.ruleset, request.POST)
        if not form.is_valid():
            status = 400
        elif form.cleaned_data.get("version") is None or form.cleaned_data.get("hole_id") is None:
            form.add_error(
                None, _("The form lost the hole's version: open the hole again from the scorecard.")
            )
            status = 400
        else:
            with catch_refusal() as refused:
                return _correct_hole(request, grant, form, number, playoff)
            if isinstance(refused.error, StaleVersion):
                # Never overwrite silently: show the hole as it is now, with what happened.
                line = hole_or_404(grant.game, number, playoff)
                form = _edit_form(line, board.ruleset)
                form.stale = True
                status = 409
            else:
                place_problems(form, refused.problems)
                status = refused.status
    return _edit_hole_page(request, grant, form, board, line, number, playoff, status=status)


def _correct_hole(
    request: HttpRequest, grant: GameGrant, form: HoleForm, number: int, playoff: bool
) -> HttpResponse:
    """Save the valid form's correction and go back to the game; a refusal is raised for the
    caller's `catch_refusal` (a stale version among them)."""
    services.hole_update(
        grant.game,
        number,
        expected_id=form.cleaned_data["hole_id"],
        expected_version=form.cleaned_data["version"],
        entries=form.cleaned_data["entries"],
        ender=form.cleaned_data["ender_name"],
        blocks_marked=form.cleaned_data["blocks_marked"] or None,
        actor=scorer_name(request),
        playoff=playoff,
        capabilities=grant.capabilities,
        reason=form.cleaned_data.get("reason") or "",
    )
    label = _("Playoff hole %(n)s") if playoff else _("Hole %(n)s")
    messages.success(request, _("%(hole)s corrected.") % {"hole": label % {"n": number}})
    return redirect(f"{reverse('games:edit', args=[grant.token])}#news")


def _edit_hole_page(
    request: HttpRequest,
    grant: GameGrant,
    form: HoleForm,
    board: selectors.Scoreboard,
    line: selectors.HoleLine,
    number: int,
    playoff: bool,
    *,
    status: int,
) -> HttpResponse:
    """The hole screen for correcting (or deleting) recorded hole `number`."""
    context = hole_context(
        grant.game,
        grant.token,
        form,
        number=number,
        playoff=playoff,
        dealer=line.dealer,
        first_player=first_player_of(board, line),
        board=board,
        editing=line,
    )
    context["stale"] = form.stale
    context["reason_max_length"] = MAX_REASON_LENGTH
    context["scorer_name"] = request.session.get(SESSION_SCORER, "")
    context["delete_url"] = reverse(
        "games:playoff-delete" if playoff else "games:hole-delete", args=[grant.token, number]
    )
    return render(request, "scoring/game_hole.html", context, status=status)


def hole_delete(request: HttpRequest, token: str, number: int, playoff: bool = False) -> HttpResponse:
    """Ask, then delete a hole (later holes move down one number; undo brings it back)."""
    grant = game_for_page(request, token, Capability.SCORE, methods=FORM_METHODS)
    game = grant.game
    line = hole_or_404(game, number, playoff)
    status = 200
    error_message = ""
    if request.method == "POST":
        confirm = HoleDeleteForm(request.POST)
        if not confirm.is_valid():
            # A form without the hole it confirms could delete whichever hole has this number now.
            problems = [str(e) for errors in confirm.errors.values() for e in errors]
            error_message = " ".join(
                [_("The confirmation lost which hole it was for: nothing was deleted."), *problems]
            )
            return _delete_page(request, game, line, playoff, token, error_message, status=400)
        with catch_refusal() as refused:
            services.hole_delete(
                game,
                number,
                expected_id=confirm.cleaned_data["hole_id"],
                expected_version=confirm.cleaned_data["version"],
                actor=scorer_name(request),
                playoff=playoff,
                capabilities=grant.capabilities,
                reason=confirm.cleaned_data.get("reason") or "",
            )
            label = _("Playoff hole %(n)s") if playoff else _("Hole %(n)s")
            messages.success(
                request, _("%(hole)s deleted. “Undo” brings it back.") % {"hole": label % {"n": number}}
            )
            return redirect(f"{reverse('games:edit', args=[token])}#news")
        label = _("Playoff hole %(n)s") if playoff else _("Hole %(n)s")
        if isinstance(refused.error, HoleGone):
            # The confirmation was sent twice (a double tap, a resent form): it was deleted once.
            messages.info(
                request,
                _("%(hole)s was already deleted: nothing more was deleted.")
                % {"hole": label % {"n": number}},
            )
            return redirect(f"{reverse('games:edit', args=[token])}#news")
        if isinstance(refused.error, StaleVersion):
            line = hole_or_404(game, number, playoff)
            error_message = _(
                "Someone changed this hole since you opened it, so it was not deleted. "
                "Check the scores below and delete again if you still want to."
            )
            status = 409
        else:
            error_message = " ".join(refused.messages)
            status = refused.status
    return _delete_page(request, game, line, playoff, token, error_message, status=status)


def _delete_page(
    request: HttpRequest,
    game: Game,
    line: selectors.HoleLine,
    playoff: bool,
    token: str,
    error_message: str,
    *,
    status: int,
) -> HttpResponse:
    """The delete confirmation page (with what went wrong, if anything)."""
    return render(
        request,
        "scoring/game_hole_delete.html",
        {
            "game": game,
            "title": display.game_title(game),
            "line": line,
            "playoff": playoff,
            "token": token,
            "error_message": error_message,
            "reason_max_length": MAX_REASON_LENGTH,
            "edit_url": reverse(
                "games:playoff-edit" if playoff else "games:hole-edit", args=[token, line.number]
            ),
        },
        status=status,
    )


def hole_preview(request: HttpRequest, token: str) -> HttpResponse:
    """The live preview (htmx): every hole score the engine gives for what is entered so far."""
    grant = game_for_page(request, token, Capability.SCORE, methods=POST_ONLY)
    game = grant.game
    board = selectors.scoreboard(game)
    playoff = request.GET.get("playoff") == "1"
    which = request.GET.get("hole", "new")
    number = None if which == "new" else optional_int(which, _("hole"), minimum=1, maximum=SMALL_INT_MAX)
    editing = None
    if number is not None:
        editing = selectors.hole_detail(game, number, playoff=playoff)
        if editing is None:
            raise Http404(_("This game has no hole %(n)s.") % {"n": which})
        players = [entry.name for entry in editing.entries]
    elif board.next_hole is not None:
        players = list(board.next_hole.players)
    else:
        players = [p.name for p in board.players]
    form = HoleForm(request.POST, players=players, ruleset=board.ruleset)
    context = {"preview": display.preview_scores(form, board, editing=editing), "game": game}
    return render(request, "scoring/game_hole.html#preview", context)


def hole_moved_on(
    request: HttpRequest, grant: GameGrant, moved: HoleAlreadyRecorded, playoff: bool
) -> HttpResponse:
    """409: the hole these cards were for was saved meanwhile from another phone.

    The page shows what was saved and the scorer's own entries, now for the next hole (nothing they
    typed is lost, nothing is filed under the next number without them seeing it).
    """
    game = grant.game
    board = selectors.scoreboard(game)
    upcoming = board.next_hole
    saved = saved_message(game, moved.saved_number, playoff)
    if upcoming is None or upcoming.is_playoff != playoff:
        messages.error(request, " ".join(p.message for p in moved.problems))
        messages.info(request, saved)
        return redirect("games:edit", token=grant.token)
    form = HoleForm(request.POST, players=list(upcoming.players), ruleset=board.ruleset)
    form.is_valid()  # bound, so the entries are shown again as typed
    form.moved_from = moved.saved_number
    return _new_hole_page(request, grant, form, upcoming, board, playoff, status=409, moved_saved=saved)
