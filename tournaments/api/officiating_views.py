"""Officiating API (SPEC "Tournament API contract", penalties; "Rulings API contract"):

- `GET /api/v1/rulings/situations/`: the catalogue, with the facts each situation asks;
- `POST /api/v1/rulings/advise/`: a situation and its facts, the official answer, and for a player
  of an event the penalty step rule 6.3's ladder gives now;
- `GET|POST /api/v1/tournaments/{id}/penalties/`: the ledger (staff) and a new penalty (officials,
  co-directors and the director);
- `POST /api/v1/tournaments/{id}/penalties/{penalty_id}/rescind/`: on appeal, with a reason
  (the director and co-directors);
- `GET|POST /api/v1/tournaments/{id}/rulings/`: the rulings log (as the director set it) and a
  ruling recorded with the penalty it carries (officials, co-directors and the director).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api.errors import validated
from scoring.rules.errors import Problem
from tournaments.access import Action, tournament_for_user
from tournaments.errors import TournamentError
from tournaments.officiating.advice import Advice, advise
from tournaments.officiating.catalogue import SITUATIONS
from tournaments.officiating.ladder import Rung
from tournaments.services import penalties as ledger
from tournaments.services import rulings as ledger_rulings
from tournaments.web.officiating_selectors import ledger as ledger_of
from tournaments.web.officiating_selectors import rulings_log

from ._common import ERRORS, TOURNAMENT_ID, tournament_api
from .officiating_answers import (
    AdviceSerializer,
    PenaltiesSerializer,
    PenaltyAnswerSerializer,
    RulingAnswerSerializer,
    RulingsSerializer,
    SituationsSerializer,
)
from .officiating_serializers import AdviseSerializer, PenaltySerializer, RescindSerializer, RulingSerializer

_PENALTY_ID = OpenApiParameter(
    "penalty_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The penalty."
)


@extend_schema(
    summary="The rulings catalogue", tags=["rulings"], auth=[],
    description="Every situation the app answers from the official reference, the sections it rests "
    "on and the facts that decide it (`boolean` or `integer`).",
    responses={200: SituationsSerializer},
)  # fmt: skip
@tournament_api(["GET"])
def situations(request: Request) -> Response:
    """GET /api/v1/rulings/situations/."""
    return Response(SituationsSerializer({"situations": SITUATIONS}).data)


def advice_and_step(request: Request, data: dict[str, Any]) -> tuple[Advice, Rung | None]:
    """The advice for the body's situation and facts, and the ladder's step for its `player` in its
    `tournament` when both are named and the situation is an offence."""
    advice = advise(data["situation"], data["facts"])
    tournament_id, player = data["tournament"], data["player"]
    if tournament_id is None and player is None:
        return advice, None
    if tournament_id is None:
        raise TournamentError(Problem("tournament", _("With a player, name the tournament by its id.")))
    tournament = tournament_for_user(request.user, tournament_id, Action.VIEW).tournament
    if player is None:
        return advice, None
    entrant = ledger.player_of(tournament, player)
    if advice.offence is None:
        return advice, None
    rung = ledger.proposed_rung(tournament, entrant.pk, advice.offence, seconds_over=advice.seconds_over)
    return advice, rung


@extend_schema(
    summary="Advise on a situation", tags=["rulings"],
    description='`{"situation": "took_discard_then_discarded", "facts": {"next_turn_begun": false}, '
    '"tournament": 3, "player": 7}` (the last two optional): the ruling, the sections cited, the '
    "correction to make, the offence (if any) and, for a player of an event, the penalty step rule "
    "6.3's ladder gives from their earlier offences. Missing or unknown facts: 400 naming them.",
    request=AdviseSerializer, responses={200: AdviceSerializer, **ERRORS},
)  # fmt: skip
@tournament_api(["POST"], open_posts=True)
def advise_view(request: Request) -> Response:
    """POST /api/v1/rulings/advise/ (anyone may ask; a private event's players need its staff)."""
    advice, step = advice_and_step(request, validated(AdviseSerializer, request))
    return Response(AdviceSerializer(advice, context={"step": step}).data)


@extend_schema(
    methods=["GET"],
    summary="The penalty ledger",
    tags=["officiating"],
    parameters=[TOURNAMENT_ID],
    description="Every penalty of the event, newest first, rescinded ones marked (staff).",
    responses={
        200: PenaltiesSerializer,
        **ERRORS,
    },
)
@extend_schema(
    methods=["POST"], summary="Give a penalty", tags=["officiating"], parameters=[TOURNAMENT_ID],
    description='`{"player": 7, "round": 2, "offence": "illegal_move", "note": ""}`; `offence`: '
    "`illegal_move`, `cheating`, `unsportsmanlike`, `time` (with `seconds_over`). The step follows "
    "rule 6.3's ladder from the player's earlier, unrescinded offences of that kind, unless `step` "
    "(`warning`, `points`, `round_dq`, `event_dq`) names the official's decision. 201 with the entry.",
    request=PenaltySerializer, responses={201: PenaltyAnswerSerializer, **ERRORS},
)  # fmt: skip
@tournament_api(["GET", "POST"])
def penalties(request: Request, tournament_id: int) -> Response:
    """GET|POST /api/v1/tournaments/{id}/penalties/."""
    if request.method == "GET":
        tournament = tournament_for_user(request.user, tournament_id, Action.SEE_LIVE).tournament
        return Response(PenaltiesSerializer({"penalties": ledger_of(tournament, limit=None)}).data)
    tournament = tournament_for_user(request.user, tournament_id, Action.OFFICIATE).tournament
    data = validated(PenaltySerializer, request)
    penalty = ledger.give_penalty(
        tournament,
        player=data["player"],
        offence=data["offence"],
        round_number=data["round"],
        step=data["step"],
        seconds_over=data["seconds_over"],
        note=data["note"],
        actor=request.user,
    )
    return Response(PenaltyAnswerSerializer(penalty).data, status=201)


@extend_schema(
    summary="Rescind a penalty", tags=["officiating"], parameters=[TOURNAMENT_ID, _PENALTY_ID],
    description='On appeal: `{"reason": "appeal upheld"}` (required). The entry stays, marked rescinded; '
    "the standings follow. Rescinding twice: 409.",
    request=RescindSerializer, responses={200: PenaltyAnswerSerializer, **ERRORS},
)  # fmt: skip
@tournament_api(["POST"])
def penalty_rescind(request: Request, tournament_id: int, penalty_id: int) -> Response:
    """POST /api/v1/tournaments/{id}/penalties/{penalty_id}/rescind/."""
    tournament = tournament_for_user(request.user, tournament_id, Action.RUN).tournament
    data = validated(RescindSerializer, request)
    penalty = ledger.rescind_penalty(tournament, penalty_id, reason=data["reason"], actor=request.user)
    return Response(PenaltyAnswerSerializer(penalty).data)


@extend_schema(
    methods=["GET"],
    summary="The rulings log",
    tags=["officiating"],
    parameters=[TOURNAMENT_ID],
    description="Every ruling recorded at the event, newest first, with the penalty each carried: the "
    "staff's, and everybody's who sees the event when the director made the log public. Each entry "
    "has `situation_title` (the situation in words) and `outcome` (what was decided, in words: the "
    "penalty actually given, with the official's choice and any rescinding); `ruling` and "
    "`correction` are the catalogue's answer, which `changed_by_official: true` marks as changed.",
    responses={200: RulingsSerializer, **ERRORS},
)
@extend_schema(
    methods=["POST"], summary="Record a ruling", tags=["officiating"], parameters=[TOURNAMENT_ID],
    description="Advise's body (`situation`, `facts`, `player`) plus `round`, `table`, `hole`, `note` "
    "(and an official's `step`): 201 with the ruling as the catalogue answers it and, for an offence, "
    "the penalty entry it carries (as `POST .../penalties/`), written together.",
    request=RulingSerializer, responses={201: RulingAnswerSerializer, **ERRORS},
)  # fmt: skip
@tournament_api(["GET", "POST"])
def rulings(request: Request, tournament_id: int) -> Response:
    """GET|POST /api/v1/tournaments/{id}/rulings/."""
    if request.method == "GET":
        tournament = tournament_for_user(request.user, tournament_id, Action.READ_RULINGS).tournament
        return Response(RulingsSerializer({"rulings": rulings_log(tournament)}).data)
    tournament = tournament_for_user(request.user, tournament_id, Action.OFFICIATE).tournament
    data = validated(RulingSerializer, request)
    ruling = ledger_rulings.record_ruling(
        tournament,
        situation=data["situation"],
        facts=data["facts"],
        player=data["player"],
        round_number=data["round"],
        table=data["table"],
        hole=data["hole"],
        step=data["step"],
        note=data["note"],
        actor=request.user,
    )
    return Response(RulingAnswerSerializer(ruling).data, status=201)
