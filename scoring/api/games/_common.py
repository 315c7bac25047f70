"""What the live-game API views share: OpenAPI parameters and error answers, the decorators
that make a view (`token_api` for a game's link, `session_api` for the logged-in user),
body checking, the actor, and the answer for a hole (with its ETag and Location).

A game is reached by its link token; what each method may do is decided by the access policy
(`scoring.access`, through each view's first line, `game_for_api`): the edit token reads and
writes (a managed game's table link does not manage: 409), the view token only reads (writes
answer 403), and the game's manager (`scoring.game_managers`) may give a logged-in user more. The
token is the credential, so no CSRF applies to it; the owner's list and the player roster use the
session. Views stay thin: shapes are checked by the serializers, writes go through
`scoring.services`, reads through `scoring.selectors` and `scoring.exports`.

Private to `scoring.api.games`: the view modules (`game_views`, `player_views`, `hole_views`,
`history_views`, `export_views`, `roster_views`) import these names.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import api_view, authentication_classes, parser_classes, permission_classes
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from golfclub.core.inputs import clean_text
from golfclub.core.parsers import SCORING_PARSERS
from scoring import selectors
from scoring.api.errors import ErrorSerializer
from scoring.api.write_once import IDEMPOTENCY_KEY, write_once
from scoring.models import Game

from . import concurrency
from .links import absolute_url, hole_url_name
from .response_serializers import hole_body

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
ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Bad input: every problem with where it is."),
    403: OpenApiResponse(ErrorSerializer, description="A read-only (view) link cannot change the game."),
    404: OpenApiResponse(ErrorSerializer, description="No game has this link, or no such hole or seat."),
    409: OpenApiResponse(
        ErrorSerializer,
        description=(
            "Refused by the state of the match (rules frozen, over), or by a managed game: its table "
            "link cannot change its players, rules or title, nor delete it, and its manager's hole "
            "policy may refuse a change of a hole (e.g. an earlier hole once the next is recorded)."
        ),
    ),
}
READ_ERRORS = {404: ERRORS[404]}
#: The answer of a POST whose Idempotency-Key was used before for another request.
KEY_REUSED = {
    422: OpenApiResponse(
        ErrorSerializer, description="The Idempotency-Key was already used for another request."
    )
}
HOLE_WRITE_ERRORS = {
    **ERRORS,
    412: OpenApiResponse(ErrorSerializer, description="If-Match names a version that is no longer current."),
    428: OpenApiResponse(ErrorSerializer, description="If-Match is required."),
}


class DeleteBodySchema(AutoSchema):
    """drf-spectacular documents a request body for POST, PUT and PATCH only; this schema documents
    the optional JSON body a DELETE takes (a hole's `actor` and `reason`), as not required."""

    def _get_request_body(self, direction: str = "request") -> dict[str, Any] | None:
        if self.method != "DELETE":
            return super()._get_request_body(direction)
        serializer = self.get_request_serializer()  # the DELETE's own, from its @extend_schema
        if serializer is None:
            return None
        # Built as for a PUT (fields as declared, not made partial as for a PATCH), with this serializer.
        self.method = "PUT"
        self.get_request_serializer = lambda: serializer  # type: ignore[method-assign]
        try:
            return super()._get_request_body(direction)
        finally:
            self.method = "DELETE"
            del self.get_request_serializer


def token_api(
    methods: list[str],
    *,
    schema: type[AutoSchema] | None = None,
    own_idempotency: bool = False,
) -> Callable[[Callable[..., Response]], Callable[..., Response]]:
    """@api_view for a view `view(request, token, ...)` reached by a game's link, taking `methods`:
    the framework's wiring only. The view's first line is its access call
    (`grant = game_for_api(request, token, writes=...)`, `scoring.api.games.access`); a POST then
    honours the Idempotency-Key header through `call_once` (`scoring.api.write_once`), after access,
    so that a refused client is told it is refused, not about its key; unless the view keeps its
    keys itself (`own_idempotency`: a hole's POST, which documents its own header).

    The token is the credential (no CSRF for it); a logged-in user is known, for the game's manager.
    `schema` replaces the OpenAPI inspector (the @extend_schema decorators above build on it).
    """

    def decorate(view: Callable[..., Response]) -> Callable[..., Response]:
        view = parser_classes(SCORING_PARSERS)(view)
        view = permission_classes([AllowAny])(view)
        view = authentication_classes([])(view)  # the user, if any, is found by the access call
        api = api_view(methods)(view)
        if schema is not None:
            # Where @extend_schema looks for the inspector of an @api_view it extends.
            api.cls.kwargs = {"schema": schema}
        if "POST" in methods and not own_idempotency:
            api = extend_schema(methods=["POST"], parameters=[IDEMPOTENCY_KEY])(api)
        return api

    return decorate


#: The methods of a view that only reads.
READ_ONLY = ["GET"]


def session_api(
    methods: list[str], *, access: Callable[[Request], None] | None = None
) -> Callable[[Callable[..., Response]], Callable[..., Response]]:
    """@api_view for a view that knows the logged-in user: the session (with its CSRF check), or a
    script's `Authorization: Token <key>` (DEFAULT_AUTHENTICATION_CLASSES). A POST honours the
    Idempotency-Key header, an anonymous client's keys kept by its address (16+ characters).

    `access(request)` raises when the request may not use the view (logged-in users only): run
    before the key is looked at, so that a refused client is told why, not about its key."""

    def decorate(view: Callable[..., Response]) -> Callable[..., Response]:
        if "POST" in methods:
            view = write_once(view, scope_by_address=True)
            if access is not None:
                view = _access_first(access, view)
        view = parser_classes(SCORING_PARSERS)(view)
        view = permission_classes([AllowAny])(view)
        view = authentication_classes(api_settings.DEFAULT_AUTHENTICATION_CLASSES)(view)
        api = api_view(methods)(view)
        if "POST" in methods:
            api = extend_schema(methods=["POST"], parameters=[IDEMPOTENCY_KEY])(api)
        return api

    return decorate


def _access_first(
    access: Callable[[Request], None], view: Callable[..., Response]
) -> Callable[..., Response]:
    """`view` after `access(request)`, which raises when the request may not use it."""

    @functools.wraps(view)
    def checked(request: Request, *args: Any, **kwargs: Any) -> Response:
        access(request)
        return view(request, *args, **kwargs)

    return checked


def actor_of(request: Request, data: dict[str, Any] | None = None) -> str:
    """Who makes the change, for the history: the body's `actor`, else the `actor` query parameter.

    The query parameter is checked like any text field (`InputError`, a 400, for a NUL in it).
    """
    name = (data or {}).get("actor") or clean_text(request.query_params.get("actor", ""), "actor")
    return (name.strip() or _("API"))[:80]


def hole_response(
    request: Request, token: str, game: Game, number: int, playoff: bool, code: int = status.HTTP_200_OK
) -> Response:
    """The hole at `number` as the API answers it (with its ETag; Location on 201), or 404."""
    line = selectors.hole_detail(game, number, playoff=playoff)
    if line is None:
        raise NotFound(_("This game has no hole %(n)s.") % {"n": number})
    return hole_line_response(request, token, line, code)


def hole_line_response(
    request: Request, token: str, line: selectors.HoleLine, code: int = status.HTTP_200_OK
) -> Response:
    """`line` as the API answers a hole: the body, its ETag, and its Location when just created."""
    body = hole_body(line, absolute_url(request, hole_url_name(line.is_playoff), token, line.number))
    headers = {"ETag": concurrency.etag("hole", line.id, line.version)}
    if code == status.HTTP_201_CREATED:
        headers["Location"] = body["url"]
    return Response(body, status=code, headers=headers)


def current_hole(game: Game, number: int, playoff: bool) -> Callable[[], concurrency.Validator | None]:
    """What an If-Match listing several ETags is compared with: the hole at `number` now."""

    def read() -> concurrency.Validator | None:
        line = selectors.hole_detail(game, number, playoff=playoff)
        return concurrency.Validator(line.id, line.version) if line else None

    return read


def expected_hole(request: Request, game: Game, number: int, playoff: bool) -> tuple[int | None, int | None]:
    """(hole id, version) named by If-Match (428 without it); (None, None) for `*`: whatever is
    current when the change runs under the game lock."""
    named = concurrency.if_match(request, "hole", current=current_hole(game, number, playoff))
    return (None, None) if named is None else (named.pk, named.version)
