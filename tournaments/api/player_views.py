"""A tournament's players: list, add one (JSON) or many (CSV), drop, withdraw, reinstate, check in,
and a player's record round by round, hole by hole."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiRequest, PolymorphicProxySerializer, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api.errors import validated
from tournaments import services
from tournaments.access import Action, tournament_for_user
from tournaments.models import Entrant, EntrantStatus
from tournaments.records import player_record

from ._common import ERRORS, PLAYER_ID, READ_ERRORS, TOURNAMENT_ID, tournament_api
from .parsers import CsvText
from .request_serializers import (
    BulkCheckInSerializer,
    CheckInSerializer,
    PlayerAddSerializer,
    ReasonSerializer,
)
from .response_serializers import (
    BulkCheckInAnswerSerializer,
    EntrantSerializer,
    PlayerRecordSerializer,
    PlayersCreatedSerializer,
    StatusSerializer,
)
from .versions import (
    IF_NONE_MATCH,
    NOT_MODIFIED,
    PRECONDITION_FAILED,
    expected_version,
    if_match_parameter,
    not_modified_answer,
    player_etag,
    tagged,
    tournament_etag,
    tournament_version,
)

_CSV = OpenApiRequest(
    OpenApiTypes.STR, examples=[OpenApiExample("CSV", value="name,club,rating\nAnn,Elm,1500\nBob,,\n")]
)


_IF_MATCH = if_match_parameter("the player", '"player-31-v42"')


# One player (JSON) or the players a CSV list created: the two 201 bodies, told apart by their keys.
_ADDED = PolymorphicProxySerializer(
    component_name="PlayersAdded",
    serializers=[EntrantSerializer, PlayersCreatedSerializer],
    resource_type_field_name=None,
)


@extend_schema(
    methods=["GET"], summary="The tournament's players", tags=["tournaments"], parameters=[TOURNAMENT_ID],
    responses={200: EntrantSerializer(many=True), **READ_ERRORS},
)  # fmt: skip
@extend_schema(
    methods=["POST"], summary="Add a player, or import a CSV list", tags=["tournaments"],
    parameters=[TOURNAMENT_ID],
    description=(
        'JSON `{"name", "club", "rating"}` adds one player (201 `{"id", "name", "club", "rating", '
        '"status", "checked_in"}`); names are unique in a tournament, accents and capitals aside. '
        "`Content-Type: text/csv` with a header `name[,club][,rating]` imports "
        'a list (201 `{"created": [...]}`); any bad line is a 400 whose `errors` name each line '
        '(`"where": "line 7"`) and nothing is created.'
    ),
    request={"application/json": PlayerAddSerializer, "text/csv": _CSV},
    responses={201: _ADDED, **ERRORS},
)  # fmt: skip
@tournament_api(["GET", "POST"])
def players(request: Request, tournament_id: int) -> Response:
    """GET/POST /api/v1/tournaments/{id}/players/."""
    if request.method == "GET":
        tournament = tournament_for_user(request.user, tournament_id, Action.VIEW).tournament
        entrants = Entrant.objects.filter(tournament=tournament).order_by("name_key", "pk")
        return Response(EntrantSerializer(entrants, many=True).data)
    tournament = tournament_for_user(request.user, tournament_id, Action.RUN).tournament
    if isinstance(request.data, CsvText):
        created = services.import_entrants(tournament, str(request.data), actor=request.user)
        body = PlayersCreatedSerializer({"created": created}).data
        return Response(body, status=status.HTTP_201_CREATED)
    data = validated(PlayerAddSerializer, request)
    entrant = services.add_entrant(
        tournament, data["name"], club=data["club"], rating=data["rating"], actor=request.user
    )
    return Response(EntrantSerializer(entrant).data, status=status.HTTP_201_CREATED)


@extend_schema(
    summary="A player's record", tags=["tournaments"], parameters=[TOURNAMENT_ID, PLAYER_ID, IF_NONE_MATCH],
    description='Round by round (table, seat, total), hole by hole. Answers the player\'s ETag '
    '(`"player-<id>-v<tournament version>"`), the If-Match of their check-in, drop and reinstatement.',
    responses={200: PlayerRecordSerializer, **NOT_MODIFIED, **READ_ERRORS},
)  # fmt: skip
@tournament_api(["GET"])
def player_detail(request: Request, tournament_id: int, player_id: int) -> Response:
    """GET /api/v1/tournaments/{id}/players/{player_id}/."""
    grant = tournament_for_user(request.user, tournament_id, Action.VIEW)
    tournament = grant.tournament
    entrant = services.entrant_in(tournament, player_id)
    tag = player_etag(entrant.pk, tournament_version(tournament.pk))
    if (unchanged := not_modified_answer(request, tag)) is not None:
        return unchanged
    rounds = [r for r in player_record(entrant) if grant.shows_seating(r.status)]
    return tagged(Response(PlayerRecordSerializer({"player": entrant, "rounds": rounds}).data), tag)


def _status_view(change: str) -> Any:
    """A POST view changing one player's status (`drop`, `withdraw`, `reinstate`)."""

    @extend_schema(
        summary={
            "drop": "Drop a player",
            "withdraw": "Withdraw a player",
            "reinstate": "Reinstate a player",
        }[change],
        description={
            "drop": 'Out of the rounds not yet seated; the rounds played stay. 200 `{"status": "dropped"}`.',
            "withdraw": 'As a drop, marked withdrawn. 200 `{"status": "withdrawn"}`.',
            "reinstate": 'Back for the rounds not yet seated. 200 `{"status": "active"}`.',
        }[change],
        tags=["tournaments"],
        parameters=[TOURNAMENT_ID, PLAYER_ID, _IF_MATCH],
        request=ReasonSerializer,
        responses={200: StatusSerializer, **ERRORS, **PRECONDITION_FAILED},
    )
    @tournament_api(["POST"])
    def view(request: Request, tournament_id: int, player_id: int) -> Response:
        tournament = tournament_for_user(request.user, tournament_id, Action.RUN).tournament
        expected = _expected(request, player_id, tournament_version(tournament.pk))
        reason = validated(ReasonSerializer, request)["reason"]
        if change == "reinstate":
            entrant = services.reinstate_entrant(
                tournament, player_id, actor=request.user, expected_version=expected
            )
        else:
            wanted = EntrantStatus.DROPPED if change == "drop" else EntrantStatus.WITHDRAWN
            entrant = services.drop_entrant(
                tournament,
                player_id,
                status=wanted,
                actor=request.user,
                reason=reason,
                expected_version=expected,
            )
        body = StatusSerializer({"status": entrant.status}).data
        return tagged(Response(body), player_etag(entrant.pk, tournament_version(tournament.pk)))

    view.__name__ = view.cls.__name__ = f"player_{change}"
    view.__doc__ = f"POST /api/v1/tournaments/{{id}}/players/{{player_id}}/{change}/."
    return view


player_drop = _status_view("drop")
player_withdraw = _status_view("withdraw")
player_reinstate = _status_view("reinstate")


@extend_schema(
    summary="Check a player in (or out)", tags=["tournaments"],
    parameters=[TOURNAMENT_ID, PLAYER_ID, _IF_MATCH],
    description='`{}` or `{"checked_in": true}` marks the player present; `{"checked_in": false}` undoes it.',
    request=CheckInSerializer, responses={200: EntrantSerializer, **ERRORS, **PRECONDITION_FAILED},
)  # fmt: skip
@tournament_api(["POST"])
def player_check_in(request: Request, tournament_id: int, player_id: int) -> Response:
    """POST /api/v1/tournaments/{id}/players/{player_id}/check-in/."""
    tournament = tournament_for_user(request.user, tournament_id, Action.RUN).tournament
    expected = _expected(request, player_id, tournament_version(tournament.pk))
    checked_in = validated(CheckInSerializer, request)["checked_in"]
    entrant = services.set_checked_in(
        tournament, player_id, checked_in, actor=request.user, expected_version=expected
    )
    return tagged(
        Response(EntrantSerializer(entrant).data), player_etag(entrant.pk, tournament_version(tournament.pk))
    )


@extend_schema(
    summary="Check in several players at once", tags=["tournaments"],
    operation_id="tournament_players_bulk_check_in",
    parameters=[TOURNAMENT_ID, if_match_parameter("the tournament", '"tournament-7-v42"')],
    description=(
        '`{"players": [7, 8, 9]}` checks in those players; `{"everyone": true}` every active player not '
        'yet checked in. All or nothing: a player not in the tournament is a 400, a dropped, withdrawn '
        "or disqualified one a 409 naming each, and nobody is checked in then. Players already checked in "
        'are listed under `already`. 200 `{"checked_in": [{"id", "name"}], "already": [...], "action": '
        "<event log entry id or null>}` with the tournament's new ETag. The players page undoes a bulk "
        "action for exactly the players it changed."
    ),
    request=BulkCheckInSerializer,
    responses={200: BulkCheckInAnswerSerializer, **ERRORS, **PRECONDITION_FAILED},
)  # fmt: skip
@tournament_api(["POST"])
def players_check_in(request: Request, tournament_id: int) -> Response:
    """POST /api/v1/tournaments/{id}/players/check-in/."""
    tournament = tournament_for_user(request.user, tournament_id, Action.RUN).tournament
    expected = expected_version(request, "tournament", tournament.pk, tournament_version(tournament.pk))
    data = validated(BulkCheckInSerializer, request)
    result = services.check_in_players(
        tournament, data["players"], everyone=data["everyone"], actor=request.user, expected_version=expected
    )
    return tagged(Response(BulkCheckInAnswerSerializer(result).data), tournament_etag(tournament))


def _expected(request: Request, player_id: int, version: int) -> int | None:
    """The tournament version the request's If-Match names for player `player_id` (None: none)."""
    return expected_version(request, "player", player_id, version)
