"""Tournaments as a whole: list and create, read and change settings, and the staff."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, QuerySet
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from golfclub.core.inputs import parse_int
from scoring.api.errors import validated
from tournaments import services
from tournaments.access import Action, roles_in, tournament_for_user, visible_tournaments
from tournaments.models import Staff, Tournament
from tournaments.services.seating_plans import plan_summary

from ._common import ERRORS, READ_ERRORS, STAFF_ID, TOURNAMENT_ID, tournament_api
from .request_serializers import StaffAddSerializer, TournamentCreateSerializer, TournamentUpdateSerializer
from .response_serializers import (
    StaffSerializer,
    TournamentListSerializer,
    TournamentSerializer,
)
from .versions import (
    IF_NONE_MATCH,
    NOT_MODIFIED,
    PRECONDITION_FAILED,
    expected_version,
    if_match_parameter,
    not_modified_answer,
    tagged,
    tournament_etag,
    tournament_version,
)

PAGE_SIZE = 50
_IF_MATCH = if_match_parameter("the tournament", '"tournament-7-v42"')
_PAGE = OpenApiParameter(
    "page", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False, description="From 1."
)


def with_counts(tournaments: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """`tournaments` with their director and counts (`player_count`, `round_count`), as
    TournamentSerializer reads them."""
    return tournaments.select_related("director").annotate(
        player_count=Count("entrants", distinct=True), round_count=Count("round_set", distinct=True)
    )


def _detail(tournament: Tournament, role: str | None) -> dict[str, Any]:
    """One tournament's answer; its seating plan for the staff, once made."""
    plan = plan_summary(tournament) if role is not None else None  # the staff's only
    if plan is not None:
        tournament.seating_plan_summary = plan
    return TournamentSerializer(tournament, context={"roles": {tournament.pk: role}}).data


@extend_schema(
    methods=["GET"], summary="Tournaments you may see", tags=["tournaments"], parameters=[_PAGE],
    operation_id="v1_tournaments_list",
    description=f"The public ones, and those you direct or help run; {PAGE_SIZE} a page, newest first.",
    responses={200: TournamentListSerializer, 400: ERRORS[400]},
)  # fmt: skip
@extend_schema(
    methods=["POST"], summary="Create a tournament", tags=["tournaments"], request=TournamentCreateSerializer,
    description="You become its director. Missing settings take their defaults (official ruleset, "
    "3 rounds, fewest_repeats, a random seed, the ruleset's tiebreak chain, live standings, public).",
    responses={201: TournamentSerializer, 400: ERRORS[400], 401: ERRORS[401], 422: ERRORS[422]},
)  # fmt: skip
@tournament_api(["GET", "POST"])
def tournaments(request: Request) -> Response:
    """GET/POST /api/v1/tournaments/."""
    if request.method == "POST":
        data = dict(validated(TournamentCreateSerializer, request))
        created = services.create_tournament(director=request.user, **data)
        created = with_counts(Tournament.objects.filter(pk=created.pk)).get()
        body = TournamentSerializer(created, context={"roles": {created.pk: "director"}}).data
        location = request.build_absolute_uri(reverse("api-tournament", args=[created.pk]))
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": location})
    page = parse_int(request.query_params.get("page", "1"), "page", minimum=1, maximum=10**6)
    visible = visible_tournaments(request.user)
    count = visible.count()
    rows = list(
        with_counts(Tournament.objects.filter(pk__in=visible.values("pk"))).order_by("-date", "-pk")[
            (page - 1) * PAGE_SIZE : page * PAGE_SIZE
        ]
    )
    base = request.build_absolute_uri(request.path)
    page_of_rows = {
        "count": count,
        "next": f"{base}?page={page + 1}" if page * PAGE_SIZE < count else None,
        "previous": f"{base}?page={page - 1}" if page > 1 else None,
        "results": rows,
    }
    context = {"roles": roles_in(request.user, rows)}
    return Response(TournamentListSerializer(page_of_rows, context=context).data)


@extend_schema(
    methods=["GET"], summary="A tournament", tags=["tournaments"], parameters=[TOURNAMENT_ID, IF_NONE_MATCH],
    description='Answers its ETag (`"tournament-<id>-v<version>"`); the version moves with every change '
    "of the event (settings, players, seating, each hole).",
    responses={200: TournamentSerializer, **NOT_MODIFIED, **READ_ERRORS},
)  # fmt: skip
@extend_schema(
    methods=["PATCH"], summary="Change a tournament's settings", tags=["tournaments"],
    parameters=[TOURNAMENT_ID, _IF_MATCH],
    description="Directors only. The ruleset and seed are frozen once round 1 is seated (409). "
    "Answers the new ETag.",
    request=TournamentUpdateSerializer,
    responses={200: TournamentSerializer, **ERRORS, **PRECONDITION_FAILED},
)  # fmt: skip
@tournament_api(["GET", "PATCH"])
def tournament_detail(request: Request, tournament_id: int) -> Response:
    """GET/PATCH /api/v1/tournaments/{id}/."""
    action = Action.VIEW if request.method == "GET" else Action.RUN
    grant = tournament_for_user(request.user, tournament_id, action)
    tournament = grant.tournament
    if request.method == "PATCH":
        expected = expected_version(request, "tournament", tournament.pk, tournament_version(tournament.pk))
        changes = dict(validated(TournamentUpdateSerializer, request))
        services.update_tournament(tournament, actor=request.user, expected_version=expected, **changes)
    elif (unchanged := not_modified_answer(request, tournament_etag(tournament))) is not None:
        return unchanged
    tournament = with_counts(Tournament.objects.filter(pk=tournament.pk)).get()
    body = _detail(tournament, grant.role)
    return tagged(Response(body), tournament_etag(tournament))


@extend_schema(
    methods=["GET"], summary="The tournament's staff", tags=["tournaments"], parameters=[TOURNAMENT_ID],
    responses={200: StaffSerializer(many=True), **ERRORS},
)  # fmt: skip
@extend_schema(
    methods=["POST"], summary="Add a co-director or an official", tags=["tournaments"],
    parameters=[TOURNAMENT_ID],
    description="The director only, by username; an existing staff member's role changes.",
    request=StaffAddSerializer, responses={201: StaffSerializer, **ERRORS},
)  # fmt: skip
@tournament_api(["GET", "POST"])
def staff(request: Request, tournament_id: int) -> Response:
    """GET/POST /api/v1/tournaments/{id}/staff/."""
    action = Action.SEE_LIVE if request.method == "GET" else Action.STAFF
    tournament = tournament_for_user(request.user, tournament_id, action).tournament
    if request.method == "POST":
        data = validated(StaffAddSerializer, request)
        member = services.add_staff(tournament, data["username"], data["role"], actor=request.user)
        return Response(StaffSerializer(member).data, status=status.HTTP_201_CREATED)
    members = (
        Staff.objects.filter(tournament=tournament).select_related("user").order_by("role", "user__username")
    )
    return Response(StaffSerializer(members, many=True).data)


@extend_schema(
    summary="Remove a co-director or an official", tags=["tournaments"], parameters=[TOURNAMENT_ID, STAFF_ID],
    responses={204: None, **ERRORS},
)  # fmt: skip
@tournament_api(["DELETE"])
def staff_member(request: Request, tournament_id: int, staff_id: int) -> Response:
    """DELETE /api/v1/tournaments/{id}/staff/{staff_id}/ (the director only)."""
    tournament = tournament_for_user(request.user, tournament_id, Action.STAFF).tournament
    services.remove_staff(tournament, staff_id, actor=request.user)
    return Response(status=status.HTTP_204_NO_CONTENT)
