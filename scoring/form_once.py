"""One-time keys of the pages' forms that write: a double tap, or a browser sending a form again,
writes once. For every app's pages (games, clubs, tournaments).

Every form that writes carries a hidden `idempotency_key`, new at each render (`{% one_time_key %}`,
`scoring.templatetags.one_time_key`). The first POST with a key is carried out and its answer kept
with the write, in one transaction (`scoring.services.idempotency.run_once`, the one store of the
APIs' `Idempotency-Key` too): a copy of it, even one sent at the same moment, lands where the first
did (its redirect, or the row htmx swapped in) and writes nothing. The same key with other values
writes nothing either, and says so. A form shown again with its errors keeps nothing: correcting it
and sending it again is carried out.

`form_once` decorates a page view; `write_form_once` carries out one POST (the tournament pages'
decorator calls it with the event the write is about, whose deletion takes its keys along).
"""

from __future__ import annotations

import functools
import hashlib
import uuid
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.translation import gettext as _

from golfclub.core.limits import MAX_FORM_KEY
from scoring.game_errors import IdempotencyConflict
from scoring.services.idempotency import Answer, Claim, Replayed, run_once, scope_for, stored_answer

#: The hidden input's name (the hole form's, too).
FIELD = "idempotency_key"
_NOT_HASHED = {FIELD, "csrfmiddlewaretoken"}


def new_key() -> str:
    """A fresh one-time key for a form about to be shown."""
    return uuid.uuid4().hex


def write_form_once(
    request: HttpRequest, write: Callable[[], HttpResponse], *, about: str = ""
) -> HttpResponse:
    """`write()` once per form key: a copy of a POST already carried out is answered as the first
    was (with a note saying so) and writes nothing. Without a usable key, `write()` as before.
    `about`: what the write is about ("tournament:12"), whose deletion takes its keys along."""
    key = request.POST.get(FIELD, "") if request.method == "POST" else ""
    if not key or len(key) > MAX_FORM_KEY or not key.isprintable():
        return write()
    match = getattr(request, "resolver_match", None)
    claim = Claim(
        scope=scope_for(getattr(request, "user", None), request.path),
        key=key,
        method="POST",
        route=str(getattr(match, "route", "") or ""),
        request_hash=_form_hash(request),
        about=about,
    )
    htmx = bool(request.headers.get("HX-Request"))
    try:
        outcome = run_once(claim, write, functools.partial(_answer_of, htmx=htmx))
    except IdempotencyConflict:
        messages.error(
            request,
            _(
                "This form was already sent with other values, so nothing was changed now. "
                "Check the page, then fill the form in again."
            ),
        )
        first = stored_answer(claim.scope, claim.key)
        return HttpResponseRedirect(first.headers.get("Location", "/") if first else "/")
    if isinstance(outcome, Replayed):
        return _replayed(request, outcome.answer)
    return outcome


def form_once(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Decorate a page view so that its POSTs are carried out once per form key (`write_form_once`)."""

    @functools.wraps(view)
    def once(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method != "POST":
            return view(request, *args, **kwargs)
        return write_form_once(request, lambda: view(request, *args, **kwargs))

    return once


def _form_hash(request: HttpRequest) -> str:
    """The hash of the form's values (and files' contents), the CSRF token and the key aside."""
    digest = hashlib.sha256(request.path.encode())
    for name in sorted(set(request.POST) - _NOT_HASHED):
        for value in request.POST.getlist(name):
            digest.update(f"\0{name}={value}".encode())
    for name in sorted(request.FILES):
        for upload in request.FILES.getlist(name):
            digest.update(f"\0{name}@{upload.name}:".encode())
            for chunk in upload.chunks():
                digest.update(chunk)
            upload.seek(0)
    return digest.hexdigest()


def keeps_nothing(response: HttpResponse) -> HttpResponse:
    """Mark `response` (a redirect to a form shown again with its errors, post/redirect/get) as
    nothing to replay: the key stays free, as for a page shown again with its errors."""
    response.keeps_nothing = True  # type: ignore[attr-defined]
    return response


def _answer_of(response: HttpResponse, *, htmx: bool) -> Answer | None:
    """What a copy of the form gets: the redirect of a form carried out; for htmx, the fragment
    swapped in. A page shown again (its errors, a preview) keeps nothing."""
    if getattr(response, "keeps_nothing", False):
        return None
    if response.status_code in (301, 302, 303, 307, 308) and response.has_header("Location"):
        return Answer(response.status_code, "", {"Location": response["Location"]})
    if htmx and 200 <= response.status_code < 300 and not getattr(response, "streaming", False):
        return Answer(
            response.status_code, response.content.decode(), {"Content-Type": response["Content-Type"]}
        )
    return None


def _replayed(request: HttpRequest, answer: Answer) -> HttpResponse:
    if "Location" in answer.headers:
        messages.info(request, _("That form was sent twice: it was carried out once."))
        response = HttpResponseRedirect(answer.headers["Location"])
        response.status_code = answer.status
        return response
    return HttpResponse(answer.body, status=answer.status, content_type=answer.headers.get("Content-Type"))
