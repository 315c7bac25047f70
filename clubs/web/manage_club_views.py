"""The owners' club pages: my clubs and a new one, a club's settings (name, public or private and
its link, co-owners invited by a one-use link, removed), and accepting an invitation."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs.access import ClubGrant, clubs_of
from clubs.models import Club, ClubOwner, OwnerInvitation
from clubs.services import clubs as services
from clubs.web.manage_access import club_home_url, club_page, login_first
from clubs.web.manage_forms import ClubForm
from golfclub.core.errors import catch_refusal
from golfclub.core.form_fields import place_problems
from scoring.form_once import form_once

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


@club_page(methods=("GET", "HEAD", "POST"))
def club_settings(request: HttpRequest, grant: ClubGrant) -> HttpResponse:
    """/clubs/<id>/settings/: the club's name and visibility, its owners and their invitations."""
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


@club_page(methods=("POST",))
def club_public_link(request: HttpRequest, grant: ClubGrant) -> HttpResponse:
    """Replace the public page's link: whoever has the old one no longer sees the club."""
    services.update_club(grant.club, new_public_link=True)
    messages.success(request, _("The public page has a new link: the old one no longer works."))
    return redirect("clubs:settings", club_id=grant.club.pk)


@club_page(methods=("POST",))
def club_invite(request: HttpRequest, grant: ClubGrant) -> HttpResponse:
    """Make a new one-use invitation link (shown on the settings page until it is used)."""
    services.invite_owner(grant.club, by=request.user)
    messages.success(
        request, _("A new invitation link is ready: send it to the person you want as co-owner.")
    )
    return redirect("clubs:settings", club_id=grant.club.pk)


@club_page(methods=("POST",))
def owner_remove(request: HttpRequest, grant: ClubGrant, owner_id: int) -> HttpResponse:
    """Remove a co-owner (the last owner stays)."""
    owner = ClubOwner.objects.filter(club=grant.club, pk=owner_id).select_related("user").first()
    if owner is None:
        raise Http404(_("No such owner of this club."))
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
@form_once
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """/clubs/invitations/<token>/: become a co-owner of the club that invited you (logged in).

    Someone not logged in is sent to log in (or sign up) and told why: the log-in page alone does
    not say that an invitation waits behind it."""
    with catch_refusal() as missing:
        found = services.invitation_by_token(token)
    if missing:
        raise Http404(missing.messages[0])
    why = _("Log in, or sign up, to become a co-owner of %(name)s.") % {"name": found.club.name}
    if (to_login := login_first(request, why)) is not None:
        return to_login
    problems = []
    if request.method == "POST":
        with catch_refusal() as refused:
            club = services.accept_invitation(token, request.user)
        if refused:
            problems = refused.problems
        else:
            messages.success(request, _("You are now an owner of %(name)s.") % {"name": club.name})
            return redirect("clubs:settings", club_id=club.pk)
    context = {"invitation": found, "club": found.club, "problems": problems}
    return render(request, "clubs/manage_invitation.html", context, status=409 if problems else 200)
