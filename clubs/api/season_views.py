"""A club's seasons through the API: list, create, read, change and delete."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.access import club_for_user, need_for, season_of
from clubs.models import Season
from clubs.services import seasons as services
from scoring.api.errors import validated

from .manage_common import (
    CLUB_ID,
    EDIT_ERRORS,
    ERRORS,
    SEASON_ID,
    club_api,
    expected_version,
    if_match_parameter,
    tagged,
)
from .serializers_manage import (
    SeasonCreateSerializer,
    SeasonListSerializer,
    SeasonSerializer,
    SeasonUpdateSerializer,
)

_IF_MATCH = if_match_parameter("the season", '"season-5-v123456"')


def _answer(season: Season, code: int = status.HTTP_200_OK, headers: dict | None = None) -> Response:
    response = Response(SeasonSerializer(season).data, status=code, headers=headers)
    return tagged(response, "season", season.pk, services.season_version(season))


@extend_schema(
    methods=["GET"], summary="A club's seasons", tags=["clubs"], parameters=[CLUB_ID],
    operation_id="v1_clubs_seasons_list",
    description="Latest first.", responses={200: SeasonListSerializer, 404: ERRORS[404]},
)  # fmt: skip
@extend_schema(
    methods=["POST"], summary="Create a season", tags=["clubs"], parameters=[CLUB_ID],
    request=SeasonCreateSerializer,
    description="Owners only. A named date range, both days included; names unique in the club.",
    responses={201: SeasonSerializer, **ERRORS},
)  # fmt: skip
@club_api(["GET", "POST"])
def seasons(request: Request, club_id: int) -> Response:
    """GET/POST /api/v1/clubs/{id}/seasons/."""
    grant = club_for_user(request.user, club_id, need_for(request.method))
    if request.method == "POST":
        data = validated(SeasonCreateSerializer, request)
        season = services.create_season(grant.club, **data)
        location = request.build_absolute_uri(reverse("api-club-season", args=[grant.club.pk, season.pk]))
        return _answer(season, status.HTTP_201_CREATED, {"Location": location})
    rows = Season.objects.filter(club=grant.club).order_by("-start", "pk")
    return Response(SeasonListSerializer({"seasons": rows}).data)


@extend_schema(
    methods=["GET"], summary="A season", tags=["clubs"], parameters=[CLUB_ID, SEASON_ID],
    responses={200: SeasonSerializer, 404: ERRORS[404]},
)  # fmt: skip
@extend_schema(
    methods=["PATCH"], summary="Rename a season or change its days", tags=["clubs"],
    parameters=[CLUB_ID, SEASON_ID, _IF_MATCH], request=SeasonUpdateSerializer,
    description="Owners only. Needs If-Match. Answers the new ETag.",
    responses={200: SeasonSerializer, **EDIT_ERRORS},
)  # fmt: skip
@extend_schema(
    methods=["DELETE"], summary="Delete a season", tags=["clubs"], parameters=[CLUB_ID, SEASON_ID, _IF_MATCH],
    description="Owners only; its games stay (a season is only a date range). Needs If-Match.",
    responses={204: None, **EDIT_ERRORS},
)  # fmt: skip
@club_api(["GET", "PATCH", "DELETE"])
def season_detail(request: Request, club_id: int, season_id: int) -> Response:
    """GET/PATCH/DELETE /api/v1/clubs/{id}/seasons/{season_id}/."""
    grant = club_for_user(request.user, club_id, need_for(request.method))
    season = season_of(grant, season_id)
    if request.method == "GET":
        return _answer(season)
    version = expected_version(request, "season", season.pk)
    if request.method == "DELETE":
        services.delete_season(grant.club, season, version=version)
        return Response(status=status.HTTP_204_NO_CONTENT)
    changes = validated(SeasonUpdateSerializer, request)
    return _answer(services.update_season(grant.club, season, version=version, **changes))
