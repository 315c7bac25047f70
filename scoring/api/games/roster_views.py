"""The live-games API on a logged-in user's own list of players (the roster, by session)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import selectors, services
from scoring.api.errors import ErrorSerializer, validated
from scoring.models import Player

from ._common import (
    ERRORS,
    KEY_REUSED,
    session_api,
)
from .access import require_login
from .request_serializers import PlayerWriteSerializer
from .response_serializers import PlayerSerializer


def _require_user(request: Request) -> None:
    require_login(request, _("Log in to keep a list of players."))


def _own_player(request: Request, player_id: int) -> Player:
    _require_user(request)
    player = selectors.owned_player(request.user, player_id)
    if player is None:
        raise NotFound(_("You have no player %(id)s.") % {"id": player_id})
    return player


_ROSTER_ERR = {400: ERRORS[400], 403: OpenApiResponse(ErrorSerializer, description="Not logged in.")}


@extend_schema(
    methods=["GET"], summary="Your players", tags=["players"],
    responses={200: PlayerSerializer(many=True), **_ROSTER_ERR},
)  # fmt: skip
@extend_schema(
    methods=["POST"], summary="Add a player to your list", tags=["players"], request=PlayerWriteSerializer,
    responses={201: PlayerSerializer, **_ROSTER_ERR, **KEY_REUSED},
)  # fmt: skip
@session_api(["GET", "POST"], access=_require_user)  # logged-in users only, before any key
def players(request: Request) -> Response:
    """GET/POST /api/v1/players/ (logged-in users)."""
    _require_user(request)
    if request.method == "POST":
        data = validated(PlayerWriteSerializer, request)
        player = services.player_create(request.user, data["name"])
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)
    roster = selectors.owned_players(request.user)
    return Response(PlayerSerializer(roster, many=True).data)


_PLAYER_ID = OpenApiParameter("player_id", OpenApiTypes.INT, OpenApiParameter.PATH)


@extend_schema(
    methods=["GET"], summary="One of your players", tags=["players"], parameters=[_PLAYER_ID],
    responses={200: PlayerSerializer, **_ROSTER_ERR, 404: ERRORS[404]},
)  # fmt: skip
@extend_schema(
    methods=["PATCH"], summary="Rename one of your players", tags=["players"], parameters=[_PLAYER_ID],
    request=PlayerWriteSerializer, responses={200: PlayerSerializer, **_ROSTER_ERR, 404: ERRORS[404]},
)  # fmt: skip
@extend_schema(
    methods=["DELETE"], summary="Remove one of your players", tags=["players"], parameters=[_PLAYER_ID],
    responses={204: None, **_ROSTER_ERR, 404: ERRORS[404]},
)  # fmt: skip
@session_api(["GET", "PATCH", "DELETE"])
def player_detail(request: Request, player_id: int) -> Response:
    """GET/PATCH/DELETE /api/v1/players/{id}/ (logged-in users, their own players)."""
    player = _own_player(request, player_id)
    if request.method == "DELETE":
        services.player_delete(player)
        return Response(status=status.HTTP_204_NO_CONTENT)
    if request.method == "PATCH":
        data = validated(PlayerWriteSerializer, request)
        player = services.player_rename(player, data["name"])
    return Response(PlayerSerializer(player).data)
