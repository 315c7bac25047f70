"""The clubs' read API (SPEC "Clubs API contract"): ratings, a member's stats, a season's leaderboard.

Anybody may read a public club; a private club is a 404 to all but its owners (`clubs.access`).
The services' and access policy's errors are answered by the API's one handler
(`scoring.api.errors.exception_handler`) with their kinds' statuses (`http_status`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.access import club_for_user, member_of, need_for, season_of
from clubs.api.manage_common import EDIT_ERRORS, club_api, expected_version, if_match_parameter, tagged
from clubs.api.serializers_stats import (
    MemberStatsSerializer,
    MemberUpdateSerializer,
    RatingsSerializer,
    SeasonLeaderboardSerializer,
)
from clubs.api.stats_bodies import member_body, ratings_body, season_body, season_order
from clubs.models import Club, Member
from clubs.selectors.leaderboard import club_leaderboard
from clubs.selectors.member_stats import member_stats
from clubs.selectors.seasons import SeasonOrder, season_leaderboard
from clubs.services.members import rename_member, retire_member
from scoring.api.errors import ErrorSerializer, validated

CLUB_ID = OpenApiParameter("club_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The club's id.")
MEMBER_ID = OpenApiParameter(
    "member_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The member's id in the club."
)
SEASON_ID = OpenApiParameter(
    "season_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The season's id in the club."
)
ORDER = OpenApiParameter(
    "order",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    required=False,
    enum=[order.value for order in SeasonOrder],
    description="The column to sort by (default `wins`): most wins, lowest average per hole, most low "
    "holes, fewest total points, biggest rating rise; ties by wins, then average, then name.",
)
READ_ERRORS = {
    404: OpenApiResponse(ErrorSerializer, description="No such club (or a private one), member or season.")
}


def club_read_api(view: Callable[..., Response]) -> Callable[..., Response]:
    """@api_view(["GET"]) for a club's read route: token or session authentication, anybody may ask."""
    wrapped = permission_classes([AllowAny])(view)
    wrapped = authentication_classes([TokenAuthentication, SessionAuthentication])(wrapped)
    return api_view(["GET"])(wrapped)


@extend_schema(
    summary="A club's ratings", tags=["clubs"], parameters=[CLUB_ID],
    description="Every rated member (retired ones too) by ordinal (mu - 3 sigma), highest first, with "
    "their counted games.",
    responses={200: RatingsSerializer, **READ_ERRORS},
)  # fmt: skip
@club_read_api
def club_ratings(request: Request, club_id: int) -> Response:
    """GET /api/v1/clubs/{id}/ratings/."""
    grant = club_for_user(request.user, club_id)
    return Response(ratings_body(club_leaderboard(grant.club, include_retired=True)))


@extend_schema(
    methods=["GET"], summary="A member's stats", tags=["clubs"], parameters=[CLUB_ID, MEMBER_ID],
    operation_id="v1_clubs_member_retrieve",
    description="Record, rating and its history (after each counted game, in rating order), "
    "head-to-head against every member met (from this member's side), rival and nemesis. "
    'Answers the member\'s ETag (`"member-<id>-v<version>"`).',
    responses={200: MemberStatsSerializer, **READ_ERRORS},
)  # fmt: skip
@extend_schema(
    methods=["PATCH"], summary="Rename or retire a member", tags=["clubs"],
    operation_id="v1_clubs_member_partial_update",
    parameters=[CLUB_ID, MEMBER_ID, if_match_parameter("the member", '"member-11-v2"')],
    request=MemberUpdateSerializer,
    description="Owners only. Needs If-Match. A retired member keeps their games and rating but leaves "
    "the leaderboard and the game start; `retired: false` brings them back. Answers the new ETag.",
    responses={200: MemberStatsSerializer, **EDIT_ERRORS},
)  # fmt: skip
@club_api(["GET", "PATCH"])
def member_detail(request: Request, club_id: int, member_id: int) -> Response:
    """GET/PATCH /api/v1/clubs/{id}/members/{member_id}/."""
    grant = club_for_user(request.user, club_id, need_for(request.method))
    member = member_of(grant, member_id)
    if request.method == "PATCH":
        version = expected_version(request, "member", member.pk)
        member = _change_member(grant.club, member, version, validated(MemberUpdateSerializer, request))
    return tagged(
        Response(member_body(member_stats(member))),
        "member",
        member.pk,
        member.version,
    )


def _change_member(club: Club, member: Member, version: int | None, changes: dict[str, Any]) -> Member:
    """Rename and/or retire `member`, both or neither (the second change checks the version the
    first one left, in the same transaction)."""
    with transaction.atomic():
        if "name" in changes:
            member = rename_member(club, member, changes["name"], version=version)
            version = member.version if version is not None else None
        if "retired" in changes:
            member = retire_member(club, member, changes["retired"], version=version)
    return member


@extend_schema(
    summary="A season's leaderboard", tags=["clubs"], parameters=[CLUB_ID, SEASON_ID, ORDER],
    description="The club's games finished within the season's dates (both included), per member.",
    responses={200: SeasonLeaderboardSerializer, 400: ErrorSerializer, **READ_ERRORS},
)  # fmt: skip
@club_read_api
def season_leaderboard_view(request: Request, club_id: int, season_id: int) -> Response:
    """GET /api/v1/clubs/{id}/seasons/{season_id}/leaderboard/."""
    grant = club_for_user(request.user, club_id)
    season = season_of(grant, season_id)
    order = season_order(request.query_params.get("order"))
    return Response(season_body(season_leaderboard(season, order)))
