"""The `Idempotency-Key` contract on the POSTs of the games and calculator API.

Every POST of the API takes the header (SPEC "Safe writes"): a write sent with a key is carried out
once; a copy (a retry, a double tap, the offline queue sending again, copies arriving at once)
answers the first answer (status, body, `Location`) with `Idempotent-Replayed: true` and writes
nothing; the same key with another body answers 422; an empty or unusable key answers 400 naming
the header. Where an anonymous client's keys are kept by its address only (starting a game with no
account), the key is the only secret between people sharing that address, so a key shorter than
`MIN_ANONYMOUS_IDEMPOTENCY_KEY` is refused there (400 naming the header) before anything is written.

The store that does this, with its race safety on PostgreSQL, is the one of every app's keyed
writes (`scoring.services.idempotency`: a table of keys and first answers); `call_once` reads the
request around it, for the games' and clubs' POSTs (`write_once`) and the tournament API's writes
(`tournaments.api.idempotency`) alike. Only answers of 2xx are kept: a request refused (4xx) wrote
nothing and keeps nothing, so its retry is tried again.

A hole's POST keeps its key in the same store but takes it under the game's row lock, not through
`call_once` (`scoring.services.idempotency`, "A game's keys": its replay is built from the hole as
it stands now). Ending or resuming a game takes both: the API's key through `call_once` (its first
answer) and the game's own key, taken by the service under the game's lock (which also serves the
pages' and the offline queue's endings); POSTs that only compute (the calculator) write
nothing and are safe to repeat as they are: they check the header and document it (`SAFE_TO_REPEAT`).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from golfclub.core.client_ip import client_ip
from golfclub.core.limits import MIN_ANONYMOUS_IDEMPOTENCY_KEY
from scoring.game_errors import GameError
from scoring.rules.errors import Problem
from scoring.services.idempotency import Answer, Claim, Replayed, run_once, scope_for

from .games.concurrency import body_hash, idempotency_key

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
        "same key with another body or address answers 422. Keys belong to the logged-in user, "
        "else to the game's link, else (creating a game without an account) to the client's "
        f"address: there the key must be at least {MIN_ANONYMOUS_IDEMPOTENCY_KEY} characters "
        "(else 400), such as a UUID, so that nobody sharing the address can guess it. Keys are "
        "kept 7 days."
    ),
)
SAFE_TO_REPEAT = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description=(
        "Accepted (1 to 255 printable characters, else 400) and not needed: this POST only computes "
        "and writes nothing, so sending it again is always safe and answers the same."
    ),
)


def write_once(view: Callable[..., Response], *, scope_by_address: bool = False) -> Callable[..., Response]:
    """Decorate a view (inside its @api_view) so that its POSTs honour the Idempotency-Key header.

    `scope_by_address`: a view reached without a link (creating a game) keeps an anonymous
    client's keys by its address, so that two strangers' keys never meet at two addresses; at one
    address (shared Wi-Fi, NAT, a proxy) only the key tells them apart, so it must be unguessable
    (`unguessable_key`)."""

    @functools.wraps(view)
    def once(request: Request, *args: Any, **kwargs: Any) -> Response:
        key = idempotency_key(request) if request.method == "POST" else None  # a bad key: 400
        if key is None:
            return view(request, *args, **kwargs)
        scope = None
        user = getattr(request, "user", None)
        if scope_by_address and not (user is not None and user.is_authenticated):
            unguessable_key(key)
            scope = "addr:" + hashlib.sha256(client_ip(request).encode()).hexdigest()[:64]
        return call_once(request, view, args, kwargs, scope)

    return once


def unguessable_key(key: str) -> None:
    """Refuse (400 naming the header) a key kept by the client's address only that is too short to
    be secret: anyone behind the same address sending the same body and key would get the first
    answer replayed, a new game's edit token and links among it."""
    if len(key) < MIN_ANONYMOUS_IDEMPOTENCY_KEY:
        raise GameError(
            Problem(
                "Idempotency-Key",
                _(
                    "Without an account or a game link, an Idempotency-Key must be at least %(min)s "
                    "characters, such as a UUID, so that nobody sharing your address can guess it."
                )
                % {"min": MIN_ANONYMOUS_IDEMPOTENCY_KEY},
            )
        )


def safe_to_repeat(view: Callable[..., Response]) -> Callable[..., Response]:
    """Decorate a POST that only computes: its Idempotency-Key is checked (400 when unusable), and
    needs nothing more, since the answer is the same however often it is sent."""

    @functools.wraps(view)
    def checked(request: Request, *args: Any, **kwargs: Any) -> Response:
        idempotency_key(request)
        return view(request, *args, **kwargs)

    return checked


def call_once(
    request: Request,
    view: Callable[..., Response],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    scope: str | None = None,
    *,
    about: str = "",
) -> HttpResponse:
    """`view(request, *args, **kwargs)` once per Idempotency-Key (every time without one), the key
    kept in `scope` (None: the user's, else the link's); `about`: what the write is about
    ("tournament:12"), whose deletion takes its keys along."""
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
        about=about,
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
