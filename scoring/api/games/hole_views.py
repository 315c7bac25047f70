"""The live-games API on holes: list and record (with Idempotency-Key replays), read, replace,
patch and delete a hole (If-Match), and its entries; regular and playoff holes alike."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import selectors, services
from scoring.access import Capability, GameGrant
from scoring.api.errors import ErrorSerializer, validated
from scoring.game_errors import ANSWERED_ERRORS, ConcurrentWrite
from scoring.models import Game
from scoring.rules.errors import Problem

from . import concurrency
from ._common import (
    ACTOR,
    ERRORS,
    HOLE_WRITE_ERRORS,
    NUMBER,
    READ_ERRORS,
    READ_ONLY,
    SEAT,
    TOKEN,
    DeleteBodySchema,
    actor_of,
    current_hole,
    expected_hole,
    hole_line_response,
    hole_response,
    token_api,
)
from .access import game_for_api, game_for_api_deferring
from .request_serializers import (
    EntryWriteSerializer,
    HoleDeleteSerializer,
    HolePatchSerializer,
    HoleReplaceSerializer,
    HoleWriteSerializer,
)
from .response_serializers import EntryLineSerializer, HoleSerializer

# What every correction's description says about `reason` (scoring.hole_policies).
_REASON_NOTE = (
    "A managed game's manager may refuse a correction through the table link (409) or ask an "
    "official for a `reason` (400 naming `reason` without one); the reason is kept in the history."
)


@extend_schema(
    methods=["GET"],
    summary="Holes of a game",
    tags=["holes"],
    parameters=[TOKEN],
    responses={200: HoleSerializer(many=True), **READ_ERRORS},
)
@extend_schema(
    methods=["POST"],
    summary="Record the next hole",
    description=(
        "Every player's final grid (or typed total) and who ended the hole. The first hole freezes "
        "the ruleset. Send an Idempotency-Key so that a retry never records the hole twice. Playoff "
        "holes (at /playoff-holes/) are accepted only while sudden death is pending, for the "
        "contenders only."
    ),
    tags=["holes"],
    parameters=[TOKEN, concurrency.IDEMPOTENCY_KEY],
    request=HoleWriteSerializer,
    responses={
        201: HoleSerializer,
        **ERRORS,
        422: OpenApiResponse(ErrorSerializer, description="Idempotency-Key reused with another body."),
    },
)
@token_api(["GET", "POST"], own_idempotency=True)
def game_holes(request: Request, token: str, playoff: bool = False) -> Response:
    """GET/POST /api/v1/games/{token}/holes/ (and /playoff-holes/).

    The POST is decided here, not before: the hole is recorded in one query that finds and locks
    the game by its edit token, and the access decision is made on the game found
    (`grant.on_edit_token_game`); any other token is decided (404, 403, or an official's grant)
    only when that finds nothing.
    """
    grant = game_for_api_deferring(request, token, writes=Capability.SCORE, deferred=("POST",))
    if isinstance(grant, GameGrant):  # GET: decided by the access call
        game = grant.game
        board = selectors.scoreboard(game)
        lines = board.playoff_holes if playoff else board.holes
        return Response(HoleSerializer(lines, many=True, context={"request": request, "token": token}).data)
    try:
        key = concurrency.idempotency_key(request)
        data = validated(HoleWriteSerializer, request)  # the usual body checked quickly: see there
    except (serializers.ValidationError, *ANSWERED_ERRORS):
        grant.require()  # a wrong link is answered (404, 403) before the body
        raise
    hole = {
        "entries": data["entries"],
        "ender": data.get("ender") or None,
        "playoff": playoff,
        "blocks_marked": data.get("blocks_marked"),
        "actor": actor_of(request),
        "idempotency_key": key,
        # A playoff hole's request is another request than the same body sent for a regular hole.
        "request_hash": concurrency.body_hash({"playoff-hole": request.data} if playoff else request.data)
        if key
        else None,
        "expected_number": data.get("number"),
    }
    try:
        # The edit link's game is found and locked in one query, then decided on; any other link
        # is decided by its own lookup (404, 403, or an official's grant).
        recorded = services.hole_record_by_edit_token(token, **hole, decide=grant.on_edit_token_game)
        if recorded is None:
            decided = grant.require()
            recorded = services.hole_record_with_line(decided.game, **hole, capabilities=decided.capabilities)
    except services.IdempotentReplay as replay:
        return _replayed_hole(request, token, replay.record)
    # Either way the answer is the line built from what was written: nothing is read again.
    return hole_line_response(request, token, recorded.line, status.HTTP_201_CREATED)


def _replayed_hole(request: Request, token: str, record: Any) -> Response:
    """The answer to a retried hole POST (same Idempotency-Key and body): what is true now.

    The hole it recorded, as it stands, with the first answer's status (201), ETag and Location; if
    that hole was undone or deleted since, 409 saying so (nothing is recorded again).
    """
    line = selectors.hole_detail_by_id(record.game, record.hole_id) if record.hole_id else None
    if line is None:
        number = record.hole_number
        raise ConcurrentWrite(
            Problem(
                "Idempotency-Key",
                _(
                    "This request was already carried out: it recorded hole %(n)s, which has since "
                    "been undone or deleted. Nothing was recorded again."
                )
                % {"n": number if number is not None else "?"},
            )
        )
    response = hole_line_response(request, token, line, status.HTTP_201_CREATED)
    response["Idempotent-Replayed"] = "true"
    return response


@extend_schema(
    methods=["GET"],
    summary="A hole",
    description='Answers the hole with an ETag header ("hole-<id>-v<version>") to send back in If-Match.',
    tags=["holes"],
    parameters=[TOKEN, NUMBER],
    responses={200: HoleSerializer, **READ_ERRORS},
)
@extend_schema(
    methods=["PUT"],
    summary="Replace a hole's entries",
    description=(
        "Needs If-Match with the hole's ETag: 428 without, 412 when someone changed it meanwhile. "
        + _REASON_NOTE
    ),
    tags=["holes"],
    parameters=[TOKEN, NUMBER, concurrency.IF_MATCH],
    request=HoleReplaceSerializer,
    responses={200: HoleSerializer, **HOLE_WRITE_ERRORS},
)
@extend_schema(
    methods=["PATCH"],
    summary="Change some entries of a hole",
    description="Only the players (and the ender) given change. Needs If-Match like PUT. " + _REASON_NOTE,
    tags=["holes"],
    parameters=[TOKEN, NUMBER, concurrency.IF_MATCH],
    request=HolePatchSerializer,
    responses={200: HoleSerializer, **HOLE_WRITE_ERRORS},
)
@extend_schema(
    methods=["DELETE"],
    summary="Delete a hole",
    description=(
        "Later holes move down one number; undo puts it back. Needs If-Match with the hole's ETag, so "
        "that a retried DELETE answers 412 instead of deleting the hole that took its number. The "
        'JSON body is optional: {"actor", "reason"}. ' + _REASON_NOTE
    ),
    tags=["holes"],
    parameters=[TOKEN, NUMBER, concurrency.IF_MATCH_DELETE, ACTOR],
    request=HoleDeleteSerializer,
    responses={204: None, **HOLE_WRITE_ERRORS},
)
@token_api(["GET", "PUT", "PATCH", "DELETE"], schema=DeleteBodySchema)
def game_hole_detail(request: Request, token: str, number: int, playoff: bool = False) -> Response:
    """GET/PUT/PATCH/DELETE /api/v1/games/{token}/holes/{number}/ (and /playoff-holes/{number}/)."""
    grant = game_for_api(request, token, writes=Capability.SCORE)
    game, token = grant.game, grant.token
    if request.method == "GET":
        return hole_response(request, token, game, number, playoff)
    if request.method == "DELETE":
        named = concurrency.if_match(
            request, "hole", allow_any=False, current=current_hole(game, number, playoff)
        )
        # The JSON body is optional: who deletes the hole (else the `actor` query parameter) and why.
        data = validated(HoleDeleteSerializer, request)
        services.hole_delete(
            game,
            number,
            expected_id=named.pk,
            expected_version=named.version,
            actor=actor_of(request, data),
            playoff=playoff,
            capabilities=grant.capabilities,
            reason=data["reason"],
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
    hole_id, version = expected_hole(request, game, number, playoff)
    if request.method == "PUT":
        data = validated(HoleReplaceSerializer, request)
        entries, blocks, ender = data["entries"], data.get("blocks_marked"), data.get("ender") or None
    else:
        # Only the players given change; they are laid over the hole as it is under the game lock.
        data = validated(HolePatchSerializer, request)
        entries, blocks, ender = (
            data.get("entries") or {},
            data.get("blocks_marked"),
            data.get("ender") or None,
        )
    updated = services.hole_update(
        game,
        number,
        expected_id=hole_id,
        expected_version=version,
        entries=entries,
        ender=ender,
        blocks_marked=blocks,
        actor=actor_of(request),
        playoff=playoff,
        partial=request.method == "PATCH",
        keep_ender=request.method == "PATCH" and "ender" not in request.data,
        capabilities=grant.capabilities,
        reason=data["reason"],
    )
    return _updated_hole_response(request, token, game, updated.pk)


def _updated_hole_response(request: Request, token: str, game: Game, hole_id: int) -> Response:
    """The hole just changed, read by its id: by then another client may have renumbered holes, and
    the hole now at the number the client sent may be another one."""
    line = selectors.hole_detail_by_id(game, hole_id)
    if line is None:
        raise ConcurrentWrite(
            Problem("hole", _("The hole was changed, then deleted by someone else at once. Reload it."))
        )
    return hole_line_response(request, token, line)


@extend_schema(
    summary="Entries of a hole",
    tags=["holes"],
    parameters=[TOKEN, NUMBER],
    responses={200: EntryLineSerializer(many=True), **READ_ERRORS},
)
@token_api(READ_ONLY)
def game_hole_entries(request: Request, token: str, number: int, playoff: bool = False) -> Response:
    """GET /api/v1/games/{token}/holes/{number}/entries/."""
    grant = game_for_api(request, token)
    line = selectors.hole_detail(grant.game, number, playoff=playoff)
    if line is None:
        raise NotFound(_("This game has no hole %(n)s.") % {"n": number})
    return Response(
        EntryLineSerializer(line.entries, many=True).data,
        headers={"ETag": concurrency.etag("hole", line.id, line.version)},
    )


@extend_schema(
    methods=["GET"], summary="One player's entry in a hole", tags=["holes"], parameters=[TOKEN, NUMBER, SEAT],
    responses={200: EntryLineSerializer, **READ_ERRORS},
)  # fmt: skip
@extend_schema(
    methods=["PUT"],
    summary="Replace one player's entry",
    description=(
        "The whole hole is scored again (an ender penalty depends on everyone). Needs If-Match. "
        + _REASON_NOTE
    ),
    tags=["holes"],
    parameters=[TOKEN, NUMBER, SEAT, concurrency.IF_MATCH],
    request=EntryWriteSerializer,
    responses={200: EntryLineSerializer, **HOLE_WRITE_ERRORS},
)
@token_api(["GET", "PUT"])
def game_hole_entry(request: Request, token: str, number: int, seat: int, playoff: bool = False) -> Response:
    """GET/PUT /api/v1/games/{token}/holes/{number}/entries/{seat}/."""
    grant = game_for_api(request, token, writes=Capability.SCORE)
    game = grant.game
    current = selectors.hole_detail(game, number, playoff=playoff)
    if current is None:
        raise NotFound(_("This game has no hole %(n)s.") % {"n": number})
    entry = next((e for e in current.entries if e.seat == seat), None)
    if entry is None:
        raise NotFound(_("Seat %(seat)s has no entry in hole %(n)s.") % {"seat": seat, "n": number})
    if request.method == "PUT":
        hole_id, version = expected_hole(request, game, number, playoff)
        data = validated(EntryWriteSerializer, request)
        value: dict[str, Any] = {"cards": data["cards"]} if "cards" in data else {"total": data["total"]}
        if "total" in data and data.get("blocks_marked"):
            value["blocks_marked"] = data["blocks_marked"]
        updated = services.hole_update(
            game, number, expected_id=hole_id, expected_version=version, entries={entry.name: value},
            ender=None, keep_ender=True, partial=True, actor=actor_of(request), playoff=playoff,
            capabilities=grant.capabilities, reason=data["reason"],
        )  # fmt: skip
        current = selectors.hole_detail_by_id(game, updated.pk)  # by id: see _updated_hole_response
        if current is None:
            raise ConcurrentWrite(
                Problem("hole", _("The hole was changed, then deleted by someone else at once."))
            )
        entry = next(e for e in current.entries if e.seat == seat)
    return Response(
        EntryLineSerializer(entry).data,
        headers={"ETag": concurrency.etag("hole", current.id, current.version)},
    )
