"""HTTP concurrency helpers for the games API: ETags, If-Match, If-None-Match, Idempotency-Key.

The checks themselves happen in the database (a conditional UPDATE on the hole's version, a unique
idempotency key per game); these helpers only read and write the headers.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request

from scoring.game_errors import GameError
from scoring.inputs import INT_MAX
from scoring.rules.errors import Problem

MAX_IDEMPOTENCY_KEY = 255
# Strong comparison: weak tags never match. ASCII digits only, and few enough for int().
_ETAG = re.compile(r'^"?(?:hole-)?([0-9]{1,12})"?$')


class PreconditionRequired(GameError):
    """HTTP 428: a change to a hole needs an If-Match header with the hole's ETag."""

    status = 428


class PreconditionFailed(GameError):
    """HTTP 412: the If-Match header names no current version of the hole."""

    status = 412


def etag(kind: str, version: int) -> str:
    """A strong ETag for a versioned resource: `"hole-3"`, `"game-12"`."""
    return f'"{kind}-{version}"'


def if_match_version(request: Request) -> int | None:
    """The version the client's If-Match header names; None for `*` (any version).

    Raises `PreconditionRequired` (428) without the header and `PreconditionFailed` (412) when it
    names no version of ours.
    """
    header = request.headers.get("If-Match", "").strip()
    if not header:
        raise PreconditionRequired(
            Problem(
                "If-Match",
                _(
                    "Send an If-Match header with the hole's ETag (from GET): it protects against "
                    "overwriting someone else's change."
                ),
            )
        )
    if header == "*":
        return None
    for candidate in header.split(","):
        found = _ETAG.match(candidate.strip())
        if found and int(found.group(1)) <= INT_MAX:
            return int(found.group(1))
    raise PreconditionFailed(
        _("The If-Match header %(value)s is not an ETag of this hole.") % {"value": header}
    )


def not_modified(request: Request, current: str) -> bool:
    """True when the client's If-None-Match already names the current ETag (answer 304)."""
    header = request.headers.get("If-None-Match", "")
    if not header:
        return False
    tags = {tag.strip().removeprefix("W/") for tag in header.split(",")}
    return "*" in tags or current in tags


def idempotency_key(request: Request) -> str | None:
    """The request's Idempotency-Key header, checked (printable, 255 characters at most), or None."""
    key = request.headers.get("Idempotency-Key", "").strip()
    if not key:
        return None
    if len(key) > MAX_IDEMPOTENCY_KEY or not key.isprintable():
        raise GameError(
            Problem(
                "Idempotency-Key", _("An Idempotency-Key is 1 to 255 printable characters (a UUID is ideal).")
            )
        )
    return key


def body_hash(data: Any) -> str:
    """SHA-256 of the parsed request body in a canonical form (key order and spacing do not matter)."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description='The ETag of the hole as last read (e.g. "hole-3"). Missing: 428. Stale: 412.',
)
IF_MATCH_OPTIONAL = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="The ETag of the hole as last read; when given, a stale version answers 412.",
)
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="The ETag of the last response: answers 304 Not Modified while nothing changed.",
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description=(
        "A unique key per new hole (e.g. a UUID). A retry with the same key and body returns the "
        "same hole and status; the same key with another body answers 422."
    ),
)
