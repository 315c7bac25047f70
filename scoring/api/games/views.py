"""The live-games API: games, their players, holes and entries, scoreboard, history, undo, exports.

A game is reached by its link token; what each method may do is decided by the access policy
(`scoring.access`, through `game_grant_required`): the edit token reads and writes (a managed game's
table link does not manage: 409), the view token only reads (writes answer 403), and providers may
give a logged-in user more. The token is the credential, so no CSRF applies to it; the owner's list
and the player roster use the session. Views stay thin: shapes are
checked by `serializers`, writes go through `scoring.services`, reads through
`scoring.selectors` and `scoring.exports`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from django.http import HttpResponse
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.decorators import api_view, authentication_classes, parser_classes, permission_classes
from rest_framework.exceptions import NotAuthenticated, NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import exports, selectors, services
from scoring.access import Capability, GameGrant
from scoring.api.errors import ErrorSerializer
from scoring.api.parsers import SCORING_PARSERS
from scoring.error_statuses import ANSWERED_ERRORS, status_for
from scoring.game_errors import ConcurrentWrite
from scoring.inputs import clean_text
from scoring.models import Game, Hole, Player
from scoring.rules.errors import Problem

from . import concurrency
from .access import DeferredGrant, game_grant_required
from .serializers import (
    EntryLineSerializer,
    EntryWriteSerializer,
    GameCreateSerializer,
    GameSerializer,
    GameUpdateSerializer,
    HistoryLineSerializer,
    HolePatchSerializer,
    HoleSerializer,
    HoleWriteSerializer,
    PlayerSerializer,
    PlayerWriteSerializer,
    ResultsSerializer,
    ScoreboardSerializer,
    SeatSerializer,
    SeatWriteSerializer,
    UndoSerializer,
    hole_body,
)

TOKEN = OpenApiParameter(
    "token", OpenApiTypes.STR, OpenApiParameter.PATH, description="The game's edit token or view token."
)
NUMBER = OpenApiParameter(
    "number", OpenApiTypes.INT, OpenApiParameter.PATH, description="The hole number (from 1)."
)
SEAT = OpenApiParameter("seat", OpenApiTypes.INT, OpenApiParameter.PATH, description="Seat index (0-based).")
ACTOR = OpenApiParameter(
    "actor", OpenApiTypes.STR, OpenApiParameter.QUERY, required=False, description="Who makes the change."
)
_ERR = {
    400: OpenApiResponse(ErrorSerializer, description="Bad input: every problem with where it is."),
    403: OpenApiResponse(ErrorSerializer, description="A read-only (view) link cannot change the game."),
    404: OpenApiResponse(ErrorSerializer, description="No game has this link, or no such hole or seat."),
    409: OpenApiResponse(
        ErrorSerializer,
        description=(
            "Refused by the state of the match (rules frozen, over), or by a managed game: its table "
            "link cannot change its players, rules or title, nor delete it."
        ),
    ),
}
_READ_ERR = {404: _ERR[404]}
_HOLE_WRITE_ERR = {
    **_ERR,
    412: OpenApiResponse(ErrorSerializer, description="If-Match names a version that is no longer current."),
    428: OpenApiResponse(ErrorSerializer, description="If-Match is required."),
}


def _with_game_errors(view: Callable[..., Response]) -> Callable[..., Response]:
    """Answer the services' errors with their own status (400, 404, 409, 412, 422) and JSON body."""

    @functools.wraps(view)
    def wrapper(request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            return view(request, *args, **kwargs)
        except ANSWERED_ERRORS as error:
            return Response(error.as_dict(), status=status_for(error))

    return wrapper


def _token_api(
    capabilities: dict[str, Capability], *, deferred: tuple[str, ...] = ()
) -> Callable[[Callable[..., Response]], Callable[..., Response]]:
    """@api_view for a view reached by a game's link, taking the methods of `capabilities`: the access
    policy (`scoring.access`) decides what each method needs; the view gets the `GameGrant`.

    The token is the credential (no CSRF for it); a logged-in user is known for access providers.
    """

    def decorate(view: Callable[..., Response]) -> Callable[..., Response]:
        view = game_grant_required(capabilities, deferred=deferred)(view)
        view = _with_game_errors(view)
        view = parser_classes(SCORING_PARSERS)(view)
        view = permission_classes([AllowAny])(view)
        view = authentication_classes([])(view)  # the user, if any, is found by the access check
        return api_view(list(capabilities))(view)

    return decorate


_READ = {"GET": Capability.VIEW}


def _session_api(methods: list[str]) -> Callable[[Callable[..., Response]], Callable[..., Response]]:
    """@api_view for a view that knows the logged-in user (session, with its CSRF check)."""

    def decorate(view: Callable[..., Response]) -> Callable[..., Response]:
        view = _with_game_errors(view)
        view = parser_classes(SCORING_PARSERS)(view)
        view = permission_classes([AllowAny])(view)
        view = authentication_classes([SessionAuthentication])(view)
        return api_view(methods)(view)

    return decorate


def _validated(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _actor(request: Request, data: dict[str, Any] | None = None) -> str:
    """Who makes the change, for the history: the body's `actor`, else the `actor` query parameter.

    The query parameter is checked like any text field (`InputError`, a 400, for a NUL in it).
    """
    name = (data or {}).get("actor") or clean_text(request.query_params.get("actor", ""), "actor")
    return (name.strip() or _("API"))[:80]


def _url(request: Request, name: str, *args: Any) -> str:
    return request.build_absolute_uri(reverse(name, args=args))


def _links(request: Request, game: Game, token: str, can_edit: bool) -> dict[str, str]:
    links = {
        "self": _url(request, "api-game", token),
        "scoreboard": _url(request, "api-game-scoreboard", token),
        "holes": _url(request, "api-game-holes", token),
        "players": _url(request, "api-game-players", token),
        "history": _url(request, "api-game-history", token),
        "export_csv": _url(request, "api-game-export-csv", token),
        "export_json": _url(request, "api-game-export-json", token),
        "results": _url(request, "api-game-results", token),
        "view": _url(request, "api-game", game.view_token),
        "view_page": _url(request, "games:view", game.view_token),
    }
    if can_edit:
        links["edit"] = _url(request, "api-game", game.edit_token)
        links["edit_page"] = _url(request, "games:edit", game.edit_token)
    return links


def _game_body(request: Request, game: Game, *, can_edit: bool, token: str | None = None) -> dict[str, Any]:
    """A game as the API shows it; the edit token only to the edit link (never through another grant)."""
    shows_edit_token = can_edit and (token is None or token == game.edit_token)
    token = token or (game.edit_token if can_edit else game.view_token)
    body = {
        "title": game.title,
        "preset": game.preset,
        "ruleset": game.ruleset,
        "frozen": game.is_frozen,
        "first_dealer": game.first_dealer,
        "status": game.status,
        "winners": list(game.winners),
        "version": game.version,
        "players": [
            {"name": s.name, "seat": s.seat, "total": s.total, "holes_played": s.holes_played}
            for s in sorted(game.seats.all(), key=lambda s: s.seat)
        ],
        "can_edit": can_edit,
        "view_token": game.view_token,
        "links": _links(request, game, token, shows_edit_token),
        "created_at": game.created_at,
        "updated_at": game.updated_at,
    }
    if shows_edit_token:
        body["edit_token"] = game.edit_token
    return GameSerializer(body).data


def _hole_name(playoff: bool) -> str:
    return "api-game-playoff-hole" if playoff else "api-game-hole"


def _hole_response(
    request: Request, token: str, game: Game, number: int, playoff: bool, code: int = status.HTTP_200_OK
) -> Response:
    line = selectors.hole_detail(game, number, playoff=playoff)
    if line is None:
        raise NotFound(_("This game has no hole %(n)s.") % {"n": number})
    return _hole_line_response(request, token, line, code)


def _hole_line_response(
    request: Request, token: str, line: selectors.HoleLine, code: int = status.HTTP_200_OK
) -> Response:
    body = hole_body(line, _url(request, _hole_name(line.is_playoff), token, line.number))
    headers = {"ETag": concurrency.etag("hole", line.id, line.version)}
    if code == status.HTTP_201_CREATED:
        headers["Location"] = body["url"]
    return Response(body, status=code, headers=headers)


def _current_hole(game: Game, number: int, playoff: bool) -> Callable[[], concurrency.Validator | None]:
    """What an If-Match listing several ETags is compared with: the hole at `number` now."""

    def read() -> concurrency.Validator | None:
        line = selectors.hole_detail(game, number, playoff=playoff)
        return concurrency.Validator(line.id, line.version) if line else None

    return read


def _expected_hole(request: Request, game: Game, number: int, playoff: bool) -> tuple[int | None, int | None]:
    """(hole id, version) named by If-Match (428 without it); (None, None) for `*`: whatever is
    current when the change runs under the game lock."""
    named = concurrency.if_match(request, "hole", current=_current_hole(game, number, playoff))
    return (None, None) if named is None else (named.pk, named.version)


# ---------------------------------------------------------------------------------------------
# Games


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
        "can score; share the view link for read-only access. A logged-in creator is recorded as owner."
    ),
    tags=["games"],
    request=GameCreateSerializer,
    responses={201: GameSerializer, 400: _ERR[400]},
)
@_session_api(["GET", "POST"])
def games(request: Request) -> Response:
    """GET /api/v1/games/ (owner's list) and POST /api/v1/games/ (new game)."""
    if request.method == "GET":
        if not request.user.is_authenticated:
            raise NotAuthenticated(
                _("Log in to list your games; a game's own link works without an account.")
            )
        owned = selectors.games_for_user(request.user)[:200]
        return Response([_game_body(request, game, can_edit=True) for game in owned])
    data = _validated(GameCreateSerializer, request)
    game = services.create_game(
        players=data["players"],
        ruleset=data["ruleset"],
        first_dealer=data["first_dealer"],
        owner=request.user,
        title=data["title"],
    )
    body = _game_body(request, game, can_edit=True)
    return Response(body, status=status.HTTP_201_CREATED, headers={"Location": body["links"]["self"]})


@extend_schema(
    methods=["GET"],
    summary="A game",
    tags=["games"],
    parameters=[TOKEN],
    responses={200: GameSerializer, **_READ_ERR},
)
@extend_schema(
    methods=["PATCH"],
    summary="Rename a game or change its ruleset",
    description="The ruleset can change only until the first hole is recorded (seed 001): then 409.",
    tags=["games"],
    parameters=[TOKEN],
    request=GameUpdateSerializer,
    responses={200: GameSerializer, **_ERR},
)
@extend_schema(
    methods=["DELETE"],
    summary="Delete a game",
    tags=["games"],
    parameters=[TOKEN],
    responses={204: None, **_ERR},
)
@_token_api({"GET": Capability.VIEW, "PATCH": Capability.MANAGE, "DELETE": Capability.MANAGE})
def game_detail(request: Request, grant: GameGrant) -> Response:
    """GET/PATCH/DELETE /api/v1/games/{token}/."""
    game = grant.game
    if request.method == "DELETE":
        services.delete_game(game)
        return Response(status=status.HTTP_204_NO_CONTENT)
    if request.method == "PATCH":
        data = _validated(GameUpdateSerializer, request)
        services.update_game(
            game, title=data.get("title"), ruleset=data.get("ruleset"), actor=_actor(request)
        )
    return Response(_game_body(request, game, can_edit=grant.can_score, token=grant.token))


# ---------------------------------------------------------------------------------------------
# Players at the table


def _seat_body(seat: Any) -> dict[str, Any]:
    return {
        "name": seat.name,
        "seat": seat.seat,
        "total": seat.total,
        "holes_played": seat.holes_played,
        "playoff_total": seat.playoff_total,
        "etag": concurrency.etag("seat", seat.pk),
    }


@extend_schema(
    methods=["GET"], summary="Players at the table", tags=["players"], parameters=[TOKEN],
    responses={200: SeatSerializer(many=True), **_READ_ERR},
)  # fmt: skip
@extend_schema(
    methods=["POST"],
    summary="Add a player",
    description="Adds a player in the next seat; refused (409) once the first hole is recorded.",
    tags=["players"],
    parameters=[TOKEN],
    request=SeatWriteSerializer,
    responses={201: SeatSerializer, **_ERR},
)
@_token_api({"GET": Capability.VIEW, "POST": Capability.MANAGE})
def game_players(request: Request, grant: GameGrant) -> Response:
    """GET/POST /api/v1/games/{token}/players/."""
    if request.method == "POST":
        data = _validated(SeatWriteSerializer, request)
        seat = services.seat_add(grant.game, data["name"], actor=_actor(request))
        return Response(SeatSerializer(_seat_body(seat)).data, status=status.HTTP_201_CREATED)
    seats = grant.game.seats.order_by("seat")
    return Response(SeatSerializer([_seat_body(s) for s in seats], many=True).data)


@extend_schema(
    methods=["GET"], summary="A player at the table", tags=["players"], parameters=[TOKEN, SEAT],
    responses={200: SeatSerializer, **_READ_ERR},
)  # fmt: skip
@extend_schema(
    methods=["PATCH"], summary="Rename a player at the table", tags=["players"], parameters=[TOKEN, SEAT],
    request=SeatWriteSerializer, responses={200: SeatSerializer, **_ERR},
)  # fmt: skip
@extend_schema(
    methods=["DELETE"],
    summary="Remove a player",
    description=(
        "Only before the first hole; later seats move up one. Needs If-Match with the player's ETag "
        '("seat-<id>", from GET or the list), so that a retried DELETE answers 412 instead of removing '
        "the player who moved up into that seat."
    ),
    tags=["players"],
    parameters=[TOKEN, SEAT, concurrency.IF_MATCH_DELETE],
    responses={204: None, **_ERR},
)
@_token_api({"GET": Capability.VIEW, "PATCH": Capability.MANAGE, "DELETE": Capability.MANAGE})
def game_player_detail(request: Request, grant: GameGrant, seat: int) -> Response:
    """GET/PATCH/DELETE /api/v1/games/{token}/players/{seat}/."""
    if request.method == "DELETE":
        named = concurrency.if_match(request, "seat", allow_any=False)
        services.seat_remove(grant.game, seat, expected_id=named.pk)
        return Response(status=status.HTTP_204_NO_CONTENT)
    if request.method == "PATCH":
        data = _validated(SeatWriteSerializer, request)
        found = services.seat_rename(grant.game, seat, data["name"])
    else:
        found = grant.game.seats.filter(seat=seat).first()
        if found is None:
            raise NotFound(_("There is no seat %(n)s at this table.") % {"n": seat})
    return Response(
        SeatSerializer(_seat_body(found)).data, headers={"ETag": concurrency.etag("seat", found.pk)}
    )


# ---------------------------------------------------------------------------------------------
# Holes


@extend_schema(
    methods=["GET"],
    summary="Holes of a game",
    tags=["holes"],
    parameters=[TOKEN],
    responses={200: HoleSerializer(many=True), **_READ_ERR},
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
        **_ERR,
        422: OpenApiResponse(ErrorSerializer, description="Idempotency-Key reused with another body."),
    },
)
@_token_api({"GET": Capability.VIEW, "POST": Capability.SCORE}, deferred=("POST",))
def game_holes(request: Request, grant: GameGrant | DeferredGrant, playoff: bool = False) -> Response:
    """GET/POST /api/v1/games/{token}/holes/ (and /playoff-holes/).

    The POST is checked here, not before: the edit token always scores (`access.EDIT_TOKEN_SCORES`),
    so the hole is recorded by it in one query that finds and locks the game; any other token is
    decided (404, 403, or an official's grant) only when that finds nothing.
    """
    token = grant.token
    if isinstance(grant, GameGrant):  # GET: decided by the decorator
        game = grant.game
        board = selectors.scoreboard(game)
        lines = board.playoff_holes if playoff else board.holes
        name = _hole_name(playoff)
        body = [{**asdict(line), "url": _url(request, name, token, line.number)} for line in lines]
        return Response(HoleSerializer(body, many=True).data)
    try:
        key = concurrency.idempotency_key(request)
        data = _validated(HoleWriteSerializer, request)
    except (serializers.ValidationError, *ANSWERED_ERRORS):
        grant.require()  # a wrong link is answered (404, 403) before the body
        raise
    hole = {
        "entries": data["entries"],
        "ender": data.get("ender") or None,
        "playoff": playoff,
        "blocks_marked": data.get("blocks_marked"),
        "actor": _actor(request),
        "idempotency_key": key,
        # A playoff hole's request is another request than the same body sent for a regular hole.
        "request_hash": concurrency.body_hash({"playoff-hole": request.data} if playoff else request.data)
        if key
        else None,
        "expected_number": data.get("number"),
    }
    try:
        # The edit link's game is found and locked in one query; any other link is 404 or 403.
        recorded = services.hole_record_by_edit_token(token, **hole)
        if recorded is None:
            game = grant.require().game
            created = services.hole_record(game, **hole)
            return _hole_response(
                request, token, game, created.number, created.is_playoff, status.HTTP_201_CREATED
            )
    except services.IdempotentReplay as replay:
        return _replayed_hole(request, token, replay.record)
    return _hole_line_response(request, token, recorded.line, status.HTTP_201_CREATED)


def _replayed_hole(request: Request, token: str, record: Any) -> Response:
    """The answer to a retried hole POST (same Idempotency-Key and body): what is true now.

    The hole it recorded, as it stands, with the first answer's status (201), ETag and Location; if
    that hole was undone or deleted since, 409 saying so (nothing is recorded again).
    """
    hole = Hole.objects.filter(pk=record.hole_id, game_id=record.game_id).first() if record.hole_id else None
    if hole is None:
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
    response = _hole_response(
        request, token, record.game, hole.number, hole.is_playoff, status.HTTP_201_CREATED
    )
    response["Idempotent-Replayed"] = "true"
    return response


@extend_schema(
    methods=["GET"],
    summary="A hole",
    description='Answers the hole with an ETag header ("hole-<id>-v<version>") to send back in If-Match.',
    tags=["holes"],
    parameters=[TOKEN, NUMBER],
    responses={200: HoleSerializer, **_READ_ERR},
)
@extend_schema(
    methods=["PUT"],
    summary="Replace a hole's entries",
    description="Needs If-Match with the hole's ETag: 428 without, 412 when someone changed it meanwhile.",
    tags=["holes"],
    parameters=[TOKEN, NUMBER, concurrency.IF_MATCH],
    request=HoleWriteSerializer,
    responses={200: HoleSerializer, **_HOLE_WRITE_ERR},
)
@extend_schema(
    methods=["PATCH"],
    summary="Change some entries of a hole",
    description="Only the players (and the ender) given change. Needs If-Match like PUT.",
    tags=["holes"],
    parameters=[TOKEN, NUMBER, concurrency.IF_MATCH],
    request=HolePatchSerializer,
    responses={200: HoleSerializer, **_HOLE_WRITE_ERR},
)
@extend_schema(
    methods=["DELETE"],
    summary="Delete a hole",
    description=(
        "Later holes move down one number; undo puts it back. Needs If-Match with the hole's ETag, so "
        "that a retried DELETE answers 412 instead of deleting the hole that took its number."
    ),
    tags=["holes"],
    parameters=[TOKEN, NUMBER, concurrency.IF_MATCH_DELETE, ACTOR],
    responses={204: None, **_HOLE_WRITE_ERR},
)
@_token_api(
    {"GET": Capability.VIEW, "PUT": Capability.SCORE, "PATCH": Capability.SCORE, "DELETE": Capability.SCORE}
)
def game_hole_detail(request: Request, grant: GameGrant, number: int, playoff: bool = False) -> Response:
    """GET/PUT/PATCH/DELETE /api/v1/games/{token}/holes/{number}/ (and /playoff-holes/{number}/)."""
    game, token = grant.game, grant.token
    if request.method == "GET":
        return _hole_response(request, token, game, number, playoff)
    if request.method == "DELETE":
        named = concurrency.if_match(
            request, "hole", allow_any=False, current=_current_hole(game, number, playoff)
        )
        services.hole_delete(
            game,
            number,
            expected_id=named.pk,
            expected_version=named.version,
            actor=_actor(request),
            playoff=playoff,
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
    hole_id, version = _expected_hole(request, game, number, playoff)
    if request.method == "PUT":
        data = _validated(HoleWriteSerializer, request)
        entries, blocks, ender = data["entries"], data.get("blocks_marked"), data.get("ender") or None
    else:
        # Only the players given change; they are laid over the hole as it is under the game lock.
        data = _validated(HolePatchSerializer, request)
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
        actor=_actor(request),
        playoff=playoff,
        partial=request.method == "PATCH",
        keep_ender=request.method == "PATCH" and "ender" not in request.data,
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
    return _hole_line_response(request, token, line)


@extend_schema(
    summary="Entries of a hole",
    tags=["holes"],
    parameters=[TOKEN, NUMBER],
    responses={200: EntryLineSerializer(many=True), **_READ_ERR},
)
@_token_api(_READ)
def game_hole_entries(request: Request, grant: GameGrant, number: int, playoff: bool = False) -> Response:
    """GET /api/v1/games/{token}/holes/{number}/entries/."""
    line = selectors.hole_detail(grant.game, number, playoff=playoff)
    if line is None:
        raise NotFound(_("This game has no hole %(n)s.") % {"n": number})
    return Response(
        EntryLineSerializer(line.entries, many=True).data,
        headers={"ETag": concurrency.etag("hole", line.id, line.version)},
    )


@extend_schema(
    methods=["GET"], summary="One player's entry in a hole", tags=["holes"], parameters=[TOKEN, NUMBER, SEAT],
    responses={200: EntryLineSerializer, **_READ_ERR},
)  # fmt: skip
@extend_schema(
    methods=["PUT"],
    summary="Replace one player's entry",
    description="The whole hole is scored again (an ender penalty depends on everyone). Needs If-Match.",
    tags=["holes"],
    parameters=[TOKEN, NUMBER, SEAT, concurrency.IF_MATCH],
    request=EntryWriteSerializer,
    responses={200: EntryLineSerializer, **_HOLE_WRITE_ERR},
)
@_token_api({"GET": Capability.VIEW, "PUT": Capability.SCORE})
def game_hole_entry(
    request: Request, grant: GameGrant, number: int, seat: int, playoff: bool = False
) -> Response:
    """GET/PUT /api/v1/games/{token}/holes/{number}/entries/{seat}/."""
    game = grant.game
    current = selectors.hole_detail(game, number, playoff=playoff)
    if current is None:
        raise NotFound(_("This game has no hole %(n)s.") % {"n": number})
    entry = next((e for e in current.entries if e.seat == seat), None)
    if entry is None:
        raise NotFound(_("Seat %(seat)s has no entry in hole %(n)s.") % {"seat": seat, "n": number})
    if request.method == "PUT":
        hole_id, version = _expected_hole(request, game, number, playoff)
        data = _validated(EntryWriteSerializer, request)
        value: dict[str, Any] = {"cards": data["cards"]} if "cards" in data else {"total": data["total"]}
        if "total" in data and data.get("blocks_marked"):
            value["blocks_marked"] = data["blocks_marked"]
        updated = services.hole_update(
            game, number, expected_id=hole_id, expected_version=version, entries={entry.name: value},
            ender=None, keep_ender=True, partial=True, actor=_actor(request), playoff=playoff,
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


# ---------------------------------------------------------------------------------------------
# Scoreboard, history, undo


@extend_schema(
    summary="The scoreboard",
    description=(
        "Totals, every hole, playoff holes, leaders, the outcome with tiebreaks, the next hole with its "
        'dealer and first player, and running totals for a chart. ETag "game-<id>-v<version>": poll with '
        "If-None-Match to get 304 while nothing changed."
    ),
    tags=["games"],
    parameters=[TOKEN, concurrency.IF_NONE_MATCH],
    responses={200: ScoreboardSerializer, 304: OpenApiResponse(description="Not modified."), **_READ_ERR},
)
@_token_api(_READ)
def game_scoreboard(request: Request, grant: GameGrant) -> Response:
    """GET /api/v1/games/{token}/scoreboard/."""
    game = grant.game
    tag = concurrency.etag("game", game.pk, game.version)
    if concurrency.not_modified(request, tag):
        return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": tag})
    board = selectors.scoreboard(game)
    return Response(ScoreboardSerializer(board).data, headers={"ETag": tag})


@extend_schema(
    summary="History of changes",
    description="Every change, newest first: who, when, the hole before and after.",
    tags=["games"],
    parameters=[TOKEN],
    responses={200: HistoryLineSerializer(many=True), **_READ_ERR},
)
@_token_api(_READ)
def game_history(request: Request, grant: GameGrant) -> Response:
    """GET /api/v1/games/{token}/history/."""
    lines = selectors.game_history(grant.game)
    return Response(HistoryLineSerializer(lines, many=True).data)


@extend_schema(
    summary="Undo the last change",
    description=(
        "Reverts the latest change not yet undone (recorded as a change itself). The body names that "
        "change (`change`: the scoreboard's `undo.id`), so that a retried or resent undo answers 409 "
        "instead of undoing one more. 409 too when nothing is left to undo."
    ),
    tags=["games"],
    parameters=[TOKEN],
    request=UndoSerializer,
    responses={200: HistoryLineSerializer, **_ERR},
)
@_token_api({"POST": Capability.SCORE})
def game_undo(request: Request, grant: GameGrant) -> Response:
    """POST /api/v1/games/{token}/undo/."""
    return _undo_or_redo(request, grant, services.undo_last_change)


@extend_schema(
    summary="Redo what the last undo reverted",
    description=(
        "Applies again the change the latest undo reverted, until a new hole is recorded, edited or "
        "deleted. The body names that undo (`change`: the scoreboard's `redo.id`); a repeat answers 409."
    ),
    tags=["games"],
    parameters=[TOKEN],
    request=UndoSerializer,
    responses={200: HistoryLineSerializer, **_ERR},
)
@_token_api({"POST": Capability.SCORE})
def game_redo(request: Request, grant: GameGrant) -> Response:
    """POST /api/v1/games/{token}/redo/."""
    return _undo_or_redo(request, grant, services.redo_change)


def _undo_or_redo(request: Request, grant: GameGrant, service: Callable[..., Any]) -> Response:
    game = grant.game
    data = _validated(UndoSerializer, request)
    change = service(game, actor=_actor(request, data), expected_change=data["change"])
    # This change by its id: by the time it is read, another client may have made a newer one.
    line = selectors.history_line(game, change.pk)
    return Response(HistoryLineSerializer(line).data)


# ---------------------------------------------------------------------------------------------
# Exports


def _filename(game: Game, extension: str) -> str:
    return f"golf-{slugify(game.title) or game.pk}.{extension}"


@extend_schema(
    summary="Export as CSV",
    description=(
        "Three sections separated by a blank line: the game, one row per player per hole, the totals."
    ),
    tags=["exports"],
    parameters=[TOKEN],
    responses={(200, "text/csv"): OpenApiTypes.STR, **_READ_ERR},
)
@_token_api(_READ)
def game_export_csv(request: Request, grant: GameGrant) -> HttpResponse:
    """GET /api/v1/games/{token}/export.csv."""
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
    responses={200: OpenApiTypes.OBJECT, **_READ_ERR},
)
@_token_api(_READ)
def game_export_json(request: Request, grant: GameGrant) -> Response:
    """GET /api/v1/games/{token}/export.json."""
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
    responses={200: ResultsSerializer, **_READ_ERR},
)
@_token_api(_READ)
def game_results(request: Request, grant: GameGrant) -> Response:
    """GET /api/v1/games/{token}/results/."""
    game = grant.game
    board = selectors.scoreboard(game)
    body = {
        "status": board.status,
        "winners": list(board.winners),
        "shared_victory": board.shared_victory,
        "results": exports.results_summary(game, board),
    }
    return Response(ResultsSerializer(body).data)


# ---------------------------------------------------------------------------------------------
# The roster of a logged-in user


def _require_user(request: Request) -> None:
    if not request.user.is_authenticated:
        raise NotAuthenticated(_("Log in to keep a list of players."))


def _own_player(request: Request, player_id: int) -> Player:
    _require_user(request)
    player = Player.objects.filter(owner=request.user, pk=player_id).first()
    if player is None:
        raise NotFound(_("You have no player %(id)s.") % {"id": player_id})
    return player


_ROSTER_ERR = {400: _ERR[400], 403: OpenApiResponse(ErrorSerializer, description="Not logged in.")}


@extend_schema(
    methods=["GET"], summary="Your players", tags=["players"],
    responses={200: PlayerSerializer(many=True), **_ROSTER_ERR},
)  # fmt: skip
@extend_schema(
    methods=["POST"], summary="Add a player to your list", tags=["players"], request=PlayerWriteSerializer,
    responses={201: PlayerSerializer, **_ROSTER_ERR},
)  # fmt: skip
@_session_api(["GET", "POST"])
def players(request: Request) -> Response:
    """GET/POST /api/v1/players/ (logged-in users)."""
    _require_user(request)
    if request.method == "POST":
        data = _validated(PlayerWriteSerializer, request)
        player = services.player_create(request.user, data["name"])
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)
    roster = Player.objects.filter(owner=request.user).order_by("name")
    return Response(PlayerSerializer(roster, many=True).data)


_PLAYER_ID = OpenApiParameter("player_id", OpenApiTypes.INT, OpenApiParameter.PATH)


@extend_schema(
    methods=["GET"], summary="One of your players", tags=["players"], parameters=[_PLAYER_ID],
    responses={200: PlayerSerializer, **_ROSTER_ERR, 404: _ERR[404]},
)  # fmt: skip
@extend_schema(
    methods=["PATCH"], summary="Rename one of your players", tags=["players"], parameters=[_PLAYER_ID],
    request=PlayerWriteSerializer, responses={200: PlayerSerializer, **_ROSTER_ERR, 404: _ERR[404]},
)  # fmt: skip
@extend_schema(
    methods=["DELETE"], summary="Remove one of your players", tags=["players"], parameters=[_PLAYER_ID],
    responses={204: None, **_ROSTER_ERR, 404: _ERR[404]},
)  # fmt: skip
@_session_api(["GET", "PATCH", "DELETE"])
def player_detail(request: Request, player_id: int) -> Response:
    """GET/PATCH/DELETE /api/v1/players/{id}/ (logged-in users, their own players)."""
    player = _own_player(request, player_id)
    if request.method == "DELETE":
        services.player_delete(player)
        return Response(status=status.HTTP_204_NO_CONTENT)
    if request.method == "PATCH":
        data = _validated(PlayerWriteSerializer, request)
        player = services.player_rename(player, data["name"])
    return Response(PlayerSerializer(player).data)
