"""The `Idempotency-Key` header of the tournament API's writes, with the hole path's contract: the
first request is carried out; a replay with the same key and the same request answers the first
answer's status, body (and `Location`/`ETag`) with `Idempotent-Replayed: true` and writes
nothing; the same key with another request answers 422 naming the header. Only answers of 2xx
are kept: a request refused (4xx) wrote nothing and keeps nothing, so its retry is tried again.

`tournament_api` applies it to every write it makes; `call_once` is the runner the games API's
POSTs use (`scoring.api.write_once`, registered in `apps.ready`), a table's confirmation among
them. The storage and its race safety are `tournaments.services.idempotency`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api.games.concurrency import body_hash, idempotency_key
from tournaments.services.idempotency import Answer, Claim, Replayed, run_once, scope_for

#: The answer headers a replay repeats.
KEPT_HEADERS = ("Location", "ETag")

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description=(
        "A new key per write (a UUID is ideal; 1 to 255 printable characters, else 400). A retry "
        "with the same key and body answers the first answer (status, body, `Location`) with "
        "`Idempotent-Replayed: true` and writes nothing, even when the copies arrive at once; the "
        "same key with another body or address answers 422. Keys are kept 7 days."
    ),
)


def idempotent_call(
    request: Request, view: Callable[..., Response], *args: Any, **kwargs: Any
) -> HttpResponse:
    """`view(request, *args, **kwargs)` once per Idempotency-Key (every time without one)."""
    return call_once(request, view, args, kwargs)


def call_once(
    request: Request,
    view: Callable[..., Response],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    scope: str | None = None,
) -> HttpResponse:
    """`idempotent_call` with the key kept in `scope` (None: the user's, else the link's). The
    runner scoring's API POSTs use (`scoring.api.write_once`, registered in `apps.ready`)."""
    key = idempotency_key(request)  # a bad key: 400 naming the header
    if key is None:
        return view(request, *args, **kwargs)
    match = getattr(request, "resolver_match", None)
    claim = Claim(
        scope=scope or scope_for(getattr(request, "user", None), request.path),
        key=key,
        method=request.method or "",
        route=str(getattr(match, "route", "") or ""),
        request_hash=body_hash(
            {
                "method": request.method,
                "path": request.get_full_path(),
                "type": request.content_type.split(";")[0].strip().lower(),
                "body": request.data,
            }
        ),
        tournament_id=kwargs.get("tournament_id"),
    )
    outcome = run_once(claim, lambda: view(request, *args, **kwargs), _answer_of)
    if isinstance(outcome, Replayed):
        return replayed(outcome.answer)
    return outcome


def _answer_of(response: Response) -> Answer | None:
    """What to keep of a view's answer: its status, body and kept headers (2xx only)."""
    if not 200 <= response.status_code < 300:
        return None
    data = getattr(response, "data", None)
    # The text the client receives (the API speaks JSON only): a replay sends the same bytes.
    body = "" if data is None else JSONRenderer().render(data).decode()
    headers = {name: response[name] for name in KEPT_HEADERS if response.has_header(name)}
    if body:
        headers["Content-Type"] = "application/json"
    return Answer(response.status_code, body, headers)


def replayed(answer: Answer) -> HttpResponse:
    """The first answer again, marked `Idempotent-Replayed: true`."""
    response = HttpResponse(answer.body, status=answer.status)
    if not answer.body:
        del response["Content-Type"]
    for name, value in {**answer.headers, "Idempotent-Replayed": "true"}.items():
        response[name] = value
    return response
