"""The live-games API's exports: CSV, JSON and the results summary of a game."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.text import slugify
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import exports, selectors
from scoring.models import Game

from ._common import (
    READ_ERRORS,
    READ_ONLY,
    TOKEN,
    token_api,
)
from .access import game_for_api
from .response_serializers import ResultsSerializer


def _filename(game: Game, extension: str) -> str:
    return f"golf-{slugify(game.title) or game.pk}.{extension}"


@extend_schema(
    summary="Export as CSV",
    description=(
        "Three sections separated by a blank line: the game, one row per player per hole, the totals."
    ),
    tags=["exports"],
    parameters=[TOKEN],
    responses={(200, "text/csv"): OpenApiTypes.STR, **READ_ERRORS},
)
@token_api(READ_ONLY)
def game_export_csv(request: Request, token: str) -> HttpResponse:
    """GET /api/v1/games/{token}/export.csv."""
    grant = game_for_api(request, token)
    game = grant.game
    response = HttpResponse(exports.game_as_csv(game), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(game, "csv")}"'
    return response


@extend_schema(
    summary="Export as JSON",
    description=(
        "players, scores and winner (as score-tracking apps import them), the ruleset, every hole and entry."
    ),
    tags=["exports"],
    parameters=[TOKEN],
    responses={200: OpenApiTypes.OBJECT, **READ_ERRORS},
)
@token_api(READ_ONLY)
def game_export_json(request: Request, token: str) -> Response:
    """GET /api/v1/games/{token}/export.json."""
    grant = game_for_api(request, token)
    game = grant.game
    return Response(
        exports.game_as_json(game),
        headers={"Content-Disposition": f'attachment; filename="{_filename(game, "json")}"'},
    )


@extend_schema(
    summary="Results summary",
    description=(
        "Per player: total_points (lower wins), holes_played, low_hole_score (holes with the low score)."
    ),
    tags=["exports"],
    parameters=[TOKEN],
    responses={200: ResultsSerializer, **READ_ERRORS},
)
@token_api(READ_ONLY)
def game_results(request: Request, token: str) -> Response:
    """GET /api/v1/games/{token}/results/."""
    grant = game_for_api(request, token)
    game = grant.game
    board = selectors.scoreboard(game)
    body = {
        "status": board.status,
        "winners": list(board.winners),
        "shared_victory": board.shared_victory,
        "ended_early": board.ended_early,
        "results": exports.results_summary(game, board),
    }
    return Response(ResultsSerializer(body).data)
