"""Downloads of a club's data (`/clubs/<id>/export/...`): its games and members as CSV or JSON, a
member's games as BG Stats-style JSON. A public club's for anyone, a private club's for its owners
(`clubs.access`: others get the 404 of a club that does not exist for them)."""

from __future__ import annotations

import json
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from clubs import exports
from clubs.access import ClubCapability, club_for_user, member_of


def _download(content: str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _json(data: Any, filename: str) -> HttpResponse:
    return _download(json.dumps(data, ensure_ascii=False, indent=1), filename, "application/json")


@require_GET
def export_table(request: HttpRequest, club_id: int, what: str, fmt: str) -> HttpResponse:
    """`games.csv`, `games.json`, `members.csv` or `members.json` of the club."""
    grant = club_for_user(request.user, club_id, ClubCapability.VIEW)
    if what not in ("games", "members") or fmt not in ("csv", "json"):
        raise Http404
    name = f"{slugify(grant.club.name) or 'club'}-{what}.{fmt}"
    if fmt == "csv":
        build = exports.club_games_csv if what == "games" else exports.club_members_csv
        return _download(build(grant.club), name, "text/csv; charset=utf-8")
    rows = exports.club_games(grant.club) if what == "games" else exports.club_members(grant.club)
    return _json({what: rows}, name)


@require_GET
def export_member_bgstats(request: HttpRequest, club_id: int, member_id: int) -> HttpResponse:
    """A member's finished games as BG Stats-style JSON."""
    grant = club_for_user(request.user, club_id, ClubCapability.VIEW)
    member = member_of(grant, member_id)
    return _json(exports.member_bgstats(member), f"{slugify(member.name) or 'member'}-bgstats.json")
