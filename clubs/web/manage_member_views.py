"""The owners' members page: add one, paste a list, rename, retire or bring back, merge two.

Each form posts to its own address and, on bad input, the page is shown again with what was typed
and the problem on its field (a pasted list names each bad line); done, it goes back to the list.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.access import ClubCapability, ClubGrant, club_for_user, member_of
from clubs.models import Member
from clubs.services import members as services
from clubs.web.manage_access import club_home_url, page_answer
from clubs.web.manage_forms import MemberForm, MergeForm, PasteForm, RenameForm
from golfclub.core.errors import Refusal, catch_refusal
from golfclub.core.form_fields import place_problems
from golfclub.core.page_methods import POST_ONLY, READ_METHODS

_MANAGE = ClubCapability.MANAGE


def _members_page(
    request: HttpRequest, grant: ClubGrant, status: int = 200, **forms_shown: Any
) -> HttpResponse:
    members = list(Member.objects.filter(club=grant.club).order_by("name_key", "pk"))
    choices = [(m.pk, m.name) for m in members]
    context = {
        "club": grant.club,
        "home_url": club_home_url(grant),
        "members": members,
        "active": sum(1 for m in members if m.retired_at is None),
        "form": forms_shown.get("form") or MemberForm(),
        "paste_form": forms_shown.get("paste_form") or PasteForm(),
        "merge_form": forms_shown.get("merge_form") or MergeForm(members=choices),
        "rename_form": forms_shown.get("rename_form"),
        "renaming": forms_shown.get("renaming"),
    }
    return render(request, "clubs/manage_members.html", context, status=status)


def _refused(form: forms.Form, refused: Refusal) -> int:
    """Put a refusal's problems on the form that was sent; the status to answer with."""
    place_problems(form, refused.problems)
    return refused.status


def members(request: HttpRequest, club_id: int) -> HttpResponse:
    """/clubs/<id>/members/: the members, and the forms that change them."""
    grant = club_for_user(request.user, club_id, _MANAGE, owners_page=True)
    return page_answer(request, READ_METHODS, _members_page, grant)


def member_add(request: HttpRequest, club_id: int) -> HttpResponse:
    """Add one member."""
    grant = club_for_user(request.user, club_id, _MANAGE, owners_page=True)
    return page_answer(request, POST_ONLY, _add, grant)


def member_paste(request: HttpRequest, club_id: int) -> HttpResponse:
    """Add a pasted list, one name a line: everyone, or nobody with each bad line named."""
    grant = club_for_user(request.user, club_id, _MANAGE, owners_page=True)
    return page_answer(request, POST_ONLY, _paste, grant)


def member_rename(request: HttpRequest, club_id: int, member_id: int) -> HttpResponse:
    """Rename a member (against the version the page showed)."""
    grant = club_for_user(request.user, club_id, _MANAGE, owners_page=True)
    return page_answer(request, POST_ONLY, _rename, grant, member_id)


def member_retire(request: HttpRequest, club_id: int, member_id: int) -> HttpResponse:
    """Retire a member (`retired=1`) or bring them back (`retired=0`)."""
    grant = club_for_user(request.user, club_id, _MANAGE, owners_page=True)
    return page_answer(request, POST_ONLY, _retire, grant, member_id)


def member_merge(request: HttpRequest, club_id: int) -> HttpResponse:
    """Merge two members who are one person."""
    grant = club_for_user(request.user, club_id, _MANAGE, owners_page=True)
    return page_answer(request, POST_ONLY, _merge, grant)


def _add(request: HttpRequest, grant: ClubGrant) -> HttpResponse:
    form = MemberForm(request.POST)
    if not form.is_valid():
        return _members_page(request, grant, 400, form=form)
    with catch_refusal() as refused:
        member = services.add_member(grant.club, form.cleaned_data["name"])
    if refused:
        return _members_page(request, grant, _refused(form, refused), form=form)
    messages.success(request, _("%(name)s is a member now.") % {"name": member.name})
    return redirect("clubs:members", club_id=grant.club.pk)


def _paste(request: HttpRequest, grant: ClubGrant) -> HttpResponse:
    form = PasteForm(request.POST)
    if not form.is_valid():
        return _members_page(request, grant, 400, paste_form=form)
    with catch_refusal() as refused:
        added = services.add_members(grant.club, form.lines(), skip_blank=True)
    if refused:
        return _members_page(request, grant, _refused(form, refused), paste_form=form)
    count = len(added)
    messages.success(request, ngettext("%(n)s member added.", "%(n)s members added.", count) % {"n": count})
    return redirect("clubs:members", club_id=grant.club.pk)


def _rename(request: HttpRequest, grant: ClubGrant, member_id: int) -> HttpResponse:
    member = member_of(grant, member_id)
    form = RenameForm(request.POST, prefix=f"m{member.pk}")
    if not form.is_valid():
        return _members_page(request, grant, 400, rename_form=form, renaming=member.pk)
    with catch_refusal() as refused:
        renamed = services.rename_member(
            grant.club, member, form.cleaned_data["name"], version=form.cleaned_data["version"]
        )
    if refused:
        return _members_page(request, grant, _refused(form, refused), rename_form=form, renaming=member.pk)
    messages.success(request, _("%(old)s is now %(new)s.") % {"old": member.name, "new": renamed.name})
    return redirect("clubs:members", club_id=grant.club.pk)


def _retire(request: HttpRequest, grant: ClubGrant, member_id: int) -> HttpResponse:
    member = member_of(grant, member_id)
    if request.POST.get("retired") not in ("0", "1"):  # anything else must not bring a member back
        messages.error(request, _("Retired: say whether the member is retired (1) or not (0)."))
        return _members_page(request, grant, 400)
    retired = request.POST.get("retired") == "1"
    changed = services.retire_member(grant.club, member, retired)
    message = _("%(name)s is retired: kept with their games, no longer offered for new ones.")
    if not retired:
        message = _("%(name)s is back among the active members.")
    message %= {"name": member.name}
    if request.headers.get("HX-Request"):  # the row alone, swapped in place, saying what changed
        counts = Member.objects.filter(club=grant.club).aggregate(
            total=Count("pk"), active=Count("pk", filter=Q(retired_at__isnull=True))
        )
        context = {"club": grant.club, "member": changed, "changed_message": message, **counts}
        return render(request, "clubs/_manage_member_row.html", context)
    messages.success(request, message)
    return redirect("clubs:members", club_id=grant.club.pk)


def _merge(request: HttpRequest, grant: ClubGrant) -> HttpResponse:
    choices = list(Member.objects.filter(club=grant.club).order_by("name_key").values_list("pk", "name"))
    form = MergeForm(request.POST, members=choices)
    if not form.is_valid():
        return _members_page(request, grant, 400, merge_form=form)
    keep = member_of(grant, form.cleaned_data["keep"])
    duplicate = member_of(grant, form.cleaned_data["duplicate"])
    with catch_refusal() as refused:
        kept = services.merge_members(grant.club, keep, duplicate)
    if refused:
        return _members_page(request, grant, _refused(form, refused), merge_form=form)
    message = _("%(dup)s is merged into %(keep)s: their games count for %(keep)s now.")
    messages.success(request, message % {"dup": duplicate.name, "keep": kept.name})
    return redirect("clubs:members", club_id=grant.club.pk)
