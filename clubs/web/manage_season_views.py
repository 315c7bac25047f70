"""The owners' seasons page: create, edit and delete a club's seasons (named date ranges)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from clubs.access import ClubCapability, ClubGrant, club_for_user, season_of
from clubs.models import Season
from clubs.services import seasons as services
from clubs.web.manage_access import club_home_url, page_answer
from clubs.web.manage_forms import SeasonForm
from golfclub.core.errors import catch_refusal
from golfclub.core.form_fields import place_problems
from golfclub.core.page_methods import POST_ONLY, READ_METHODS

_MANAGE = ClubCapability.MANAGE


def _seasons_page(
    request: HttpRequest,
    grant: ClubGrant,
    status: int = 200,
    form: SeasonForm | None = None,
    editing: int | None = None,
) -> HttpResponse:
    rows = []
    for season in Season.objects.filter(club=grant.club).order_by("-start", "pk"):
        initial = {"name": season.name, "start": season.start, "end": season.end}
        shown = form if editing == season.pk else None
        edit = shown or SeasonForm(
            initial={**initial, "version": services.season_version(season)}, prefix=f"s{season.pk}"
        )
        rows.append((season, edit, f"/clubs/{grant.club.pk}/seasons/{season.pk}/"))
    context = {
        "club": grant.club,
        "home_url": club_home_url(grant),
        "rows": rows,
        "form": form if editing is None and form is not None else SeasonForm(),
    }
    return render(request, "clubs/manage_seasons.html", context, status=status)


def seasons(request: HttpRequest, club_id: int) -> HttpResponse:
    """/clubs/<id>/seasons/: the club's seasons, and the forms that change them."""
    grant = club_for_user(request.user, club_id, _MANAGE, owners_page=True)
    return page_answer(request, READ_METHODS, _seasons_page, grant)


def season_add(request: HttpRequest, club_id: int) -> HttpResponse:
    """Create a season."""
    grant = club_for_user(request.user, club_id, _MANAGE, owners_page=True)
    return page_answer(request, POST_ONLY, _add, grant)


def season_edit(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    """Change a season's name or days (against the version the page showed)."""
    grant = club_for_user(request.user, club_id, _MANAGE, owners_page=True)
    return page_answer(request, POST_ONLY, _edit, grant, season_id)


def season_delete(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    """Delete a season (its games stay)."""
    grant = club_for_user(request.user, club_id, _MANAGE, owners_page=True)
    return page_answer(request, POST_ONLY, _delete, grant, season_id)


def _add(request: HttpRequest, grant: ClubGrant) -> HttpResponse:
    form = SeasonForm(request.POST)
    if not form.is_valid():
        return _seasons_page(request, grant, 400, form)
    data = form.cleaned_data
    with catch_refusal() as refused:
        season = services.create_season(grant.club, name=data["name"], start=data["start"], end=data["end"])
    if refused:
        place_problems(form, refused.problems)
        return _seasons_page(request, grant, refused.status, form)
    messages.success(request, _("The season %(name)s is created.") % {"name": season.name})
    return redirect("clubs:seasons", club_id=grant.club.pk)


def _edit(request: HttpRequest, grant: ClubGrant, season_id: int) -> HttpResponse:
    season = season_of(grant, season_id)
    form = SeasonForm(request.POST, prefix=f"s{season.pk}")
    if not form.is_valid():
        return _seasons_page(request, grant, 400, form, editing=season.pk)
    data = form.cleaned_data
    with catch_refusal() as refused:
        services.update_season(
            grant.club,
            season,
            name=data["name"],
            start=data["start"],
            end=data["end"],
            version=data["version"],
        )
    if refused:
        place_problems(form, refused.problems)
        return _seasons_page(request, grant, refused.status, form, editing=season.pk)
    messages.success(request, _("The season is saved."))
    return redirect("clubs:seasons", club_id=grant.club.pk)


def _delete(request: HttpRequest, grant: ClubGrant, season_id: int) -> HttpResponse:
    season = season_of(grant, season_id)
    services.delete_season(grant.club, season)
    messages.success(request, _("The season %(name)s is deleted; its games stay.") % {"name": season.name})
    return redirect("clubs:seasons", club_id=grant.club.pk)
