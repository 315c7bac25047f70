"""The live-games API on the match as a whole: the scoreboard (ETag polling), the history of
changes, undo and redo."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import selectors, services
from scoring.access import Capability, GameGrant
from scoring.api.errors import validated
from scoring.api.write_once import call_once

from . import concurrency
from ._common import (
    ERRORS,
    KEY_REUSED,
    READ_ERRORS,
    READ_ONLY,
    TOKEN,
    actor_of,
    token_api,
)
from .access import game_for_api
from .request_serializers import UndoSerializer
from .response_serializers import HistoryLineSerializer, ScoreboardSerializer


@extend_schema(
    summary="The scoreboard",
    description=(
        "Totals, every hole, playoff holes, leaders, the outcome with tiebreaks, the next hole with its "
        'dealer and first player, and running totals for a chart. ETag "game-<id>-v<version>": poll with '
        "If-None-Match to get 304 while nothing changed."
    ),
    tags=["games"],
    parameters=[TOKEN, concurrency.IF_NONE_MATCH],
    responses={200: ScoreboardSerializer, 304: OpenApiResponse(description="Not modified."), **READ_ERRORS},
)
@token_api(READ_ONLY)
def game_scoreboard(request: Request, token: str) -> Response:
    """GET /api/v1/games/{token}/scoreboard/."""
    grant = game_for_api(request, token)
    game = grant.game
    tag = concurrency.etag("game", game.pk, game.version)
    if (unchanged := concurrency.not_modified(request, tag)) is not None:
        return unchanged
    board = selectors.scoreboard(game)
    return Response(ScoreboardSerializer(board).data, headers={"ETag": tag})


@extend_schema(
    summary="History of changes",
    description="Every change, newest first: who, when, the hole before and after.",
    tags=["games"],
    parameters=[TOKEN],
    responses={200: HistoryLineSerializer(many=True), **READ_ERRORS},
)
@token_api(READ_ONLY)
def game_history(request: Request, token: str) -> Response:
    """GET /api/v1/games/{token}/history/."""
    grant = game_for_api(request, token)
    lines = selectors.game_history(grant.game)
    return Response(HistoryLineSerializer(lines, many=True).data)


def _change_schema(*, summary: str, description: str) -> Any:
    """The OpenAPI description of undo and redo: the same request and answers, their own words."""
    return extend_schema(
        summary=summary,
        description=description,
        tags=["games"],
        parameters=[TOKEN],
        request=UndoSerializer,
        responses={200: HistoryLineSerializer, **ERRORS, **KEY_REUSED},
    )


@_change_schema(
    summary="Undo the last change",
    description=(
        "Reverts the latest change not yet undone (recorded as a change itself). The body names that "
        "change (`change`: the scoreboard's `undo.id`), so that a retried or resent undo answers 409 "
        "instead of undoing one more. 409 too when nothing is left to undo. An optional `reason` is "
        "kept in the history; a managed game's manager may refuse the undo at the table (409) or ask "
        "an official for a reason (400 naming `reason`)."
    ),
)
@token_api(["POST"])
def game_undo(request: Request, token: str) -> Response:
    """POST /api/v1/games/{token}/undo/."""
    grant = game_for_api(request, token, writes=Capability.SCORE)
    return call_once(request, _undo_or_redo, (grant, services.undo_last_change), {})


@_change_schema(
    summary="Redo what the last undo reverted",
    description=(
        "Applies again the change the latest undo reverted, until a new hole is recorded, edited or "
        "deleted. The body names that undo (`change`: the scoreboard's `redo.id`); a repeat answers 409. "
        "An optional `reason` is kept in the history, as for undo."
    ),
)
@token_api(["POST"])
def game_redo(request: Request, token: str) -> Response:
    """POST /api/v1/games/{token}/redo/."""
    grant = game_for_api(request, token, writes=Capability.SCORE)
    return call_once(request, _undo_or_redo, (grant, services.redo_change), {})


def _undo_or_redo(request: Request, grant: GameGrant, service: Callable[..., Any]) -> Response:
    game = grant.game
    data = validated(UndoSerializer, request)
    change = service(
        game,
        actor=actor_of(request, data),
        expected_change=data["change"],
        capabilities=grant.capabilities,
        reason=data["reason"],
    )
    # This change by its id: by the time it is read, another client may have made a newer one.
    line = selectors.history_line(game, change.pk)
    return Response(HistoryLineSerializer(line).data)
