"""The clubs API's exports: a club's games and members, a member's games BG Stats-style (GET only;
a public club's for anyone, a private club's for its owners, else 404)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from clubs import exports
from clubs.access import ClubCapability, club_for_user, member_of
from scoring.api.errors import ErrorSerializer

CLUB_ID = OpenApiParameter("club_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The club's id.")
MEMBER_ID = OpenApiParameter(
    "member_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="A member's id."
)
NOT_FOUND = {
    404: OpenApiResponse(ErrorSerializer, description="No such club (or member), or a private club.")
}


class ExportPlayerSerializer(serializers.Serializer):
    """One player of an exported game."""

    seat = serializers.IntegerField(help_text="0-based, clockwise")
    name = serializers.CharField()
    member = serializers.IntegerField(allow_null=True, help_text="the member's id, null for a guest")
    total = serializers.IntegerField()
    place = serializers.IntegerField(help_text="1 = won; shared places repeat")
    winner = serializers.BooleanField()


class ExportGameSerializer(serializers.Serializer):
    """One game of the club, its players in seat order."""

    game = serializers.IntegerField()
    date = serializers.DateTimeField(help_text="the last hole's time (the start while none)")
    status = serializers.CharField()
    title = serializers.CharField(allow_blank=True)
    first_player = serializers.IntegerField(allow_null=True)
    players = ExportPlayerSerializer(many=True)
    winners = serializers.ListField(child=serializers.CharField())


class ExportGamesSerializer(serializers.Serializer):
    """GET .../export/games/: the club's games, oldest first."""

    games = ExportGameSerializer(many=True)


class ExportMemberSerializer(serializers.Serializer):
    """One member with their games and rating (null before their first rated game)."""

    member = serializers.IntegerField()
    name = serializers.CharField()
    retired = serializers.BooleanField()
    games = serializers.IntegerField(help_text="games counted for the ratings")
    rated_games = serializers.IntegerField()
    mu = serializers.FloatField(allow_null=True)
    sigma = serializers.FloatField(allow_null=True)
    ordinal = serializers.FloatField(allow_null=True)


class ExportMembersSerializer(serializers.Serializer):
    """GET .../export/members/: the club's members by name."""

    members = ExportMemberSerializer(many=True)


class BGStatsScoreSerializer(serializers.Serializer):
    """One player of a play, with BG Stats' own field names."""

    playerRefId = serializers.IntegerField()
    score = serializers.CharField()
    winner = serializers.BooleanField()
    rank = serializers.IntegerField()
    seatOrder = serializers.IntegerField()
    startPlayer = serializers.BooleanField()
    newPlayer = serializers.BooleanField()


class BGStatsPlaySerializer(serializers.Serializer):
    """One play of the BG Stats file."""

    playDate = serializers.CharField(help_text="YYYY-MM-DD HH:MM:SS (UTC)")
    gameRefId = serializers.IntegerField()
    ignored = serializers.BooleanField()
    manualWinner = serializers.BooleanField()
    board = serializers.CharField(allow_blank=True)
    playerScores = BGStatsScoreSerializer(many=True)


class BGStatsSerializer(serializers.Serializer):
    """GET .../bgstats/: a member's finished games, BG Stats-style."""

    players = serializers.ListField(child=serializers.DictField())
    games = serializers.ListField(child=serializers.DictField())
    plays = BGStatsPlaySerializer(many=True)
    locations = serializers.ListField(child=serializers.DictField())


def _read_api(view: Callable[..., Response]) -> Callable[..., Response]:
    """@api_view for a GET of the clubs API: token or session, anyone (access decides)."""
    view = permission_classes([AllowAny])(view)
    view = authentication_classes([TokenAuthentication, SessionAuthentication])(view)
    return api_view(["GET"])(view)


@extend_schema(
    summary="A club's games", tags=["clubs"], parameters=[CLUB_ID],
    responses={200: ExportGamesSerializer, **NOT_FOUND},
)  # fmt: skip
@_read_api
def export_games(request: Request, club_id: int) -> Response:
    """GET /api/v1/clubs/{id}/export/games/."""
    grant = club_for_user(request.user, club_id, ClubCapability.VIEW)
    return Response(ExportGamesSerializer({"games": exports.club_games(grant.club)}).data)


@extend_schema(
    summary="A club's members", tags=["clubs"], parameters=[CLUB_ID],
    responses={200: ExportMembersSerializer, **NOT_FOUND},
)  # fmt: skip
@_read_api
def export_members(request: Request, club_id: int) -> Response:
    """GET /api/v1/clubs/{id}/export/members/."""
    grant = club_for_user(request.user, club_id, ClubCapability.VIEW)
    return Response(ExportMembersSerializer({"members": exports.club_members(grant.club)}).data)


@extend_schema(
    summary="A member's games, BG Stats-style", tags=["clubs"], parameters=[CLUB_ID, MEMBER_ID],
    responses={200: BGStatsSerializer, **NOT_FOUND},
)  # fmt: skip
@_read_api
def export_member_bgstats(request: Request, club_id: int, member_id: int) -> Response:
    """GET /api/v1/clubs/{id}/export/members/{member_id}/bgstats/."""
    grant = club_for_user(request.user, club_id, ClubCapability.VIEW)
    data: dict[str, Any] = exports.member_bgstats(member_of(grant, member_id))
    return Response(BGStatsSerializer(data).data)
