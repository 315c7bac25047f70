"""What the tournament API views share: the decorator that makes a view (`tournament_api`), body
checking, OpenAPI parameters and error answers.

Authentication: DRF's token (`Authorization: Token <key>`, for scripts) and the session (with
its CSRF check on writes). Writes need a logged-in user: 401 otherwise. What a user may do is
decided by one call at the view's top, `tournaments.access.tournament_for_user`, only; a private
tournament is a 404 to outsiders.

Private to `tournaments.api`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.decorators import api_view, authentication_classes, parser_classes, permission_classes
from rest_framework.permissions import SAFE_METHODS, AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api.errors import ErrorSerializer
from scoring.api.games.access import require_login
from scoring.api.games.concurrency import idempotency_key
from scoring.api.write_once import SAFE_TO_REPEAT

from .idempotency import IDEMPOTENCY_KEY, idempotent_call
from .parsers import TOURNAMENT_PARSERS

TOURNAMENT_ID = OpenApiParameter(
    "tournament_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The tournament's id."
)
PLAYER_ID = OpenApiParameter(
    "player_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The player's id in the tournament."
)
ROUND = OpenApiParameter("number", OpenApiTypes.INT, OpenApiParameter.PATH, description="The round number.")
TABLE = OpenApiParameter("table", OpenApiTypes.INT, OpenApiParameter.PATH, description="The table number.")
STAFF_ID = OpenApiParameter("staff_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The staff id.")

_E = ErrorSerializer
READ_ERRORS = {
    404: OpenApiResponse(_E, description="No such tournament (or a private one), player or round.")
}
ERRORS = {
    400: OpenApiResponse(_E, description="Bad input: every problem with where it is."),
    401: OpenApiResponse(_E, description="Not logged in (session or `Authorization: Token <key>`)."),
    403: OpenApiResponse(_E, description="Logged in, but not allowed by the tournament's roles."),
    **READ_ERRORS,
    409: OpenApiResponse(
        _E, description="The event's state does not allow this now; says what is in the way."
    ),
    422: OpenApiResponse(_E, description="The Idempotency-Key was already used for another request."),
}


def tournament_api(
    methods: list[str], *, open_posts: bool = False
) -> Callable[[Callable[..., Response]], Callable[..., Response]]:
    """@api_view for a tournament route: token or session authentication (CSRF on session
    writes), JSON (or CSV) bodies (the services' errors are answered by the API's one handler,
    `scoring.api.errors.exception_handler`); writes need a logged-in user,
    except with `open_posts` (a POST that writes nothing, such as asking for advice). Every write
    takes an `Idempotency-Key` header (`tournaments.api.idempotency`): safe to repeat."""

    def decorate(view: Callable[..., Response]) -> Callable[..., Response]:
        @functools.wraps(view)
        def logged_in_for_writes(request: Request, *args: Any, **kwargs: Any) -> Response:
            writes = request.method not in SAFE_METHODS and not open_posts
            if writes:
                require_login(
                    request, _("Log in (or send Authorization: Token <key>) to change a tournament.")
                )
                return idempotent_call(request, view, *args, **kwargs)
            if open_posts:
                idempotency_key(request)  # writes nothing, so safe to repeat: the key is only checked
            return view(request, *args, **kwargs)

        wrapped = logged_in_for_writes
        wrapped = parser_classes(TOURNAMENT_PARSERS)(wrapped)
        wrapped = permission_classes([AllowAny])(wrapped)
        # Token first: an anonymous write is answered 401 with `WWW-Authenticate: Token`.
        wrapped = authentication_classes([TokenAuthentication, SessionAuthentication])(wrapped)
        api = api_view(methods)(wrapped)
        written = [m for m in methods if m not in SAFE_METHODS]
        if written:
            key = SAFE_TO_REPEAT if open_posts else IDEMPOTENCY_KEY
            api = extend_schema(methods=written, parameters=[key])(api)
        return api

    return decorate
