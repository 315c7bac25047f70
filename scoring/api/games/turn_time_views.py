"""The live-games API on the turn timer's times: GET and PUT /api/v1/games/{token}/turn-times/.

The PUT takes a phone's running totals per hole and seat and keeps, per value, the larger of the
stored and the sent one (`scoring.services.record_turn_times`): sending the same report twice, or an
older one late, changes nothing, so the offline queue may send it again safely and in any order.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from golfclub.core.input_fields import StrictIntegerField, StrictObjectSerializer
from golfclub.core.limits import (
    MAX_HOLES,
    MAX_PLAYERS,
    MAX_TURN_MILLISECONDS,
    MAX_TURN_TIME_HOLES,
    MAX_TURNS_PER_HOLE,
)
from scoring import selectors, services
from scoring.access import Capability, GameGrant
from scoring.api.errors import validated
from scoring.models import TurnTime

from ._common import ERRORS, READ_ERRORS, TOKEN, token_api
from .access import game_for_api


class SeatTimeSerializer(StrictObjectSerializer):
    """One seat's clock in one hole."""

    seat = StrictIntegerField(min_value=0, max_value=MAX_PLAYERS - 1, help_text=_("0-based, clockwise"))
    milliseconds = StrictIntegerField(min_value=0, max_value=MAX_TURN_MILLISECONDS)
    turns = StrictIntegerField(min_value=0, max_value=MAX_TURNS_PER_HOLE)


class HoleTimesSerializer(StrictObjectSerializer):
    """A hole's clocks: its number (from 1), whether a playoff hole, each timed seat."""

    number = StrictIntegerField(min_value=1, max_value=MAX_HOLES)
    playoff = serializers.BooleanField(default=False)
    seats = SeatTimeSerializer(many=True, max_length=MAX_PLAYERS)


class TurnTimesWriteSerializer(StrictObjectSerializer):
    """A phone's report: its running totals per hole and seat (larger values are kept)."""

    holes = HoleTimesSerializer(many=True, max_length=MAX_TURN_TIME_HOLES)


class PlayerTimeSerializer(serializers.Serializer):
    """One player's timed total in the game."""

    seat = serializers.IntegerField()
    name = serializers.CharField()
    milliseconds = serializers.IntegerField()
    turns = serializers.IntegerField()
    average_ms = serializers.IntegerField(allow_null=True, help_text=_("milliseconds per turn"))


class TurnTimesSerializer(serializers.Serializer):
    """The game's turn times: per hole and seat as stored, and each player's totals."""

    holes = HoleTimesSerializer(many=True)
    players = PlayerTimeSerializer(many=True)


def _answer(grant: GameGrant) -> dict[str, Any]:
    """The game's stored times, by hole (regular holes first) and by player."""
    holes: dict[tuple[bool, int], list[dict[str, int]]] = {}
    rows = TurnTime.objects.filter(game=grant.game).order_by("is_playoff", "hole_number", "seat")
    for row in rows:
        one = {"seat": row.seat, "milliseconds": row.milliseconds, "turns": row.turns}
        holes.setdefault((row.is_playoff, row.hole_number), []).append(one)
    names = list(grant.game.seats.order_by("seat").values_list("name", flat=True))
    players = [
        {**vars(p), "average_ms": p.average_ms} for p in selectors.game_turn_times(grant.game.pk, names)
    ]
    return {
        "holes": [{"number": n, "playoff": p, "seats": s} for (p, n), s in holes.items()],
        "players": players,
    }


@extend_schema(
    methods=["GET"], summary="Turn times", tags=["games"], parameters=[TOKEN],
    responses={200: TurnTimesSerializer, **READ_ERRORS},
)  # fmt: skip
@extend_schema(
    methods=["PUT"],
    summary="Report the turn timer's times",
    description=(
        "A phone's running totals per hole and seat (milliseconds, turns). Each stored value becomes "
        "the larger of the stored and the sent one, so the same report sent twice, or an older report "
        "arriving late, changes nothing: no Idempotency-Key or If-Match is needed (an Idempotency-Key "
        "header is accepted and ignored). Holes and seats not sent are left as they are."
    ),
    tags=["games"],
    parameters=[TOKEN],
    request=TurnTimesWriteSerializer,
    responses={200: TurnTimesSerializer, **ERRORS},
)
@token_api(["GET", "PUT"])
def game_turn_times(request: Request, token: str) -> Response:
    """GET/PUT /api/v1/games/{token}/turn-times/."""
    grant = game_for_api(request, token, writes=Capability.SCORE)
    if request.method == "PUT":
        data = validated(TurnTimesWriteSerializer, request)
        holes = [
            services.HoleTimes(
                number=hole["number"],
                playoff=hole["playoff"],
                seats=[services.SeatTime(**seat) for seat in hole["seats"]],
            )
            for hole in data["holes"]
        ]
        services.record_turn_times(grant.game, holes)
    return Response(TurnTimesSerializer(_answer(grant)).data)
