"""A table's confirmation through its link, and the tournament's standings."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.access import Capability, GameGrant
from scoring.api.errors import ErrorSerializer, validated
from scoring.api.games._common import token_api
from scoring.api.games.access import game_for_api
from scoring.api.write_once import call_once
from tournaments import services
from tournaments.access import Action, tournament_for_user
from tournaments.models import Table
from tournaments.standings import cached_standings

from ._common import READ_ERRORS, TOURNAMENT_ID, tournament_api
from .idempotency import IDEMPOTENCY_KEY
from .request_serializers import ConfirmSerializer
from .response_serializers import ConfirmationSerializer, StandingsSerializer

_TOKEN = OpenApiParameter(
    "token", OpenApiTypes.STR, OpenApiParameter.PATH, description="The table's edit token (its link)."
)
_CONFIRM_ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Bad input, or `by` is not a player at the table."),
    403: OpenApiResponse(ErrorSerializer, description="A view link cannot confirm."),
    404: OpenApiResponse(
        ErrorSerializer, description="No game has this link, or it is not a tournament table."
    ),
    409: OpenApiResponse(
        ErrorSerializer,
        description=(
            "The game is not over, a disagreement is pending, the round is finalized (its scorecards "
            "are closed), or the attested `scorecard` differs from the game's holes as they stand."
        ),
    ),
    422: OpenApiResponse(
        ErrorSerializer, description="The Idempotency-Key was already used for another request."
    ),
}


@extend_schema(
    summary="Confirm a table's scorecard", tags=["tournaments"], parameters=[_TOKEN, IDEMPOTENCY_KEY],
    description=(
        'Through the table\'s edit link: `{"by": "Bob"}`, a player at the table, attests the finished '
        'scorecard; `{"disagree": true, "by": ..., "note": ...}` flags the table for the director. '
        "A phone that attested offline sends it later with its `Idempotency-Key` (a retry is "
        "answered the first answer, recorded once) and the `scorecard` it showed: a round finalized "
        "meanwhile, or holes changed since, answer 409 with a sentence the phone can show."
    ),
    request=ConfirmSerializer, responses={200: ConfirmationSerializer, **_CONFIRM_ERRORS},
)  # fmt: skip
@token_api(["POST"])
def game_confirm(request: Request, token: str) -> Response:
    """POST /api/v1/games/{edit_token}/confirm/ (the table link is the credential)."""
    grant = game_for_api(request, token, writes=Capability.SCORE)
    return call_once(request, _confirm, (grant,), {})  # the Idempotency-Key, after access


def _confirm(request: Request, grant: GameGrant) -> Response:
    data = validated(ConfirmSerializer, request)
    table = services.confirm_table(
        grant.game, data["by"], disagree=data["disagree"], note=data["note"], scorecard=data["scorecard"]
    )
    table = Table.objects.select_related("round", "game", "confirmed_by", "disputed_by").get(pk=table.pk)
    return Response(ConfirmationSerializer(table).data)


@extend_schema(
    summary="Standings", tags=["tournaments"], parameters=[TOURNAMENT_ID],
    description=(
        "In rank order (SPEC \"Standings\"): complete records by total, the tiebreak chain, "
        "incomplete records after, event DQs last; still tied after the chain, players share the "
        "rank. The staff see them live; the public too when the release is `live`, otherwise "
        "over the finalized rounds only."
    ),
    responses={200: StandingsSerializer, **READ_ERRORS},
)  # fmt: skip
@tournament_api(["GET"])
def standings(request: Request, tournament_id: int) -> Response:
    """GET /api/v1/tournaments/{id}/standings/."""
    grant = tournament_for_user(request.user, tournament_id, Action.VIEW)
    table = cached_standings(grant.tournament, live=grant.sees_live_standings)
    # The lines as the contract spells them (`Standings.to_api`, documented by StandingsSerializer
    # in the schema): a serializer per line cost 300 ms at 1,000 players, so this is the
    # serializer's fast path; tests/tournaments/api/test_standings_answer.py holds the two equal.
    return Response(table.to_api())
