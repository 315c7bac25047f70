"""The live-games API on ending a game before its last hole, and resuming it
(`POST /api/v1/games/{token}/end/`, `POST /api/v1/games/{token}/resume/`)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from golfclub.core.input_fields import StrictCharField, StrictObjectSerializer
from golfclub.core.limits import MAX_ACTOR_LENGTH
from scoring import services
from scoring.access import Capability, GameGrant
from scoring.api.errors import ErrorSerializer, validated
from scoring.api.write_once import call_once
from scoring.rules.errors import Problem

from . import concurrency
from ._common import ERRORS, TOKEN, actor_of, token_api
from .access import game_for_api
from .response_serializers import GameSerializer


class GameEndSerializer(StrictObjectSerializer):
    """POST end/ or resume/: an optional JSON body naming who does it, for the history."""

    actor = StrictCharField(required=False, default="", allow_blank=True, max_length=MAX_ACTOR_LENGTH)


GAME_IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description=(
        'Optional: the game\'s ETag from GET scoreboard/ ("game-<id>-v<version>"): the change is made '
        "only if the game is still as read (else 412, nothing written). `*` or no header: any version."
    ),
)

_ANSWERS = {
    200: GameSerializer,
    **ERRORS,
    409: OpenApiResponse(
        ErrorSerializer,
        description=(
            "Refused as the game stands (`status` names why): no hole played yet, already over or ended, "
            "a sudden death pending, nothing to resume; or a tournament's table, which only its holes end."
        ),
    ),
    412: OpenApiResponse(ErrorSerializer, description="If-Match names a version that is no longer current."),
    422: OpenApiResponse(ErrorSerializer, description="The Idempotency-Key was used for another request."),
}


@extend_schema(
    summary="End the game now, after the holes played",
    description=(
        "For a family that stops before the last hole: the game is finished, its winner decided by the "
        "holes played with the ruleset's tiebreakers, exactly as a full match (a tie the ruleset settles by "
        "sudden death then asks for playoff holes). The scoreboard's `ended_early` says \"Ended early after "
        "hole N of M\" and its `reason` why it is over; the game's `ended_early` is true. Recorded in the "
        "history (`end`). Undo reverts holes only: POST resume/ takes the ending back. With an "
        "Idempotency-Key a replay answers as the first request was answered and writes nothing; "
        "the same key with another request answers 422."
    ),
    tags=["games"],
    parameters=[TOKEN, GAME_IF_MATCH, concurrency.IDEMPOTENCY_KEY],
    request=GameEndSerializer,
    responses=_ANSWERS,
)
@token_api(["POST"])
def game_end(request: Request, token: str) -> Response:
    """POST /api/v1/games/{token}/end/."""
    grant = game_for_api(request, token, writes=Capability.SCORE)
    return call_once(request, _end_or_resume, (grant,), {"end": True})


@extend_schema(
    summary="Resume a game that was ended early",
    description=(
        "Takes back an early ending: the game is in progress again and the next hole is the one after "
        "those played. Recorded in the history (`resume`). 409 when the game was not ended early. "
        "If-Match and Idempotency-Key as for end/."
    ),
    tags=["games"],
    parameters=[TOKEN, GAME_IF_MATCH, concurrency.IDEMPOTENCY_KEY],
    request=GameEndSerializer,
    responses=_ANSWERS,
)
@token_api(["POST"])
def game_resume(request: Request, token: str) -> Response:
    """POST /api/v1/games/{token}/resume/."""
    grant = game_for_api(request, token, writes=Capability.SCORE)
    return call_once(request, _end_or_resume, (grant,), {"end": False})


def _end_or_resume(request: Request, grant: GameGrant, *, end: bool) -> Response:
    game = grant.game
    data = validated(GameEndSerializer, request)
    expected = None
    if request.headers.get("If-Match", "").strip():
        named = concurrency.if_match(request, "game")
        if named is not None:
            if named.pk != game.pk:
                raise concurrency.PreconditionFailed(
                    Problem("If-Match", _("The If-Match header names another game's ETag."))
                )
            expected = named.version
    key = concurrency.idempotency_key(request)
    change = services.EndRequest(
        actor=actor_of(request, data),
        expected_version=expected,
        idempotency_key=key,
        request_hash=concurrency.body_hash({"end" if end else "resume": request.data or {}}),
    )
    (services.end_game_early if end else services.resume_game)(game, change)
    context = {"request": request, "can_edit": grant.can_score, "token": grant.token}
    return Response(GameSerializer(game, context=context).data)
