"""ETags of the tournament API, with the games API's helpers (`scoring.api.games.concurrency`).

A strong ETag names one resource and one version of it:

- a tournament: `"tournament-7-v42"` (id 7, the event's version 42);
- a player: `"player-31-v42"` (player id 31, at the event's version 42: everything a player's
  answer shows, their record hole by hole included, moves that version on);
- a round: `"round-12-v5"` (the round's row id 12, the round's version 5; not its number).

The versions are `tournaments.live_versions`': the row's own version plus its tables' games'
versions, read from committed data, so a hole moves them in its own transaction.

GET answers the ETag, and `If-None-Match` naming it answers 304 with no body. A write answers the
new ETag of what it changed. `If-Match` is optional here (unlike a hole's, where it is required):
without it (or with `*`) a write changes whatever is current; with it, the service compares the
version under its lock and a stale one is a 412 that writes nothing (`tournaments.services.versions`).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework.request import Request

from scoring.api.errors import ErrorSerializer
from scoring.api.games.concurrency import (
    IF_NONE_MATCH,
    PreconditionFailed,
    Validator,
    etag,
    if_match,
    not_modified,
)
from scoring.rules.errors import Problem
from tournaments.live_versions import event_version, round_version
from tournaments.models import Round, Tournament

__all__ = [
    "IF_NONE_MATCH",
    "NOT_MODIFIED",
    "PRECONDITION_FAILED",
    "expected_version",
    "if_match_parameter",
    "not_modified_answer",
    "player_etag",
    "round_etag",
    "tagged",
    "tournament_etag",
    "tournament_version",
]


def tournament_etag(tournament: Tournament) -> str:
    """`"tournament-<id>-v<version>"` (the event's version as committed now)."""
    return etag("tournament", tournament.pk, event_version(tournament))


def player_etag(player_id: int, tournament_version: int) -> str:
    """`"player-<id>-v<tournament version>"`."""
    return etag("player", player_id, tournament_version)


def round_etag(round_: Round) -> str:
    """`"round-<row id>-v<version>"` (the round's version as committed now)."""
    return etag("round", round_.pk, round_version(round_))


def tournament_version(tournament_id: int) -> int:
    """The event's version now (`live_versions.event_version`; after a write, what it moved to)."""
    return event_version(tournament_id)


def expected_version(request: Request, kind: str, pk: int, current: int | None = None) -> int | None:
    """The version of the `kind` resource `pk` that the request's If-Match names, for the service
    to check under its lock; None without the header (optional here) or with `*`.

    `current` (the version read before the lock) only picks among several listed ETags. Raises
    `PreconditionFailed` (412) for a header naming no ETag of this kind, or another resource."""
    if not request.headers.get("If-Match", "").strip():
        return None
    now = (lambda: Validator(pk, current)) if current is not None else None
    named = if_match(request, kind, current=now)
    if named is None:
        return None
    if named.pk != pk:
        raise PreconditionFailed(
            Problem(
                "If-Match",
                _("The If-Match header names another %(kind)s than this one (read it again with GET).")
                % {"kind": _("player") if kind == "player" else _("round") if kind == "round" else kind},
            )
        )
    return named.version


def tagged[R: HttpResponse](response: R, tag: str) -> R:
    """`response` with its ETag; it varies with who asks (a role, the staff's links)."""
    response["ETag"] = tag
    patch_vary_headers(response, ("Authorization", "Cookie"))
    return response


def not_modified_answer(request: Request, tag: str) -> HttpResponse | None:
    """A 304 when the request's If-None-Match names `tag` (the resource is unchanged), else None."""
    unchanged = not_modified(request, tag)
    return None if unchanged is None else tagged(unchanged, tag)


def if_match_parameter(what: str, example: str) -> OpenApiParameter:
    """The optional If-Match header of a write changing `what`, for the schema."""
    return OpenApiParameter(
        "If-Match",
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        required=False,
        description=(
            f"Optional: the ETag of {what} as last read (e.g. `{example}`). Changed since: 412 and "
            "nothing is written. Missing or `*`: the change applies to whatever is current."
        ),
    )


NOT_MODIFIED: dict[int | str, Any] = {
    304: OpenApiResponse(description="Not Modified: the If-None-Match ETag is still current (no body).")
}
PRECONDITION_FAILED: dict[int | str, Any] = {
    412: OpenApiResponse(
        ErrorSerializer,
        description="The If-Match ETag is stale (changed since it was read) or names something else: "
        "nothing was written.",
    )
}
