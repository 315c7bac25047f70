"""A club's members through the API: the list, adding one or a pasted list, merging two."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.access import ClubCapability, club_for_user, member_of, need_for
from clubs.models import Member
from clubs.services import members as services
from scoring.api.errors import validated

from .manage_common import CLUB_ID, ERRORS, club_api, tagged
from .serializers_manage import (
    MemberBriefSerializer,
    MemberCreateSerializer,
    MemberListSerializer,
    MemberMergeSerializer,
    MembersAddedSerializer,
)

# One member, or the members a pasted list added: the two 201 bodies, told apart by their keys.
_ADDED = PolymorphicProxySerializer(
    component_name="MembersAddedOrOne",
    serializers=[MemberBriefSerializer, MembersAddedSerializer],
    resource_type_field_name=None,
)


@extend_schema(
    methods=["GET"], summary="A club's members", tags=["clubs"], parameters=[CLUB_ID],
    operation_id="v1_clubs_members_list",
    description="By name, retired ones included (`retired`).",
    responses={200: MemberListSerializer, 404: ERRORS[404]},
)  # fmt: skip
@extend_schema(
    methods=["POST"], summary="Add a member, or a pasted list of members", tags=["clubs"],
    parameters=[CLUB_ID],
    request=MemberCreateSerializer,
    description='Owners only. `{"name": "Ann"}` answers the member; `{"names": [...]}` answers '
    '`{"members": [...]}` in the list\'s order, all or none: each bad, repeated or taken name is '
    "named (`names[N]`, from 1). Names are unique in a club as people read them (case, width, accents "
    "typed either way).",
    responses={
        201: OpenApiResponse(_ADDED, description='The member added, or `{"members": [...]}` for `names`.'),
        **ERRORS,
    },
)  # fmt: skip
@club_api(["GET", "POST"])
def members(request: Request, club_id: int) -> Response:
    """GET/POST /api/v1/clubs/{id}/members/."""
    grant = club_for_user(request.user, club_id, need_for(request.method))
    if request.method == "POST":
        data = validated(MemberCreateSerializer, request)
        if "names" in data:
            added = services.add_members(grant.club, data["names"])
            body = MembersAddedSerializer({"members": added}).data
            return Response(body, status=status.HTTP_201_CREATED)
        member = services.add_member(grant.club, data["name"])
        location = (
            request.build_absolute_uri(reverse("api-club-members", args=[grant.club.pk])) + f"{member.pk}/"
        )
        response = Response(
            MemberBriefSerializer(member).data, status=status.HTTP_201_CREATED, headers={"Location": location}
        )
        return tagged(response, "member", member.pk, member.version)
    rows = Member.objects.filter(club=grant.club).order_by("name_key", "pk")
    return Response(MemberListSerializer({"members": rows}).data)


@extend_schema(
    summary="Merge two members who are one person", tags=["clubs"], parameters=[CLUB_ID],
    request=MemberMergeSerializer,
    description="Owners only. The duplicate's games and tournament entries become the kept member's, the "
    "duplicate is deleted and the club's ratings are counted again. 409 when the two played one game "
    "(two people, not one). Answers the kept member.",
    responses={200: MemberBriefSerializer, **ERRORS},
)  # fmt: skip
@club_api(["POST"])
def members_merge(request: Request, club_id: int) -> Response:
    """POST /api/v1/clubs/{id}/members/merge/."""
    grant = club_for_user(request.user, club_id, ClubCapability.MANAGE)
    data = validated(MemberMergeSerializer, request)
    keep, duplicate = member_of(grant, data["keep"]), member_of(grant, data["duplicate"])
    kept = services.merge_members(grant.club, keep, duplicate)
    return tagged(Response(MemberBriefSerializer(kept).data), "member", kept.pk, kept.version)
