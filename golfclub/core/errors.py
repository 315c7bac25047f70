"""Every error answer of the site is built here, and only here: the one error path.

- **What an error is answered with.** A domain error that names its problems (the rules engine's
  `RulesError`, scoring's `GameError` and the tournaments' and clubs' kinds built on it) is an
  *answered error* (`is_answered`): its problems (each `where` and `message`) are the answer, and
  its kind's `http_status` class attribute the status (`status_for`; none means bad input, 400).
  The kinds are recognised by their shape, not their class: this module is the bottom layer and
  imports nothing of scoring, and the rules engine imports no Django (so no status either).
- **The API's body**, {"detail": first message, "errors": [{"where", "message"}, ...]}:
  `error_body` (and `api_error` for one problem). The API's exception handler
  (scoring/api/errors.py), the middleware (golfclub/middleware.py: bodies too large, non-JSON error
  answers under /api/) and the input guard (golfclub/input_guard.py) all answer through it.
- **A page's refusal.** `catch_refusal()` turns an answered error raised in its block into a `Refusal`
  (problems, messages, status) that the view shows on its form (`golfclub.core.form_fields.place_problems`);
  `flash_refusal(request)` shows it as error messages on the next page. Views never catch and format
  answered errors themselves.
- **A page refused by its access call** (`game_for_page`, `tournament_page_for`, `club_for_user`:
  a game's link that may only watch, a managed game's table link asked to manage, someone without
  the role, an anonymous visitor to send to log in, a method the page does not take) raises a
  `PageRefusal` naming the page to show (or carries one: the clubs' `NotAnOwner`, which the API
  answers too, as its `page_refusal`); `refused_page` answers it, from one place
  (`PageRefusalMiddleware`, golfclub/middleware.py). What is not there, or may not be seen, is
  `Http404`: the site's 404 page, for every page alike.
- **Site-wide answers** (handler400/403/404/500 in golfclub/urls.py, CSRF_FAILURE_VIEW): JSON under
  /api/, a page elsewhere; a database that does not answer is a 503 (`server_error`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any, Protocol

from django.contrib import messages
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from golfclub.core.return_to import page_to_return_to


class ProblemLike(Protocol):
    """One thing wrong with a request: where it is (a path into the request) and what is wrong.
    `scoring.rules.errors.Problem` is one; the bodies below accept any object of this shape."""

    where: str
    message: str


#: The status of an answered error whose kind names none: the client's bad input.
DEFAULT_ERROR_STATUS = 400


def is_answered(error: BaseException) -> bool:
    """True for a domain error answered with its problems (a `RulesError`, a `GameError` and every
    kind built on them: each carries a non-empty tuple `problems`); anything else is a bug (500)."""
    problems = getattr(error, "problems", None)
    return isinstance(error, Exception) and isinstance(problems, tuple) and bool(problems)


def status_for(error: BaseException) -> int:
    """The HTTP status answered for `error`: its kind's `http_status` (inherited from the nearest
    base that sets one), else 400."""
    return int(getattr(type(error), "http_status", DEFAULT_ERROR_STATUS))


def problems_of(error: BaseException) -> list[ProblemLike]:
    """The problems an answered error names (each with `where` and `message`), in its order."""
    return list(getattr(error, "problems", ()))


def _problem_dict(problem: ProblemLike | Mapping[str, str]) -> dict[str, str]:
    """{"where", "message"} of a problem object or of a mapping that already has both keys."""
    if isinstance(problem, Mapping):
        return {"where": str(problem["where"]), "message": str(problem["message"])}
    return {"where": problem.where, "message": problem.message}


def error_body(problems: Iterable[ProblemLike | Mapping[str, str]]) -> dict[str, Any]:
    """The body of every error answer of the API: {"detail": the first message (for clients that
    show one line), "errors": [{"where", "message"}, ...] (every problem, not only the first)}."""
    errors = [_problem_dict(problem) for problem in problems]
    return {
        "detail": errors[0]["message"] if errors else _("The request could not be handled."),
        "errors": errors,
    }


def answered_body(error: BaseException) -> dict[str, Any]:
    """The API's body for an answered error: its problems."""
    return error_body(problems_of(error))


def api_error(status: int, where: str, message: str) -> JsonResponse:
    """The API's error answer with one problem."""
    return JsonResponse(error_body([{"where": where, "message": message}]), status=status)


@dataclass
class Refusal:
    """What a page's request was refused, caught by `catch_refusal()`: empty (false) while nothing was."""

    error: Exception | None = None

    def __bool__(self) -> bool:
        return self.error is not None

    @property
    def problems(self) -> list[ProblemLike]:
        """The problems to show (on the form's fields they name, or at its top)."""
        return problems_of(self.error) if self.error is not None else []

    @property
    def messages(self) -> list[str]:
        """Each problem's message, in order."""
        return [problem.message for problem in self.problems]

    @property
    def status(self) -> int:
        """The status the page is answered with: the error kind's (200 when nothing was refused)."""
        return status_for(self.error) if self.error is not None else 200

    def flash(self, request: HttpRequest) -> None:
        """Show each problem as an error message on the next page (for a form that redirects)."""
        for message in self.messages:
            messages.error(request, message)

    def raise_if_not_found(self) -> None:
        """A refusal saying that what the request names is not there (404) is the site's 404 page."""
        if self.status == 404:
            raise Http404(self.messages[0])


@contextmanager
def catch_refusal() -> Iterator[Refusal]:
    """Run a service call; an answered error it raises becomes the yielded `Refusal` instead of
    propagating (the block stops there). Any other exception propagates: it is a bug, a 500.

        with catch_refusal() as refused:
            entrant = services.add_entrant(...)
        if refused:
            place_problems(form, refused.problems)
            return players_page(request, form=form, status=refused.status)
    """
    refused = Refusal()
    try:
        yield refused
    except Exception as error:
        if not is_answered(error):
            raise
        refused.error = error


@contextmanager
def flash_refusal(request: HttpRequest) -> Iterator[None]:
    """Like `catch_refusal()`, for a form that redirects either way: each problem of an answered error
    raised in the block is shown as an error message on the next page."""
    with catch_refusal() as refused:
        yield
    refused.flash(request)


class PageRefusal(Exception):
    """A page's request refused by its access call (`game_for_page`, `tournament_page_for`,
    `club_for_user`): no view answers it; `refused_page` does, for every page, from
    `PageRefusalMiddleware` (golfclub/middleware.py). `template` is rendered with `context` at
    `status`. (Not found is not a refusal of this kind: the access calls raise `Http404`, the site's
    404 page.)"""

    def __init__(self, status: int, template: str, context: Mapping[str, Any]) -> None:
        super().__init__(f"{status} {template}")
        self.status = status
        self.template = template
        self.context = dict(context)


class MethodNotTaken(PageRefusal):
    """405: the page does not take the request's method (Django's empty answer, with Allow)."""

    def __init__(self, allowed: Sequence[str]) -> None:
        super().__init__(405, "", {})
        self.allowed = list(allowed)


class LoginFirst(PageRefusal):
    """An anonymous visitor of a page that needs a role: to the login page, then to `then` (this
    page when not given)."""

    def __init__(self, then: str | None = None) -> None:
        super().__init__(302, "", {})
        self.then = then


class NotAllowedHere(PageRefusal):
    """403: the site's plain "not allowed" page (`error.html`), saying so without details."""

    def __init__(self) -> None:
        message = _("You are not allowed to do that here.")
        super().__init__(403, "error.html", {"title": _("Not allowed"), "message": message})


def page_refusal_of(error: BaseException) -> PageRefusal | None:
    """The page refusal `error` is, or carries (an access refusal the API answers too, such as the
    clubs' `NotAnOwner`, names the page refusal it is for a page as its `page_refusal`); else None."""
    if isinstance(error, PageRefusal):
        return error
    carried = getattr(error, "page_refusal", None)
    return carried if isinstance(carried, PageRefusal) else None


def refused_page(request: HttpRequest, refusal: PageRefusal) -> HttpResponse:
    """The answer of a page's refused request: the refusal's page at its status (405: no body; a
    login first: the login page's redirect)."""
    if isinstance(refusal, MethodNotTaken):
        return HttpResponseNotAllowed(refusal.allowed)
    if isinstance(refusal, LoginFirst):
        from django.contrib.auth.views import redirect_to_login  # auth's models: apps loaded

        to_login = redirect_to_login(refusal.then or page_to_return_to(request))
        if request.headers.get("HX-Request"):
            # A part of a page (a poll, a button) whose session ended: the whole page goes to the
            # login, not the login page into the part.
            answer = HttpResponse(status=200)
            answer["HX-Redirect"] = to_login.url
            return answer
        return to_login
    return render(request, refusal.template, refusal.context, status=refusal.status)


def wants_json(request: HttpRequest) -> bool:
    """Every answer under /api/ is JSON, whatever went wrong and wherever."""
    return request.path.startswith("/api/")


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


# Headers an error answer carries that clients act on; kept when the body is reshaped.
_KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate", "Vary", "Content-Security-Policy")


def _status_message(response: HttpResponse, request: HttpRequest) -> str:
    """A sentence for an error status that arrived without one in the API's shape."""
    status = response.status_code
    if status == 405:
        return _("%(method)s is not allowed here; allowed: %(allowed)s.") % {
            "method": request.method,
            "allowed": response.get("Allow", "") or "-",
        }
    if status == 429:
        return _("Too many requests. Try again in %(seconds)s seconds.") % {
            "seconds": response.get("Retry-After", "60")
        }
    known = {
        400: _("The request could not be understood."),
        403: _("You are not allowed to do that here."),
        404: _("Nothing is at %(path)s.") % {"path": request.path},
        413: _("The request body is too large."),
        415: _("The API reads JSON bodies only."),
    }
    if status in known:
        return known[status]
    if status >= 500:
        return _("Something went wrong on our side. Nothing you entered was half-saved; please try again.")
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return _("The request could not be handled.")


def reshaped_api_error(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """An /api/ error answer that is not JSON (Django's HttpResponseNotAllowed, a third-party view,
    a handler that rendered HTML) in the API's shape: same status, same Allow / Retry-After headers."""
    status = response.status_code
    where = {404: "url", 413: "body"}.get(status, "server" if status >= 500 else "request")
    reshaped = api_error(status, where, _status_message(response, request))
    for name in _KEPT_HEADERS:
        if name in response:
            reshaped[name] = response[name]
    return reshaped
