"""Where each table's phone stands in a round: when it was last heard from and the holes it still
holds (`scoring.phone_contact`), for the staff's scripts as the dashboard shows it.

Its own route rather than a field of the round's answer: the round's ETag moves with its seating,
state, holes and confirmations, not with its phones (heard every half minute), so a field there
would be answered stale by a 304. This answer is never cached.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import services
from tournaments.access import Action, tournament_for_user
from tournaments.web.phone_status import attach_phone_statuses
from tournaments.web.selectors import table_lines

from ._common import READ_ERRORS, ROUND, TOURNAMENT_ID, tournament_api
from .response_serializers import RoundPhonesSerializer


@extend_schema(
    summary="Each table's phone in a round", tags=["tournaments"], parameters=[TOURNAMENT_ID, ROUND],
    description=(
        "The staff's: when each table's phone was last heard from, the writes it said it still "
        "holds, and whether to chase it before finalizing (as the dashboard shows it). Never cached."
    ),
    responses={200: RoundPhonesSerializer, **READ_ERRORS},
)  # fmt: skip
@tournament_api(["GET"])
def round_phones(request: Request, tournament_id: int, number: int) -> Response:
    """GET /api/v1/tournaments/{id}/rounds/{n}/phones/ (four queries)."""
    tournament = tournament_for_user(request.user, tournament_id, Action.SEE_LIVE).tournament
    round_ = services.round_in(tournament, number)
    lines = table_lines(round_)
    attach_phone_statuses(lines, round_.status)
    response = Response(RoundPhonesSerializer(round_, context={"lines": lines}).data)
    response["Cache-Control"] = "no-store"
    return response
