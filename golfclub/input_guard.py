"""Last line of defence for input: no NUL (or other unusable text) in a query string or form reaches a view.

The forms and serializers check their own fields (`golfclub.core.inputs`); this middleware refuses, with
a 400, a request whose query string or form body holds a key or value that is not usable text,
whatever field it is in, and turns an `InputError` a view lets escape into the same 400: a page
under /games/, the API's JSON error shape under /api/. Nothing is written before either happens.
JSON bodies are the API parsers' and serializers' job, so they are not read here.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from golfclub.core.errors import bad_request
from golfclub.core.inputs import InputError, first_bad_field


class InputGuardMiddleware:
    """Refuse query strings and form bodies holding NUL, lone surrogates or control characters (400)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Check the query string, and the form body of a page's POST, before the view runs."""
        error = first_bad_field(request.GET, _("query string"))
        if error is None and request.method == "POST" and not request.path.startswith("/api/"):
            error = first_bad_field(request.POST, _("form"))
        if error is not None:
            return bad_request(request, error)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """An `InputError` a page let escape is the client's mistake: 400, never 500."""
        if isinstance(exception, InputError):
            return bad_request(request, exception)
        return None
