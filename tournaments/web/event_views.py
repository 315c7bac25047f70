"""A tournament as a whole: the list of events, a new one, its settings and its staff."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from golfclub.core.errors import catch_refusal, flash_refusal
from golfclub.core.form_fields import place_problems
from scoring.form_once import form_once
from tournaments import services
from tournaments.access import Action, staffed_tournaments, visible_tournaments
from tournaments.errors import StaleEdit
from tournaments.models import Staff, Tournament
from tournaments.services.seating_plans import replanned_message
from tournaments.web.access import FORM_METHODS, POST_ONLY, TournamentPage, tournament_page_for
from tournaments.web.forms import StaffForm, TournamentForm
from tournaments.web.stale_forms import Conflict, conflict_of, rebased

PUBLIC_ON_LIST = 50


@require_http_methods(["GET", "HEAD"])
def tournament_list(request: HttpRequest) -> HttpResponse:
    """My events (those I direct first, then those I help run) and the public ones; two queries
    whatever their number."""
    mine = list(staffed_tournaments(request.user).select_related("director").order_by("-date", "-pk"))
    # A director looks for their own events first (a stable sort keeps the newest first within each).
    mine.sort(key=lambda t: t.director_id != request.user.pk)
    mine_ids = {t.pk for t in mine}
    public = [
        t
        for t in visible_tournaments(None)
        .select_related("director")
        .order_by("-date", "-pk")[: PUBLIC_ON_LIST + len(mine_ids)]
        if t.pk not in mine_ids
    ][:PUBLIC_ON_LIST]
    return render(request, "tournaments/list.html", {"mine": mine, "public": public})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@form_once
def tournament_new(request: HttpRequest) -> HttpResponse:
    """A new tournament, directed by the user who creates it."""
    status = 200
    if request.method == "POST":
        form = TournamentForm(request.POST)
        if form.is_valid():
            with catch_refusal() as refused:
                tournament = services.create_tournament(director=request.user, **form.settings())
            if refused:
                place_problems(form, refused.problems)
                status = refused.status
            else:
                messages.success(
                    request,
                    _("%(name)s is created (seed %(seed)s).")
                    % {"name": tournament.name, "seed": tournament.seed},
                )
                return redirect("tournaments:players", pk=tournament.pk)
        else:
            status = 400
    else:
        form = TournamentForm()
    return render(request, "tournaments/settings.html", {"form": form, "tournament": None}, status=status)


def tournament_settings(request: HttpRequest, pk: int) -> HttpResponse:
    """The settings (the ruleset and seed frozen once round 1 is seated) and, for the director, the staff."""
    page = tournament_page_for(request, pk, Action.RUN, methods=FORM_METHODS)
    return page.write_once(request, lambda: _tournament_settings(request, page))


def _tournament_settings(request: HttpRequest, page: TournamentPage) -> HttpResponse:
    tournament = page.tournament
    frozen = tournament.round_set.exists()
    status = 200
    conflict = None
    if request.method == "POST":
        form = TournamentForm(request.POST, frozen=frozen, initial=TournamentForm.initial_of(tournament))
        if form.is_valid():
            with catch_refusal() as refused:
                updated = services.update_tournament(
                    tournament,
                    actor=request.user,
                    expected_version=form.cleaned_data.get("version"),
                    read_digest=form.cleaned_data.get("read_digest") or None,
                    **form.settings(tournament),
                )
            if isinstance(refused.error, StaleEdit):  # changed by someone else since the form was read
                stored = Tournament.objects.get(pk=tournament.pk)
                conflict = conflict_of(form, stored)
                form = TournamentForm(
                    rebased(request.POST, stored), frozen=frozen, initial=TournamentForm.initial_of(stored)
                )
                form.is_valid()
                status = refused.status
            elif refused:
                place_problems(form, refused.problems)
                status = refused.status
            else:
                messages.success(request, _("Settings saved."))
                changed = (updated.rounds, updated.seating) != (tournament.rounds, tournament.seating)
                if changed and (replanned := replanned_message(tournament)):
                    messages.info(request, replanned)
                return redirect("tournaments:settings", pk=tournament.pk)
        else:
            status = 400
    else:
        form = TournamentForm(initial=TournamentForm.initial_of(tournament), frozen=frozen)
    return _settings_page(request, page, form, StaffForm(), status, conflict=conflict)


def _settings_page(
    request: HttpRequest,
    page: TournamentPage,
    form: TournamentForm,
    staff_form: StaffForm,
    status: int,
    *,
    conflict: Conflict | None = None,
) -> HttpResponse:
    staff = (
        list(
            Staff.objects.filter(tournament=page.tournament)
            .select_related("user")
            .order_by("role", "user__username")
        )
        if page.can_staff
        else []
    )
    return render(
        request,
        "tournaments/settings.html",
        page.context(form=form, staff_form=staff_form, staff=staff, frozen=form.frozen, conflict=conflict),
        status=status,
    )


def staff_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Make a user a co-director or an official (the director only)."""
    page = tournament_page_for(request, pk, Action.STAFF, methods=POST_ONLY)
    return page.write_once(request, lambda: _staff_add(request, page))


def _staff_add(request: HttpRequest, page: TournamentPage) -> HttpResponse:
    tournament = page.tournament
    staff_form = StaffForm(request.POST)
    status = 400
    if staff_form.is_valid():
        with catch_refusal() as refused:
            added = services.add_staff(
                tournament,
                staff_form.cleaned_data["username"],
                staff_form.cleaned_data["role"],
                actor=request.user,
            )
        if refused:
            place_problems(staff_form, refused.problems)
            status = refused.status
        else:
            messages.success(
                request,
                _("%(name)s is now %(role)s.")
                % {"name": added.user.get_username(), "role": added.get_role_display().lower()},
            )
            return redirect("tournaments:settings", pk=tournament.pk)
    form = TournamentForm(initial=TournamentForm.initial_of(tournament), frozen=tournament.round_set.exists())
    return _settings_page(request, page, form, staff_form, status)


def staff_remove(request: HttpRequest, pk: int, staff_id: int) -> HttpResponse:
    """Take a co-director or an official off the event (the director only)."""
    page = tournament_page_for(request, pk, Action.STAFF, methods=POST_ONLY)
    return page.write_once(request, lambda: _staff_remove(request, page, staff_id))


def _staff_remove(request: HttpRequest, page: TournamentPage, staff_id: int) -> HttpResponse:
    with flash_refusal(request):
        services.remove_staff(page.tournament, staff_id, actor=request.user)
        messages.success(request, _("Removed from the staff."))
    return redirect("tournaments:settings", pk=page.tournament.pk)
