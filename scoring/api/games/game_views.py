"""The live-games API on games themselves: the owner's list, starting a game, reading, renaming or
re-ruling and deleting one (`/api/v1/games/`, `/api/v1/games/{token}/`)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import game_links, selectors, services
from scoring.access import Capability
from scoring.api.errors import ErrorSerializer, validated

from ._common import (
    ERRORS,
    KEY_REUSED,
    READ_ERRORS,
    TOKEN,
    actor_of,
    session_api,
    token_api,
)
from .access import game_for_api, require_login
from .request_serializers import GameCreateSerializer, GameUpdateSerializer
from .response_serializers import GameSerializer


@extend_schema(
    methods=["GET"],
    summary="Your games",
    description="The games the logged-in user created (session login), most recent first.",
    tags=["games"],
    responses={
        200: GameSerializer(many=True),
        403: OpenApiResponse(ErrorSerializer, description="Not logged in."),
    },
)
@extend_schema(
    methods=["POST"],
    summary="Start a game",
    description=(
        "Creates a game and answers its edit token and links. Keep the edit link: anyone holding it "
        "can score; share the view link for read-only access. A logged-in creator is recorded as owner. "
        "A club's owner may start a club game: `club` (its id) and `members` (per seat, a member's id "
        "or null for a guest); 400 names `club`, `members` or `members[n]`, a private club of someone "
        "else is a 404, a club you may see but do not own a 403, and nothing is written."
    ),
    tags=["games"],
    request=GameCreateSerializer,
    responses={
        201: GameSerializer,
        400: ERRORS[400],
        403: OpenApiResponse(ErrorSerializer, description="A club you may see but do not own."),
        404: OpenApiResponse(ErrorSerializer, description="No such club, or a private club of another."),
        **KEY_REUSED,
    },
)
@session_api(["GET", "POST"])
def games(request: Request) -> Response:
    """GET /api/v1/games/ (owner's list) and POST /api/v1/games/ (new game)."""
    if request.method == "GET":
        require_login(request, _("Log in to list your games; a game's own link works without an account."))
        owned = selectors.games_for_user(request.user)[:200]
        context = {"request": request, "can_edit": True}
        return Response(GameSerializer(owned, many=True, context=context).data)
    data = validated(GameCreateSerializer, request)
    # What another app links to the game (a club's members) is checked before anything is written
    # and written with the game, in its transaction.
    link = game_links.link_for(request.user, data["players"], data)
    game = services.create_game(
        players=data["players"],
        ruleset=data["ruleset"],
        first_dealer=data["first_dealer"],
        owner=request.user,
        title=data["title"],
        followed_by=link.followed_by if link else "",
        after_create=[link.write] if link else (),
    )
    body = GameSerializer(game, context={"request": request, "can_edit": True}).data
    return Response(body, status=status.HTTP_201_CREATED, headers={"Location": body["links"]["self"]})


@extend_schema(
    methods=["GET"],
    summary="A game",
    tags=["games"],
    parameters=[TOKEN],
    responses={200: GameSerializer, **READ_ERRORS},
)
@extend_schema(
    methods=["PATCH"],
    summary="Rename a game or change its ruleset",
    description="The ruleset can change only until the first hole is recorded (seed 001): then 409.",
    tags=["games"],
    parameters=[TOKEN],
    request=GameUpdateSerializer,
    responses={200: GameSerializer, **ERRORS},
)
@extend_schema(
    methods=["DELETE"],
    summary="Delete a game",
    tags=["games"],
    parameters=[TOKEN],
    responses={204: None, **ERRORS},
)
@token_api(["GET", "PATCH", "DELETE"])
def game_detail(request: Request, token: str) -> Response:
    """GET/PATCH/DELETE /api/v1/games/{token}/."""
    grant = game_for_api(request, token, writes=Capability.MANAGE)
    game = grant.game
    if request.method == "DELETE":
        services.delete_game(game, capabilities=grant.capabilities)
        return Response(status=status.HTTP_204_NO_CONTENT)
    if request.method == "PATCH":
        data = validated(GameUpdateSerializer, request)
        services.update_game(
            game,
            title=data.get("title"),
            ruleset=data.get("ruleset"),
            actor=actor_of(request),
            capabilities=grant.capabilities,
        )
    context = {"request": request, "can_edit": grant.can_score, "token": grant.token}
    return Response(GameSerializer(game, context=context).data)
