"""The live-games API on the players at a game's table (seats): list, add, read, rename, remove."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import services
from scoring.access import Capability, GameGrant
from scoring.api.errors import validated
from scoring.api.write_once import call_once

from . import concurrency
from ._common import (
    ERRORS,
    KEY_REUSED,
    READ_ERRORS,
    SEAT,
    TOKEN,
    actor_of,
    token_api,
)
from .access import game_for_api
from .request_serializers import SeatWriteSerializer
from .response_serializers import SeatSerializer


@extend_schema(
    methods=["GET"], summary="Players at the table", tags=["players"], parameters=[TOKEN],
    responses={200: SeatSerializer(many=True), **READ_ERRORS},
)  # fmt: skip
@extend_schema(
    methods=["POST"],
    summary="Add a player",
    description="Adds a player in the next seat; refused (409) once the first hole is recorded.",
    tags=["players"],
    parameters=[TOKEN],
    request=SeatWriteSerializer,
    responses={201: SeatSerializer, **ERRORS, **KEY_REUSED},
)
@token_api(["GET", "POST"])
def game_players(request: Request, token: str) -> Response:
    """GET/POST /api/v1/games/{token}/players/."""
    grant = game_for_api(request, token, writes=Capability.MANAGE)
    if request.method == "POST":
        return call_once(request, _add_player, (grant,), {})
    seats = grant.game.seats.order_by("seat")
    return Response(SeatSerializer(seats, many=True).data)


def _add_player(request: Request, grant: GameGrant) -> Response:
    data = validated(SeatWriteSerializer, request)
    seat = services.seat_add(
        grant.game, data["name"], actor=actor_of(request), capabilities=grant.capabilities
    )
    return Response(SeatSerializer(seat).data, status=status.HTTP_201_CREATED)


@extend_schema(
    methods=["GET"], summary="A player at the table", tags=["players"], parameters=[TOKEN, SEAT],
    responses={200: SeatSerializer, **READ_ERRORS},
)  # fmt: skip
@extend_schema(
    methods=["PATCH"], summary="Rename a player at the table", tags=["players"], parameters=[TOKEN, SEAT],
    request=SeatWriteSerializer, responses={200: SeatSerializer, **ERRORS},
)  # fmt: skip
@extend_schema(
    methods=["DELETE"],
    summary="Remove a player",
    description=(
        "Only before the first hole; later seats move up one. Needs If-Match with the player's ETag "
        '("seat-<id>", from GET or the list), so that a retried DELETE answers 412 instead of removing '
        "the player who moved up into that seat."
    ),
    tags=["players"],
    parameters=[TOKEN, SEAT, concurrency.IF_MATCH_DELETE],
    responses={204: None, **ERRORS},
)
@token_api(["GET", "PATCH", "DELETE"])
def game_player_detail(request: Request, token: str, seat: int) -> Response:
    """GET/PATCH/DELETE /api/v1/games/{token}/players/{seat}/."""
    grant = game_for_api(request, token, writes=Capability.MANAGE)
    if request.method == "DELETE":
        named = concurrency.if_match(request, "seat", allow_any=False)
        services.seat_remove(grant.game, seat, expected_id=named.pk, capabilities=grant.capabilities)
        return Response(status=status.HTTP_204_NO_CONTENT)
    if request.method == "PATCH":
        data = validated(SeatWriteSerializer, request)
        found = services.seat_rename(grant.game, seat, data["name"], capabilities=grant.capabilities)
    else:
        found = grant.game.seats.filter(seat=seat).first()
        if found is None:
            raise NotFound(_("There is no seat %(n)s at this table.") % {"n": seat})
    return Response(SeatSerializer(found).data, headers={"ETag": concurrency.etag("seat", found.pk)})
