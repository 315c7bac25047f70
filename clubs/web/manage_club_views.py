"""The owners' club pages: my clubs and a new one, a club's settings (name, public or private and
its link, co-owners invited by a one-use link, removed), and accepting an invitation."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs.access import ClubCapability, ClubGrant, club_for_user, clubs_of, owner_of
from clubs.models import Club, OwnerInvitation
from clubs.services import clubs as services
from clubs.web.manage_access import club_home_url, login_first, page_answer
from clubs.web.manage_forms import ClubForm
from golfclub.core.errors import catch_refusal
from golfclub.core.form_fields import place_problems
from golfclub.core.page_methods import FORM_METHODS, POST_ONLY
from scoring.form_once import form_once, write_form_once
from scoring.rules.errors import Problem

_LATEST_INVITATIONS = 5


def _clubs_page(request: HttpRequest, form: ClubForm | None = None, status: int = 200) -> HttpResponse:
    mine = clubs_of(request.user)
    counts = dict(
        Club.objects.filter(pk__in=[c.pk for c in mine]).annotate(n=Count("members")).values_list("pk", "n")
    )
    rows = [(club, counts.get(club.pk, 0), f"/clubs/{club.pk}/") for club in mine]
    return render(
        request, "clubs/manage_list.html", {"rows": rows, "form": form or ClubForm()}, status=status
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@form_once
def club_list(request: HttpRequest) -> HttpResponse:
    """/clubs/: the clubs I own, and the form that creates one (then on to adding its members)."""
    if request.method != "POST":
        return _clubs_page(request)
    form = ClubForm(request.POST)
    if not form.is_valid():
        return _clubs_page(request, form, 400)
    with catch_refusal() as refused:
        club = services.create_club(
            user=request.user, name=form.cleaned_data["name"], is_public=form.cleaned_data["is_public"]
        )
    if refused:
        place_problems(form, refused.problems)
        return _clubs_page(request, form, refused.status)
    messages.success(request, _("%(name)s is created. Add its members now.") % {"name": club.name})
    return redirect("clubs:members", club_id=club.pk)


def _settings_page(
    request: HttpRequest, grant: ClubGrant, form: ClubForm | None = None, status: int = 200
) -> HttpResponse:
    club = grant.club
    form = form or ClubForm(initial={"name": club.name, "is_public": club.is_public, "version": club.version})
    invitations = OwnerInvitation.objects.filter(club=club, used_at__isnull=True).order_by(
        "-created_at", "-pk"
    )
    links = [
        request.build_absolute_uri(reverse("clubs:invitation", args=[i.token]))
        for i in invitations[:_LATEST_INVITATIONS]
    ]
    context = {
        "club": club,
        "form": form,
        "owners": services.owners_of(club),
        "invitation_links": links,
        "public_link": request.build_absolute_uri(f"/clubs/p/{club.public_token}/") if club.is_public else "",
        "home_url": club_home_url(grant),
    }
    return render(request, "clubs/manage_settings.html", context, status=status)


_MANAGE = ClubCapability.MANAGE


def club_settings(request: HttpRequest, club_id: int) -> HttpResponse:
    """/clubs/<id>/settings/: the club's name and visibility, its owners and their invitations."""
    grant = club_for_user(request.user, club_id, _MANAGE, owners_page=True)
    return page_answer(request, FORM_METHODS, _settings, grant)


def _settings(request: HttpRequest, grant: ClubGrant) -> HttpResponse:
    if request.method != "POST":
        return _settings_page(request, grant)
    form = ClubForm(request.POST)
    if not form.is_valid():
        return _settings_page(request, grant, form, 400)
    with catch_refusal() as refused:
        services.update_club(
            grant.club,
            name=form.cleaned_data["name"],
            is_public=form.cleaned_data["is_public"],
            version=form.cleaned_data["version"],
        )
    if refused:
        place_problems(form, refused.problems)
        return _settings_page(request, grant, form, refused.status)
    messages.success(request, _("The club's settings are saved."))
    return redirect("clubs:settings", club_id=grant.club.pk)


def club_public_link(request: HttpRequest, club_id: int) -> HttpResponse:
    """Replace the public page's link: whoever has the old one no longer sees the club."""
    grant = club_for_user(request.user, club_id, _MANAGE, owners_page=True)
    return page_answer(request, POST_ONLY, _new_public_link, grant)


def _new_public_link(request: HttpRequest, grant: ClubGrant) -> HttpResponse:
    services.update_club(grant.club, new_public_link=True)
    messages.success(request, _("The public page has a new link: the old one no longer works."))
    return redirect("clubs:settings", club_id=grant.club.pk)


def club_invite(request: HttpRequest, club_id: int) -> HttpResponse:
    """Make a new one-use invitation link (shown on the settings page until it is used)."""
    grant = club_for_user(request.user, club_id, _MANAGE, owners_page=True)
    return page_answer(request, POST_ONLY, _invite, grant)


def _invite(request: HttpRequest, grant: ClubGrant) -> HttpResponse:
    services.invite_owner(grant.club, by=request.user)
    messages.success(
        request, _("A new invitation link is ready: send it to the person you want as co-owner.")
    )
    return redirect("clubs:settings", club_id=grant.club.pk)


def owner_remove(request: HttpRequest, club_id: int, owner_id: int) -> HttpResponse:
    """Remove a co-owner (the last owner stays)."""
    grant = club_for_user(request.user, club_id, _MANAGE, owners_page=True)
    return page_answer(request, POST_ONLY, _remove_owner, grant, owner_id)


def _remove_owner(request: HttpRequest, grant: ClubGrant, owner_id: int) -> HttpResponse:
    owner = owner_of(grant, owner_id)
    with catch_refusal() as refused:
        services.remove_owner(grant.club, owner)
    if refused:
        refused.flash(request)
        return redirect("clubs:settings", club_id=grant.club.pk)
    messages.success(request, _("%(name)s no longer runs the club.") % {"name": owner.user.get_username()})
    if owner.user_id == request.user.pk:
        return redirect("clubs:list")
    return redirect("clubs:settings", club_id=grant.club.pk)


@require_http_methods(["GET", "HEAD", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """/clubs/invitations/<token>/: become a co-owner of the club that invited you (logged in).

    Someone not logged in is sent to log in (or sign up) and told why: the log-in page alone does
    not say that an invitation waits behind it."""
    found = services.invitation_by_token(token)  # NotFoundInClub: the site's 404
    why = _("Log in, or sign up, to become a co-owner of %(name)s.") % {"name": found.club.name}
    if (to_login := login_first(request, why)) is not None:
        return to_login
    if request.method == "POST":  # once per form key, after the log-in check
        return write_form_once(request, lambda: _accept_invitation(request, found, token))
    return _invitation_page(request, found, [])


def _accept_invitation(request: HttpRequest, found: OwnerInvitation, token: str) -> HttpResponse:
    with catch_refusal() as refused:
        club = services.accept_invitation(token, request.user)
    if refused:
        return _invitation_page(request, found, refused.problems)
    messages.success(request, _("You are now an owner of %(name)s.") % {"name": club.name})
    return redirect("clubs:settings", club_id=club.pk)


def _invitation_page(request: HttpRequest, found: OwnerInvitation, problems: list[Problem]) -> HttpResponse:
    context = {"invitation": found, "club": found.club, "problems": problems}
    return render(request, "clubs/manage_invitation.html", context, status=409 if problems else 200)
