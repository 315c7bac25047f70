"""Clubs themselves: create one, list yours, read and change one, invite a co-owner."""

from __future__ import annotations

from django.db.models import Count
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.access import ClubCapability, ClubGrant, club_for_user, need_for
from clubs.models import Club
from clubs.services import clubs as services
from scoring.api.errors import validated

from .manage_common import (
    CLUB_ID,
    EDIT_ERRORS,
    ERRORS,
    club_api,
    expected_version,
    if_match_parameter,
    tagged,
)
from .serializers_manage import (
    ClubCreateSerializer,
    ClubListSerializer,
    ClubSerializer,
    ClubUpdateSerializer,
    InvitationSerializer,
)


def _answer(request: Request, grant: ClubGrant, code: int = status.HTTP_200_OK) -> Response:
    club = (
        Club.objects.prefetch_related("owners__user")
        .annotate(member_count=Count("members"))
        .get(pk=grant.club.pk)
    )
    body = ClubSerializer(club, context={"request": request, "can_manage": grant.can_manage}).data
    headers = (
        {"Location": request.build_absolute_uri(reverse("api-club", args=[club.pk]))} if code == 201 else {}
    )
    return tagged(Response(body, status=code, headers=headers), "club", club.pk, club.version)


@extend_schema(
    methods=["GET"], summary="Your clubs", tags=["clubs"], operation_id="v1_clubs_list",
    description="The clubs you own (created, or co-owner by invitation), by name.",
    responses={200: ClubListSerializer, 401: ERRORS[401]},
)  # fmt: skip
@extend_schema(
    methods=["POST"], summary="Create a club", tags=["clubs"], request=ClubCreateSerializer,
    description="You become its owner. Private unless `is_public`.",
    responses={201: ClubSerializer, 400: ERRORS[400], 401: ERRORS[401], 422: ERRORS[422]},
)  # fmt: skip
@club_api(["GET", "POST"], login_to_read=True)
def clubs(request: Request) -> Response:
    """GET/POST /api/v1/clubs/."""
    if request.method == "POST":
        data = validated(ClubCreateSerializer, request)
        created = services.create_club(user=request.user, name=data["name"], is_public=data["is_public"])
        return _answer(request, ClubGrant(created, frozenset(ClubCapability)), status.HTTP_201_CREATED)
    rows = (
        Club.objects.filter(owners__user=request.user)
        .prefetch_related("owners__user")
        .annotate(member_count=Count("members", distinct=True))
        .order_by("name", "pk")
    )
    context = {"request": request, "can_manage": True}
    return Response(ClubListSerializer({"clubs": rows}, context=context).data)


@extend_schema(
    methods=["GET"], summary="A club", tags=["clubs"], parameters=[CLUB_ID],
    description="Its owners, or anyone for a public club. Answers its ETag.",
    responses={200: ClubSerializer, 404: ERRORS[404]},
)  # fmt: skip
@extend_schema(
    methods=["PATCH"], summary="Rename a club or make it public or private", tags=["clubs"],
    parameters=[CLUB_ID, if_match_parameter("the club", '"club-3-v2"')], request=ClubUpdateSerializer,
    description="Owners only. Needs If-Match. Answers the new ETag.",
    responses={200: ClubSerializer, **EDIT_ERRORS},
)  # fmt: skip
@club_api(["GET", "PATCH"])
def club_detail(request: Request, club_id: int) -> Response:
    """GET/PATCH /api/v1/clubs/{id}/."""
    grant = club_for_user(request.user, club_id, need_for(request.method))
    if request.method == "PATCH":
        version = expected_version(request, "club", grant.club.pk)
        changes = validated(ClubUpdateSerializer, request)
        services.update_club(grant.club, version=version, **changes)
    return _answer(request, grant)


@extend_schema(
    summary="Invite a co-owner", tags=["clubs"], parameters=[CLUB_ID], request=None,
    description="Owners only. Answers a one-use link: whoever opens it logged in becomes a co-owner.",
    responses={201: InvitationSerializer, **ERRORS},
)  # fmt: skip
@club_api(["POST"])
def club_invitations(request: Request, club_id: int) -> Response:
    """POST /api/v1/clubs/{id}/invitations/."""
    grant = club_for_user(request.user, club_id, ClubCapability.MANAGE)
    invitation = services.invite_owner(grant.club, by=request.user)
    url = request.build_absolute_uri(reverse("clubs:invitation", args=[invitation.token]))
    body = InvitationSerializer({"url": url, "token": invitation.token}).data
    return Response(body, status=status.HTTP_201_CREATED)
