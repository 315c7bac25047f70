"""The `Idempotency-Key` header of the tournament API's writes, with the games API's contract: the
first request is carried out; a replay with the same key and the same request answers the first
answer's status, body (and `Location`/`ETag`) with `Idempotent-Replayed: true` and writes
nothing; the same key with another request answers 422 naming the header.

`tournament_api` applies it to every write it makes, through scoring's one store
(`scoring.api.write_once.call_once`, on `scoring.services.idempotency`), the keys tagged with the
event they are about. A table's confirmation is a games API POST (`scoring.api.write_once`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api.write_once import call_once

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
    """`view(request, *args, **kwargs)` once per Idempotency-Key (every time without one), the key
    kept in the one store (`scoring.api.write_once.call_once`) with the event it is about, whose
    deletion takes it along."""
    tournament_id = kwargs.get("tournament_id")
    about = f"tournament:{tournament_id}" if tournament_id is not None else ""
    return call_once(request, view, args, kwargs, about=about)
