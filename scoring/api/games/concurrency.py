"""HTTP concurrency helpers for the games API: ETags, If-Match, If-None-Match, Idempotency-Key.

The checks themselves happen in the database (a conditional UPDATE on the hole's version, a unique
idempotency key per game); these helpers only read and write the headers.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request

from golfclub.core.inputs import INT_MAX
from golfclub.core.limits import MAX_IDEMPOTENCY_KEY
from scoring.game_errors import GameError, StaleVersion, VersionRequired
from scoring.rules.errors import Problem

_TAG = re.compile(r'^"(?P<kind>[a-z]+)-(?P<id>[0-9]{1,18})(?:-v(?P<version>[0-9]{1,18}))?"$')


class PreconditionRequired(VersionRequired):
    """HTTP 428: a change to a hole needs an If-Match header with the hole's ETag."""


class PreconditionFailed(StaleVersion):
    """HTTP 412: the If-Match header names no current version of the hole."""


def etag(kind: str, pk: int, version: int | None = None) -> str:
    """A strong ETag naming one resource and one version of it: `"hole-41-v3"`, `"game-7-v12"`.

    The id is the row's primary key, which never changes (holes keep it when renumbered), so a
    validator read from one hole can never match another, whatever happens to the numbers.
    A resource without versions (a seat) is named by its id alone: `"seat-5"`.
    """
    return f'"{kind}-{pk}"' if version is None else f'"{kind}-{pk}-v{version}"'


@dataclass(frozen=True)
class Validator:
    """What an If-Match header names: a resource id and version (version None: the id alone)."""

    pk: int
    version: int | None


def if_match(
    request: Request,
    kind: str,
    *,
    allow_any: bool = True,
    current: Callable[[], Validator | None] | None = None,
) -> Validator | None:
    """The `kind` resource and version the client's If-Match names; None for `*` (any version).

    A header may list several ETags: any of them may match (RFC 9110). With more than one, the one
    equal to `current()` (what is stored now) is answered, else the first; the change then checks
    it under the game lock, as for one.

    Raises `PreconditionRequired` (428) without the header, or with `*` where `allow_any` is
    False (a delete must name what it deletes: the message names `*` and says why), and
    `PreconditionFailed` (412) when it names no resource of this kind.
    """
    header = request.headers.get("If-Match", "").strip()
    label = _label(kind)
    if header == "*" and not allow_any:
        raise PreconditionRequired(Problem("If-Match", _any_refused(label)))
    if not header:
        raise PreconditionRequired(
            Problem(
                "If-Match",
                _(
                    "Send an If-Match header with the %(label)s's ETag (from GET): it makes sure the "
                    "change reaches what you read, and that a retry changes nothing more."
                )
                % {"label": label},
            )
        )
    if header == "*":
        return None
    named = _validators(header, kind)
    if len(named) > 1 and current is not None:
        now = current()
        return next((validator for validator in named if validator == now), named[0])
    if named:
        return named[0]
    shown = header if len(header) <= 80 else header[:80] + "\u2026"
    raise PreconditionFailed(
        Problem(
            "If-Match",
            _("The If-Match header %(value)s is not an ETag of a %(label)s (read it again with GET).")
            % {"value": shown, "label": label},
        )
    )


def _any_refused(label: str) -> str:
    """Why `If-Match: *` cannot delete here. RFC 9110 lets `*` match whatever is current; what a
    number names here moves (later holes and seats move up after a delete), so `*` would match
    the next one, and a retried DELETE would remove a second."""
    return _(
        "If-Match: * cannot delete here: after a delete the next %(label)s takes this number, so * "
        "would match it too and a retried DELETE would remove a second one. Send the %(label)s's "
        "ETag (from GET) instead."
    ) % {"label": label}


def _label(kind: str) -> str:
    """What a `kind` of ETag names, in the reader's words (the tournament API uses these too)."""
    labels = {
        "hole": _("hole"),
        "seat": _("player"),
        "player": _("player"),
        "round": _("round"),
        "tournament": _("tournament"),
    }
    return labels.get(kind, kind)


def _validators(header: str, kind: str) -> list[Validator]:
    """Every ETag of `kind` in an If-Match header, in order."""
    named = []
    for candidate in header.split(",")[:20]:
        found = _TAG.match(candidate.strip())
        versioned = kind != "seat"  # holes and games are named with their version; seats by id
        if found and found.group("kind") == kind and (found.group("version") is not None) == versioned:
            version = found.group("version")
            if int(found.group("id")) > INT_MAX or (version is not None and int(version) > INT_MAX):
                continue  # no row has such an id or version: name nothing
            named.append(Validator(int(found.group("id")), int(version) if version is not None else None))
    return named


def not_modified(request: HttpRequest | Request, tag: str) -> HttpResponse | None:
    """The 304 answer (with its ETag) when the request's If-None-Match names `tag`, else None.

    Django's `get_conditional_response` compares, as RFC 9110 asks: weakly (`W/"x"` matches
    `"x"`), and `*` alone matches any current representation. Only its 304 is taken: these GETs
    check no If-Match or If-Unmodified-Since (a write checks its If-Match under its lock, and
    Django would refuse any If-Unmodified-Since of a resource without a date), so they answer
    as they always did.
    """
    answer = get_conditional_response(request, etag=tag)
    if answer is None or answer.status_code != HTTPStatus.NOT_MODIFIED:
        return None
    answer["ETag"] = tag
    return answer


def idempotency_key(request: Request) -> str | None:
    """The request's Idempotency-Key header, checked (printable, 1 to 255 characters), or None
    without the header. A header sent empty is refused, not taken for no key: the client meant to
    be safe against a retry and would not be."""
    header = request.headers.get("Idempotency-Key")
    if header is None:
        return None
    key = header.strip()
    if not key or len(key) > MAX_IDEMPOTENCY_KEY or not key.isprintable():
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
    description=(
        'The ETag of the hole as last read (e.g. "hole-41-v3": hole id 41, version 3). Missing: 428. '
        "Changed, renumbered or deleted since: 412. `*` changes whatever is current."
    ),
)
IF_MATCH_DELETE = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description=(
        "The ETag of what to delete as last read. Missing: 428. `*` (which RFC 9110 lets match "
        "whatever is current) is refused here with 428 naming `*`: the next one takes the deleted "
        "one's number, so `*` would match it too. Already deleted, renumbered or changed since: "
        "412, so a retried DELETE never removes a second one."
    ),
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
