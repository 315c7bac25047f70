"""Site-wide error answers: JSON under /api/ (the API's error shape), a page elsewhere.

Django calls these for exceptions no view handled (handler400/403/404/500 in golfclub/urls.py) and
for CSRF failures (CSRF_FAILURE_VIEW), and a database that does not answer is a 503 here
(`server_error`); golfclub/middleware.py uses `error_response` for bodies too
large and for any other non-JSON error answer under /api/.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping

from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def wants_json(request: HttpRequest) -> bool:
    """Every answer under /api/ is JSON, whatever went wrong and wherever."""
    return request.path.startswith("/api/")


def api_error(status: int, where: str, message: str) -> JsonResponse:
    """The API's error shape (scoring/api/errors.py) with one problem."""
    return JsonResponse({"detail": message, "errors": [{"where": where, "message": message}]}, status=status)


def error_response(
    request: HttpRequest,
    status: int,
    *,
    title: str,
    message: str,
    where: str = "request",
    headers: Mapping[str, str] | None = None,
) -> HttpResponse:
    """One error answer: JSON in the API's shape under /api/, else a small page saying what happened."""
    if wants_json(request):
        response: HttpResponse = api_error(status, where, message)
    else:
        response = render(request, "error.html", {"title": title, "message": message}, status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def too_large(request: HttpRequest, limit: int) -> HttpResponse:
    """413: the body is over `limit` bytes; nothing of it was read or kept."""
    message = _("The request body is larger than %(size)s, the most this address accepts.") % {
        "size": _format_size(limit)
    }
    return error_response(request, 413, title=_("Too large"), message=message, where="body")


def too_long_url(limit: int) -> HttpResponse:
    """414 (the API's JSON shape): the address, query string included, is over `limit` characters."""
    message = _("The address is longer than %(limit)s characters, the most the API reads.") % {"limit": limit}
    return api_error(414, "url", message)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """400, saying which value when it knows (`InputError`); 413 for a body over
    DATA_UPLOAD_MAX_MEMORY_SIZE, which Django reports as a 400."""
    from golfclub.core.inputs import InputError

    if isinstance(exception, RequestDataTooBig):
        from django.conf import settings

        return too_large(request, settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    if isinstance(exception, InputError):
        return error_response(
            request, 400, title=_("Bad request"), message=exception.message, where=exception.where
        )
    message = _("The request could not be understood (too many fields, or a malformed header or body).")
    return error_response(request, 400, title=_("Bad request"), message=message)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """403: not allowed; says so without details."""
    message = _("You are not allowed to do that here.")
    return error_response(request, 403, title=_("Not allowed"), message=message)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """403 for a form posted without a valid CSRF token (a stale page, or a foreign site)."""
    message = _("This form expired or did not come from this site. Go back, reload the page and try again.")
    return error_response(request, 403, title=_("Form expired"), message=message)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404: what was not found, in the API's JSON shape or as a page."""
    message = _("Nothing is at %(path)s.") % {"path": request.path}
    if wants_json(request):
        return api_error(404, "url", message)
    return render(request, "404.html", {"message": message}, status=404)


#: Seconds a client is asked to wait (Retry-After) when the database did not answer.
DATABASE_RETRY_AFTER = 5


def server_error(request: HttpRequest) -> HttpResponse:
    """500: never expected; says so plainly without leaking details. A database that does not
    answer (restarting, or the connection dropped) is 503 instead: `database_unavailable`."""
    if isinstance(sys.exc_info()[1], (OperationalError, InterfaceError)):
        return database_unavailable(request)
    message = _("Something went wrong on our side. Nothing you entered was half-saved; please try again.")
    if wants_json(request):
        return api_error(500, "server", message)
    return render(request, "500.html", {"message": message}, status=500)


def database_unavailable(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After: the database did not answer (it is restarting, or the connection to it
    dropped). Whatever the request was writing was rolled back with its transaction, so sending it
    again is safe (a hole with the same Idempotency-Key, or the same form, is recorded once).

    The page is standalone (templates/503.html): the site's layout reads the session and the user,
    which are in the database that is not answering.
    """
    message = _(
        "The database is restarting; try again in a few seconds. Nothing was half-saved, and "
        "sending the same thing again is safe: it will not be saved twice."
    )
    headers = {"Retry-After": str(DATABASE_RETRY_AFTER)}
    if wants_json(request):
        response: HttpResponse = api_error(503, "server", message)
    else:
        response = render(request, "503.html", {"message": message}, status=503)
    for name, value in headers.items():
        response[name] = value
    return response


def _format_size(size: int) -> str:
    """2621440 -> "2.5 MB", 262144 -> "256 KB"."""
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):g} MB"
    return f"{size // 1024} KB"
