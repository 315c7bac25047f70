"""Who may do what in a club: the one access policy of this app, for pages and API alike.

Roles: the club's owners (its creator and the co-owners who accepted an invitation), and everybody
else. Owners read and change everything of their club. Anybody may read a public club (its page by
its public link, its API by id) but change nothing; a private club does not exist for anybody but
its owners (404, never a 403 that would confirm it exists).

A view makes ONE call at its top, `club_for_user(user, club_id, need)` (or `club_by_public_token`)
and gets the club with what the caller may do; it never tests roles itself. A refusal is raised,
never answered by the view: `NotFoundInClub` (404) or `NotAnOwner` (403), answered in one place,
the API's exception handler or, for a page, the site's 404 page and `PageRefusalMiddleware` (the
page refusal `NotAnOwner` carries: `clubs.errors`), as every page's refusal. How a page answers a
403 is decided here too, by the call's `owners_page`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.utils.translation import gettext as _

from clubs.errors import NotAnOwner, NotFoundInClub
from clubs.models import Club, ClubOwner, Member, Season
from golfclub.core.errors import LoginFirst, PageRefusal
from golfclub.core.inputs import int_or_none
from golfclub.core.limits import BIGINT_MAX
from scoring.rules.errors import Problem


class ClubCapability(StrEnum):
    """Something done to a club."""

    VIEW = "view"  # its pages, leaderboard, seasons, members' pages and exports
    MANAGE = "manage"  # name, visibility, owners, members, seasons, linking games and entrants


@dataclass(frozen=True, slots=True)
class ClubGrant:
    """A club and what the person asking may do to it."""

    club: Club
    capabilities: frozenset[ClubCapability]

    @property
    def can_manage(self) -> bool:
        """True for the club's owners."""
        return ClubCapability.MANAGE in self.capabilities


def _no_such_club() -> NotFoundInClub:
    return NotFoundInClub(Problem("club", _("No such club.")))


def is_owner(user: Any, club: Club) -> bool:
    """True when `user` is one of `club`'s owners (one query)."""
    if user is None or not user.is_authenticated:
        return False
    return ClubOwner.objects.filter(club=club, user=user).exists()


def capabilities_of(user: Any, club: Club) -> frozenset[ClubCapability]:
    """Everything `user` may do to `club`."""
    if is_owner(user, club):
        return frozenset(ClubCapability)
    return frozenset({ClubCapability.VIEW}) if club.is_public else frozenset()


#: The page that tells a logged-in visitor of an owners' page who may change the club.
OWNERS_ONLY_PAGE = "clubs/manage_forbidden.html"


def club_for_user(
    user: Any, club_id: Any, need: ClubCapability = ClubCapability.VIEW, *, owners_page: bool = False
) -> ClubGrant:
    """The club `club_id` with `user`'s capabilities when they include `need`; else `NotFoundInClub`
    (no such club, or a private one they do not own: its existence is never confirmed) or
    `NotAnOwner` (they may only read it).

    `owners_page`: the request is one of the owners' pages (settings, members, seasons), whose
    refusal sends an anonymous visitor to log in (then back) and tells anyone else who may change
    the club (`OWNERS_ONLY_PAGE`); elsewhere a page answers the site's plain 403. The API answers
    the refusal's problem whatever this says."""
    club_pk = _row_id(club_id)
    club = Club.objects.filter(pk=club_pk).first() if club_pk is not None else None
    if club is None:
        raise _no_such_club()
    capabilities = capabilities_of(user, club)
    if need in capabilities:
        return ClubGrant(club, capabilities)
    if ClubCapability.VIEW not in capabilities:
        raise _no_such_club()
    raise _not_an_owner(user, owners_page=owners_page)


def _not_an_owner(user: Any, *, owners_page: bool) -> NotAnOwner:
    if user is None or not user.is_authenticated:
        problem = Problem("club", _("Log in as one of the club's owners to change it."))
        return NotAnOwner(problem, page_refusal=LoginFirst() if owners_page else None)
    problem = Problem("club", _("Only the club's owners may change it."))
    if not owners_page:
        return NotAnOwner(problem)
    return NotAnOwner(problem, page_refusal=PageRefusal(403, OWNERS_ONLY_PAGE, {"problems": [problem]}))


def need_for(method: str | None) -> ClubCapability:
    """What a request of an API address that both reads and changes a club needs: a GET reads it,
    any other method changes it."""
    return ClubCapability.VIEW if method == "GET" else ClubCapability.MANAGE


def club_by_public_token(token: str, user: Any = None) -> ClubGrant:
    """A public club by its read-only link (an owner following it gets their full grant)."""
    club = Club.objects.filter(public_token=str(token)[:64]).first()
    if club is None or not club.is_public:
        raise _no_such_club()
    return ClubGrant(club, capabilities_of(user, club))


def member_of(grant: ClubGrant, member_id: Any) -> Member:
    """The member `member_id` of the granted club, or `NotFoundInClub` (a member of another club too)."""
    pk = _row_id(member_id)
    member = Member.objects.filter(club=grant.club, pk=pk).first() if pk is not None else None
    if member is None:
        raise NotFoundInClub(Problem("member", _("No such member in this club.")))
    return member


def owner_of(grant: ClubGrant, owner_id: Any) -> ClubOwner:
    """The owner `owner_id` of the granted club, with their user, or `NotFoundInClub`."""
    pk = _row_id(owner_id)
    owners = ClubOwner.objects.filter(club=grant.club, pk=pk).select_related("user")
    owner = owners.first() if pk is not None else None
    if owner is None:
        raise NotFoundInClub(Problem("owner", _("No such owner of this club.")))
    return owner


def season_of(grant: ClubGrant, season_id: Any) -> Season:
    """The season `season_id` of the granted club, or `NotFoundInClub`."""
    pk = _row_id(season_id)
    season = Season.objects.filter(club=grant.club, pk=pk).first() if pk is not None else None
    if season is None:
        raise NotFoundInClub(Problem("season", _("No such season in this club.")))
    return season


def clubs_of(user: Any) -> list[Club]:
    """The clubs `user` owns, by name (none for an anonymous user)."""
    if user is None or not user.is_authenticated:
        return []
    return list(Club.objects.filter(owners__user=user).order_by("name", "pk"))


def _row_id(value: Any) -> int | None:
    """A row id as a URL or JSON gives it (a positive whole number within bigint, ASCII digits), or
    None: the project's one reading of typed whole numbers (`golfclub.core.inputs`)."""
    return int_or_none(value, minimum=1, maximum=BIGINT_MAX)
