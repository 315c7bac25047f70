"""Request-size limits, and one error shape for everything under /api/.

RequestBodyLimitMiddleware answers 413 to a body announced larger than the site takes, before any
view, form or parser reads it, and 414 (JSON) to an API address longer than MAX_API_URL_LENGTH.
Pages take DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB) in all, files
included (Django alone would stream any size of upload to disk); the API takes JSON only and its
parser reads at most 256 KB, so a larger API body is refused at once instead of half-read.

ApiErrorShapeMiddleware is the safety net: whatever answered an /api/ request with an error that is
not JSON (Django's HttpResponseNotAllowed, a third-party view, a handler that rendered HTML), the
client gets the documented {"detail", "errors": [{"where", "message"}]} shape with the same status
and the same Allow / Retry-After headers. Every body here is built by `golfclub.core.errors`.

PageRefusalMiddleware answers every page refused by its access call (`golfclub.core.errors.PageRefusal`,
raised by `game_for_page`, `tournament_page_for` and, carried by `NotAnOwner`, `club_for_user`): the
views never answer a refusal themselves.

PhoneContactMiddleware notes, after a request made with a game's edit link, when that table's phone
was last heard from and how many writes it says it still holds (`scoring.phone_contact`).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from golfclub.core.errors import (
    page_refusal_of,
    refused_page,
    reshaped_api_error,
    too_large,
    too_long_url,
    wants_json,
)
from golfclub.core.limits import MAX_API_URL_LENGTH
from scoring.phone_contact import parse_pending, record_phone_contact


def body_limit(request: HttpRequest) -> int:
    """The most bytes a request body may have at this path."""
    if wants_json(request):
        from golfclub.core.parsers import MAX_BODY_BYTES

        return MAX_BODY_BYTES
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


class RequestBodyLimitMiddleware:
    """413 for a Content-Length over the limit (see the module docstring), the body left unread."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Refuse early, or pass the request on."""
        if wants_json(request) and len(request.get_full_path()) > MAX_API_URL_LENGTH:
            return too_long_url(MAX_API_URL_LENGTH)
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        limit = body_limit(request)
        if length > limit:
            response = too_large(request, limit)
            # The unread body would otherwise be parsed as the next request on a kept-alive socket.
            response["Connection"] = "close"
            return response
        return self.get_response(request)


class ApiErrorShapeMiddleware:
    """Under /api/, an error answer that is not JSON becomes JSON in the API's error shape."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Reshape the answer when needed; JSON answers and successes pass untouched."""
        response = self.get_response(request)
        if response.status_code < 400 or not wants_json(request):
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        return reshaped_api_error(request, response)


class PageRefusalMiddleware:
    """A page whose access call refused the request (a `PageRefusal`, or an error carrying one)
    answers the refusal's page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Pass the request on (refusals are raised by the view: `process_exception`)."""
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """The refusal's page; any other exception goes on to Django's handling."""
        refusal = page_refusal_of(exception)
        return refused_page(request, refusal) if refusal is not None else None


# The routes reached by a game's edit link, by the start of their pattern: the game's pages, the
# table's page, and the games API (which takes either link: `record_phone_contact` finds a game by
# its edit token only, so a view link writes nothing). A view link's pages (/games/v/) and every
# other URL are not looked at.
_EDIT_LINK_ROUTES = ("games/e/", "tournaments/table/", "api/v1/games/<token:token>/")


class PhoneContactMiddleware:
    """After a request made with a game's edit link, note that its phone was heard from (and the
    writes it says it still holds, `X-Golf-Pending`): `scoring.phone_contact` says why and how
    cheaply. Nothing else of the request is read, and its answer is never changed."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Answer, then record the contact when the request was a table phone's."""
        response = self.get_response(request)
        if not getattr(settings, "GOLFCLUB_PHONE_CONTACT", True):
            return response
        token = _edit_link_token(request, response)
        if token is not None:
            record_phone_contact(token, parse_pending(request.headers.get("X-Golf-Pending")))
        return response


def _edit_link_token(request: HttpRequest, response: HttpResponse) -> str | None:
    """The link token of a request that counts as the table's phone being heard, else None.

    Not counted: a 404 (no game has that link: a mistyped or guessed token costs no statement), and
    a logged-in user's request without the queue's header (a director or official opening the
    table's game from the dashboard is not the table's phone, and must not hide a silent one)."""
    match = getattr(request, "resolver_match", None)
    if match is None or response.status_code == 404:
        return None
    token = match.kwargs.get("token")
    if not isinstance(token, str) or not match.route.startswith(_EDIT_LINK_ROUTES):
        return None
    if "X-Golf-Pending" not in request.headers:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            return None
    return token
