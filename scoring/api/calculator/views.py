"""The rules engine over HTTP: score a grid, score a hole, list the rulesets.

Stateless and public: no authentication (so no CSRF check applies to outside callers), no database.
Each view checks the JSON shape with a serializer, hands everything else to `scoring.rules`, and
answers the engine's result as JSON. Bad input of any kind is a 400 in the shape of
`scoring.api.errors` (the engine's `RulesError` and DRF's errors both end up there).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.decorators import api_view, authentication_classes, parser_classes, permission_classes
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from golfclub.core.errors import answered_body
from golfclub.core.parsers import SCORING_PARSERS
from scoring.api.errors import ErrorSerializer, validated
from scoring.api.write_once import SAFE_TO_REPEAT, safe_to_repeat
from scoring.rules import (
    PARAMETERS,
    PRESETS,
    Grid,
    PlayerEntry,
    Problem,
    RulesError,
    Ruleset,
    parse_grid,
    resolve_ruleset,
)
from scoring.rules import score_grid as engine_score_grid
from scoring.rules import score_hole as engine_score_hole

from .request_serializers import HoleRequestSerializer, ScoreRequestSerializer
from .response_serializers import (
    HoleResponseSerializer,
    RulesetListSerializer,
    RulesetSerializer,
    ScoreResponseSerializer,
)

T = TypeVar("T")


def _score_answer(grid: Grid, ruleset: Ruleset, players: int | None = None) -> dict[str, Any]:
    """The score endpoint's answer: the engine's breakdown plus the resolved ruleset.

    The engine's own dicts (`to_dict`, pure Python) are the bodies of the calculator's answers;
    their serializers (`response_serializers`) are the schema, and
    tests/api/test_calculator_answers.py holds each answer equal to its serializer's rendering."""
    return {**engine_score_grid(grid, ruleset, players=players).to_dict(), "ruleset": ruleset.to_dict()}


def _hole_answer(entries: list[PlayerEntry], ruleset: Ruleset, ender: str | None) -> dict[str, Any]:
    """The score-hole endpoint's answer: every player's hole plus the resolved ruleset."""
    return {**engine_score_hole(entries, ruleset, ender=ender).to_dict(), "ruleset": ruleset.to_dict()}


def _error_answer(check: Callable[..., Any], *args: Any) -> dict[str, Any]:
    """The 400 answer to input that `check` refuses."""
    try:
        check(*args)
    except RulesError as error:
        return answered_body(error)
    raise AssertionError(f"{check.__name__}{args} was expected to fail")


# The documented answers are computed by the engine itself, so the docs cannot drift from it.
_SCORE_EXAMPLE = {"ruleset": "official", "grid": [["Q", "7", "K"], ["Q", "7", "3"]]}
_HOLE_EXAMPLE = {
    "ruleset": {"preset": "official", "ender_penalty": {"kind": "fixed", "points": 10}},
    "grids": {"ann": [["9", "K", "Q"], ["A", "K", "Q"]], "bob": [["3", "J", "5"], ["K", "J", "5"]]},
    "ender": "ann",
}
_SCORE_OK = OpenApiResponse(
    ScoreResponseSerializer,
    description="The total, every match and card with the rule applied, and the resolved ruleset.",
    examples=[
        OpenApiExample(
            "Official preset",
            value=_score_answer(parse_grid(_SCORE_EXAMPLE["grid"]), PRESETS["official"]),
            response_only=True,
        )
    ],
)
_HOLE_OK = OpenApiResponse(
    HoleResponseSerializer,
    description="Every player in seat order: grid score, adjustments with their reasons, hole score.",
    examples=[
        OpenApiExample(
            "Fixed ender penalty",
            value=_hole_answer(
                [PlayerEntry(name, grid=grid) for name, grid in _HOLE_EXAMPLE["grids"].items()],
                resolve_ruleset(_HOLE_EXAMPLE["ruleset"]),
                "ann",
            ),
            response_only=True,
        )
    ],
)


_BAD_INPUT = OpenApiResponse(
    ErrorSerializer,
    description="Bad input: every problem, each with where it is (card position, parameter, key).",
    examples=[
        OpenApiExample("Unknown card", value=_error_answer(parse_grid, [["Q", "7", "1Z"], ["Q", "7", "3"]])),
        OpenApiExample(
            "Bad ruleset parameter",
            value=_error_answer(resolve_ruleset, {"preset": "official", "jokers": 5, "hole_end": "never"}),
        ),
    ],
)


class _Problems:
    """Collects the engine's problems from several independent checks, so one answer names them all."""

    def __init__(self) -> None:
        self.found: list[Problem] = []

    def attempt(self, check: Callable[..., T], *args: Any) -> T | None:
        """Run one check; keep its problems and answer None when it fails."""
        try:
            return check(*args)
        except RulesError as error:
            self.found.extend(error.problems)
            return None

    def raise_any(self) -> None:
        """Raise one RulesError naming every problem kept."""
        if self.found:
            raise RulesError(self.found)


def _public_api(methods: list[str]) -> Callable[[Callable[..., Response]], Callable[..., Response]]:
    """@api_view for a public, stateless endpoint: no authentication (hence no CSRF), lenient JSON
    parsing; its POSTs compute only, so they are safe to repeat (`scoring.api.write_once`)."""

    def decorate(view: Callable[..., Response]) -> Callable[..., Response]:
        view = safe_to_repeat(view)  # computes only: an Idempotency-Key is checked, never needed
        view = parser_classes(SCORING_PARSERS)(view)
        view = permission_classes([AllowAny])(view)
        view = authentication_classes([])(view)
        api = api_view(methods)(view)
        posts = [method for method in methods if method == "POST"]
        return extend_schema(methods=posts, parameters=[SAFE_TO_REPEAT])(api) if posts else api

    return decorate


@extend_schema(
    operation_id="score_grid",
    summary="Score one grid",
    description=(
        "Scores one player's final grid under a ruleset (a preset name, or a preset plus overrides). "
        "The answer names every match and every card's points, with the rule each follows, and echoes "
        "the ruleset with every parameter resolved."
    ),
    tags=["scoring"],
    request={"application/json": ScoreRequestSerializer},
    responses={200: _SCORE_OK, 400: _BAD_INPUT},
    examples=[
        OpenApiExample("Official preset", value=_SCORE_EXAMPLE, request_only=True),
        OpenApiExample(
            "Preset with an override",
            value={
                "ruleset": {"preset": "official", "negative_matches": "zero"},
                "grid": [["2", "K", "4"], ["2", "5", "4"]],
            },
            request_only=True,
        ),
    ],
)
@_public_api(["POST"])
def score_grid(request: Request) -> Response:
    """POST /api/v1/score/: one grid's total and its line-by-line breakdown."""
    data = validated(ScoreRequestSerializer, request)
    problems = _Problems()
    ruleset = problems.attempt(resolve_ruleset, data["ruleset"])
    grid = problems.attempt(parse_grid, data["grid"], "grid")
    problems.raise_any()
    return Response(_score_answer(grid, ruleset, data.get("players")))


@extend_schema(
    operation_id="score_hole",
    summary="Score one hole for the whole table",
    description=(
        "Scores every player's hole: each grid (or typed total), then four-of-a-kind block additions, "
        "then the ender penalty. `grids` lists the players in seat order (JSON object order is kept). "
        "The cards of the whole table are checked against the packs in play."
    ),
    tags=["scoring"],
    request={"application/json": HoleRequestSerializer},
    responses={200: _HOLE_OK, 400: _BAD_INPUT},
    examples=[
        OpenApiExample("Fixed ender penalty", value=_HOLE_EXAMPLE, request_only=True),
        OpenApiExample(
            "Typed totals",
            value={"ruleset": "basic", "grids": {"ann": 12, "bob": {"total": 7}, "cy": 4}, "ender": None},
            request_only=True,
        ),
    ],
)
@_public_api(["POST"])
def score_hole(request: Request) -> Response:
    """POST /api/v1/score-hole/: every player's hole score with its adjustments."""
    data = validated(HoleRequestSerializer, request)
    problems = _Problems()
    ruleset = problems.attempt(resolve_ruleset, data["ruleset"])
    entries: list[PlayerEntry] = []
    for name, tokens, total, blocks in data["grids"]:
        if tokens is None:
            entries.append(PlayerEntry(name, total=total, blocks_marked=blocks))
        else:
            entries.append(PlayerEntry(name, grid=problems.attempt(parse_grid, tokens, f"grids.{name}")))
    problems.raise_any()
    return Response(_hole_answer(entries, ruleset, data["ender"]))


def _parameters() -> list[dict[str, Any]]:
    """The ruleset parameters described, in the engine's order."""
    return [
        {"name": info.name, "values": info.values, "meaning": info.meaning, "choices": list(info.choices)}
        for info in PARAMETERS.values()
    ]


@extend_schema(
    operation_id="list_rulesets",
    summary="Every preset, fully resolved, and the parameters they set",
    description=(
        "The twelve presets of the SPEC, each with every parameter resolved and the source it follows, "
        "and a description of every parameter (the values it takes and what it means). Any preset, or "
        "any preset here with some parameters changed, can be sent back as `ruleset` to the scoring "
        "endpoints."
    ),
    tags=["rulesets"],
    responses={200: RulesetListSerializer},
)
@_public_api(["GET"])
def ruleset_list(request: Request) -> Response:
    """GET /api/v1/rulesets/: {"presets": [every preset, resolved], "parameters": [each described]}."""
    return Response(
        {"presets": [preset.to_dict() for preset in PRESETS.values()], "parameters": _parameters()}
    )


@extend_schema(
    operation_id="get_ruleset",
    summary="One preset, fully resolved",
    description="One preset with every parameter resolved and its source. Names are case-insensitive.",
    tags=["rulesets"],
    parameters=[
        OpenApiParameter(
            "name", str, OpenApiParameter.PATH, enum=list(PRESETS), description="the preset's name"
        )
    ],
    responses={200: RulesetSerializer, 404: ErrorSerializer},
)
@_public_api(["GET"])
def ruleset_detail(request: Request, name: str) -> Response:
    """GET /api/v1/rulesets/<name>/: one preset with every parameter resolved and its source."""
    preset = PRESETS.get(name.lower())
    if preset is None:
        raise NotFound(
            {
                "name": _('Unknown ruleset preset "%(name)s". Presets: %(known)s.')
                % {"name": name, "known": ", ".join(PRESETS)}
            }
        )
    return Response(preset.to_dict())
