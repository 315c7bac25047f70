"""A tournament's rounds: seat the next one, read one (tables; links for the staff), swap two
players before publishing, publish, finalize, and clear a table's disagreement."""

from __future__ import annotations

from typing import Any

from django.db.models import Count
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api.errors import validated
from scoring.rules.errors import Problem
from tournaments import services
from tournaments.access import Action, require_seating, tournament_for_user
from tournaments.errors import NotFoundInTournament
from tournaments.live_versions import round_version
from tournaments.models import Round, Table, Tournament
from tournaments.web.selectors import seated_tables

from ._common import (
    ERRORS,
    READ_ERRORS,
    ROUND,
    TABLE,
    TOURNAMENT_ID,
    tournament_api,
)
from .request_serializers import ClearDisputeSerializer, EmptySerializer, FinalizeSerializer, SwapSerializer
from .response_serializers import RoundSerializer, RoundSummarySerializer, StatusSerializer, TableSerializer
from .versions import (
    IF_NONE_MATCH,
    NOT_MODIFIED,
    PRECONDITION_FAILED,
    expected_version,
    if_match_parameter,
    not_modified_answer,
    round_etag,
    tagged,
    tournament_version,
)

_IF_MATCH = if_match_parameter("the round", '"round-12-v5"')
_IF_MATCH_SEAT = if_match_parameter("the tournament", '"tournament-7-v42"')


def with_tables(round_: Round) -> Round:
    """`round_` with `tables_in_order`: its tables by number, each with its players in seat order, its
    game, its confirmer and its game's `progress`, as RoundSerializer reads them (the three queries of
    `tournaments.web.selectors.seated_tables`, which the pages read the tables through too)."""
    seated = seated_tables(round_)
    for each in seated:
        each.table.progress = each.progress
    round_.tables_in_order = [each.table for each in seated]
    return round_


def _round_answer(round_: Round, *, staff: bool) -> dict[str, Any]:
    """RoundSerializer's answer: the tables' game tokens only for `staff` (those who may see the
    event live): the public never sees an edit link."""
    return RoundSerializer(with_tables(round_), context={"staff": staff}).data


def _round(tournament: Tournament, number: int) -> Round:
    return services.round_in(tournament, number)


@extend_schema(
    methods=["GET"], summary="The rounds seated so far", tags=["tournaments"], parameters=[TOURNAMENT_ID],
    responses={200: RoundSummarySerializer(many=True), **READ_ERRORS},
)  # fmt: skip
@extend_schema(
    methods=["POST"], summary="Seat the next round", tags=["tournaments"],
    parameters=[TOURNAMENT_ID, _IF_MATCH_SEAT],
    description=(
        "Seats every active player (round 1 at random from the seed; later rounds by the event's "
        "seating mode) at tables of 4, the rest of 3, each table a live game. 409 while a round is "
        "not finalized or when every round is seated. If-Match names the tournament as read; the "
        "answer carries the new round's ETag."
    ),
    request=EmptySerializer, responses={201: RoundSerializer, **ERRORS, **PRECONDITION_FAILED},
)  # fmt: skip
@tournament_api(["GET", "POST"])
def rounds(request: Request, tournament_id: int) -> Response:
    """GET/POST /api/v1/tournaments/{id}/rounds/."""
    if request.method == "GET":
        tournament = tournament_for_user(request.user, tournament_id, Action.VIEW).tournament
        rows = (
            Round.objects.filter(tournament=tournament)
            .annotate(table_count=Count("tables"))
            .order_by("number")
        )
        return Response(RoundSummarySerializer(rows, many=True).data)
    tournament = tournament_for_user(request.user, tournament_id, Action.RUN).tournament
    expected = expected_version(request, "tournament", tournament.pk, tournament_version(tournament.pk))
    validated(EmptySerializer, request)
    round_ = services.seat_next_round(tournament, actor=request.user, expected_version=expected)
    body = _round_answer(round_, staff=True)
    return tagged(Response(body, status=status.HTTP_201_CREATED), round_etag(round_))


@extend_schema(
    summary="A round and its tables", tags=["tournaments"], parameters=[TOURNAMENT_ID, ROUND, IF_NONE_MATCH],
    description="The tables' game links (`game`) are shown to the event's staff only. A round seated "
    "but not yet published is the staff's only: 404 to everyone else, as its printout. Answers the "
    'round\'s ETag (`"round-<id>-v<version>"`, moving with its seating, state, holes and confirmations).',
    responses={200: RoundSerializer, **NOT_MODIFIED, **READ_ERRORS},
)  # fmt: skip
@tournament_api(["GET"])
def round_detail(request: Request, tournament_id: int, number: int) -> Response:
    """GET /api/v1/tournaments/{id}/rounds/{n}/."""
    grant = tournament_for_user(request.user, tournament_id, Action.VIEW)
    round_ = _round(grant.tournament, number)
    require_seating(grant, round_.status, round_.number)
    tag = round_etag(round_)
    if (unchanged := not_modified_answer(request, tag)) is not None:
        return unchanged
    return tagged(Response(_round_answer(round_, staff=grant.is_staff)), tag)


def _expected(request: Request, tournament: Tournament, number: int) -> int | None:
    """The round version the request's If-Match names (None: none), checked by the service under
    the round's lock; a round that does not exist is a 404 first."""
    if not request.headers.get("If-Match", "").strip():
        return None
    round_ = _round(tournament, number)
    return expected_version(request, "round", round_.pk, round_version(round_))


@extend_schema(
    summary="Publish a round", tags=["tournaments"], parameters=[TOURNAMENT_ID, ROUND, _IF_MATCH],
    description="The tables may now score. Publishing again changes nothing. Answers the round's new ETag.",
    request=EmptySerializer, responses={200: StatusSerializer, **ERRORS, **PRECONDITION_FAILED},
)  # fmt: skip
@tournament_api(["POST"])
def round_publish(request: Request, tournament_id: int, number: int) -> Response:
    """POST /api/v1/tournaments/{id}/rounds/{n}/publish/."""
    tournament = tournament_for_user(request.user, tournament_id, Action.RUN).tournament
    expected = _expected(request, tournament, number)
    validated(EmptySerializer, request)
    round_ = services.publish_round(tournament, number, actor=request.user, expected_version=expected)
    return tagged(Response(StatusSerializer({"status": round_.status}).data), round_etag(round_))


@extend_schema(
    summary="Finalize a round", tags=["tournaments"], parameters=[TOURNAMENT_ID, ROUND, _IF_MATCH],
    description=(
        'Locks the round when every table\'s game is over and confirmed: 200 `{"status": "finalized"}`; '
        "else 409 naming the tables. `override` (with a reason, recorded) finalizes finished but "
        "unconfirmed or disputed tables; unfinished ones always stop it."
    ),
    request=FinalizeSerializer, responses={200: StatusSerializer, **ERRORS, **PRECONDITION_FAILED},
)  # fmt: skip
@tournament_api(["POST"])
def round_finalize(request: Request, tournament_id: int, number: int) -> Response:
    """POST /api/v1/tournaments/{id}/rounds/{n}/finalize/."""
    tournament = tournament_for_user(request.user, tournament_id, Action.RUN).tournament
    expected = _expected(request, tournament, number)
    data = validated(FinalizeSerializer, request)
    if data["override"]:  # the SPEC: override is the director's alone
        tournament_for_user(request.user, tournament_id, Action.OVERRIDE)
    round_ = services.finalize_round(
        tournament,
        number,
        override=data["override"],
        reason=data["reason"],
        actor=request.user,
        expected_version=expected,
    )
    return tagged(Response(StatusSerializer({"status": round_.status}).data), round_etag(round_))


@extend_schema(
    summary="Swap two players before publishing", tags=["tournaments"],
    parameters=[TOURNAMENT_ID, ROUND, _IF_MATCH],
    description='`{"players": [id, id], "reason": "..."}`: their seats are exchanged; the reason is kept.',
    request=SwapSerializer, responses={200: RoundSerializer, **ERRORS, **PRECONDITION_FAILED},
)  # fmt: skip
@tournament_api(["POST"])
def round_swap(request: Request, tournament_id: int, number: int) -> Response:
    """POST /api/v1/tournaments/{id}/rounds/{n}/swap/."""
    tournament = tournament_for_user(request.user, tournament_id, Action.RUN).tournament
    expected = _expected(request, tournament, number)
    data = validated(SwapSerializer, request)
    first, second = data["players"]
    round_ = services.swap_players(
        tournament,
        number,
        first,
        second,
        reason=data["reason"],
        actor=request.user,
        expected_version=expected,
    )
    return tagged(Response(_round_answer(round_, staff=True)), round_etag(round_))


@extend_schema(
    summary="Clear a table's disagreement", tags=["tournaments"], parameters=[TOURNAMENT_ID, ROUND, TABLE],
    description="The director has settled it: the players can confirm the scorecard again.",
    request=ClearDisputeSerializer, responses={200: TableSerializer, **ERRORS},
)  # fmt: skip
@tournament_api(["POST"])
def table_clear_dispute(request: Request, tournament_id: int, number: int, table: int) -> Response:
    """POST /api/v1/tournaments/{id}/rounds/{n}/tables/{t}/clear-dispute/."""
    tournament = tournament_for_user(request.user, tournament_id, Action.RUN).tournament
    note = validated(ClearDisputeSerializer, request)["note"]
    round_ = _round(tournament, number)
    found = Table.objects.filter(round=round_, number=table).first() if table < 2**15 else None
    if found is None:
        raise NotFoundInTournament(_no_table(number, table))
    services.clear_dispute(found, note=note, actor=request.user)
    table_read = next(t for t in with_tables(round_).tables_in_order if t.number == found.number)
    return Response(TableSerializer(table_read, context={"staff": True}).data)


def _no_table(number: int, table: int) -> Problem:
    return Problem("table", _("Round %(n)s has no table %(t)s.") % {"n": number, "t": table})
