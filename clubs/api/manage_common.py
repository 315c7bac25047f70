"""What the clubs' write API views share: the decorator that makes a view (`club_api`), OpenAPI
parameters and error answers, and the ETags of clubs and seasons.

Authentication: DRF's token (`Authorization: Token <key>`) and the session (CSRF on its writes).
Writes need a logged-in user (401 otherwise); what a user may do to a club is decided by
`clubs.access.club_for_user` alone, called once at the top of each view. Every POST honours the
Idempotency-Key header (`scoring.api.write_once`); edits need If-Match (428 without, 412 stale).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.decorators import api_view, authentication_classes, parser_classes, permission_classes
from rest_framework.permissions import SAFE_METHODS, AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from golfclub.core.parsers import SCORING_PARSERS
from scoring.api.errors import ErrorSerializer
from scoring.api.games.access import require_login
from scoring.api.games.concurrency import PreconditionFailed, etag, if_match
from scoring.api.write_once import IDEMPOTENCY_KEY, write_once
from scoring.rules.errors import Problem

CLUB_ID = OpenApiParameter("club_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The club's id.")
SEASON_ID = OpenApiParameter(
    "season_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The season's id in the club."
)

_E = ErrorSerializer
READ_ERRORS: dict[int | str, Any] = {
    404: OpenApiResponse(_E, description="No such club (or a private one you do not own), member or season.")
}
ERRORS: dict[int | str, Any] = {
    400: OpenApiResponse(_E, description="Bad input: every problem with where it is."),
    401: OpenApiResponse(_E, description="Not logged in (session or `Authorization: Token <key>`)."),
    403: OpenApiResponse(_E, description="You may read this public club, but only its owners change it."),
    **READ_ERRORS,
    409: OpenApiResponse(_E, description="The club's state does not allow this; says what is in the way."),
    422: OpenApiResponse(_E, description="The Idempotency-Key was already used for another request."),
}
EDIT_ERRORS: dict[int | str, Any] = {
    **ERRORS,
    412: OpenApiResponse(_E, description="If-Match names a version no longer current: nothing was written."),
    428: OpenApiResponse(_E, description="If-Match is required (the ETag from GET)."),
}


def if_match_parameter(what: str, example: str) -> OpenApiParameter:
    """The If-Match header an edit of `what` needs, for the schema."""
    return OpenApiParameter(
        "If-Match",
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        required=False,
        description=(
            f"The ETag of {what} as last read (e.g. `{example}`). Missing: 428. Changed since: 412 "
            "and nothing is written. `*` changes whatever is current."
        ),
    )


def club_api(
    methods: list[str], *, login_to_read: bool = False
) -> Callable[[Callable[..., Response]], Callable[..., Response]]:
    """@api_view for a clubs route: token or session authentication, JSON bodies, writes (and reads
    with `login_to_read`) by logged-in users only (401), every POST once per Idempotency-Key."""

    def decorate(view: Callable[..., Response]) -> Callable[..., Response]:
        once = write_once(view) if "POST" in methods else view

        @functools.wraps(view)
        def logged_in(request: Request, *args: Any, **kwargs: Any) -> Response:
            if login_to_read or request.method not in SAFE_METHODS:
                require_login(request, _("Log in (or send Authorization: Token <key>) to use your clubs."))
            return once(request, *args, **kwargs)

        wrapped = parser_classes(SCORING_PARSERS)(logged_in)
        wrapped = permission_classes([AllowAny])(wrapped)
        # Token first: an anonymous write is answered 401 with `WWW-Authenticate: Token`.
        wrapped = authentication_classes([TokenAuthentication, SessionAuthentication])(wrapped)
        api = api_view(methods)(wrapped)
        if "POST" in methods:
            api = extend_schema(methods=["POST"], parameters=[IDEMPOTENCY_KEY])(api)
        return api

    return decorate


def expected_version(request: Request, kind: str, pk: int) -> int | None:
    """The version of the `kind` resource `pk` that If-Match names (None for `*`), for the service to
    check under its lock. 428 without the header; 412 when it names something else."""
    named = if_match(request, kind)
    if named is None:
        return None
    if named.pk != pk:
        raise PreconditionFailed(
            Problem(
                "If-Match",
                _("The If-Match header names another %(kind)s (read it again with GET).") % {"kind": kind},
            )
        )
    return named.version


def tagged(response: Response, kind: str, pk: int, version: int) -> Response:
    """`response` with the ETag of `kind` `pk` at `version`; it varies with who asks."""
    response["ETag"] = etag(kind, pk, version)
    patch_vary_headers(response, ("Authorization", "Cookie"))
    return response
