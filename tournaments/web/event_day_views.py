"""Event day: the public page (schedule, the round's seating, find my table, the leaderboard that
refreshes itself) and the projector for the hall's screen.

The polled parts (the leaderboard, the projector's panels) carry an ETag built from the
tournament's version: a poll when nothing moved costs a 304 and no standings at all. The ETag is
private to the viewer (`Cache-Control: private, no-cache`): the staff and the public may see
different standings (the release setting).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.translation import gettext as _

from golfclub.core.qr import qr_svg
from tournaments.access import Action
from tournaments.clock import round_clock
from tournaments.models import RoundStatus
from tournaments.standings import StandingLine, Standings, cached_standings
from tournaments.web.access import TournamentPage, tournament_page_for
from tournaments.web.event_day import (
    MAX_FIND,
    by_name,
    by_table,
    event_etag,
    find_seats,
    schedule,
    seating_of,
    shown_round,
)
from tournaments.web.forms import TIEBREAK_LABELS

#: The leaderboard's refresh while the page is visible (the issue asks for 5 seconds at most).
LEADERBOARD_SECONDS = 5
#: How many lines the public page's leaderboard shows (the standings page has them all).
LEADERBOARD_LINES = 50
#: The projector: names per seating panel, standings lines per panel, panels. 40 names (2 columns
#: of 20) still fit at the projector's smallest type (static/js/projector.js: 2.3% of the screen's
#: height, 25 px at 1080 lines) when every name is as long as a name may be (40 characters), so
#: 1,000 players take 25 panels and never tiny type.
PROJECTOR_NAMES = 40
PROJECTOR_LINES = 10
PROJECTOR_STANDINGS_PANELS = 3
PROJECTOR_SECONDS = 12


def _leaderboard(page: TournamentPage, limit: int) -> dict[str, object]:
    table = cached_standings(page.tournament, live=page.sees_live_standings)
    columns = [str(TIEBREAK_LABELS.get(n, n)) for n, _v in table.lines[0].columns] if table.lines else []
    return {"standings": table, "lines": table.lines[:limit], "more": max(0, len(table.lines) - limit),
            "columns": columns}  # fmt: skip


def _cached(request: HttpRequest, etag: str) -> HttpResponse | None:
    """304 when the client already holds this ETag."""
    return get_conditional_response(request, etag=etag)


def _tagged(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    return response


def _table_qr(request: HttpRequest, token: str, table: int) -> str:
    """The QR code of a table's scoring link (only when the director lets the public page give it)."""
    return qr_svg(
        request.build_absolute_uri(f"/games/e/{token}/"),
        label=_("Table %(n)s's scoring link") % {"n": table},
    )


def public_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The event for players and spectators: schedule, seating, find my table, the leaderboard."""
    page = tournament_page_for(request, pk, Action.VIEW)
    tournament = page.tournament
    round_ = shown_round(tournament)
    seating = seating_of(round_)
    query = request.GET.get("q", "")
    query = query if isinstance(query, str) else ""
    too_long = len(query) > MAX_FIND or "\x00" in query
    found = [] if too_long else find_seats(seating, query)
    links = tournament.public_table_links and round_ is not None and round_.status == RoundStatus.PUBLISHED
    context = page.context(
        schedule=schedule(tournament),
        round=round_,
        tables=by_table(seating),
        query=query[:MAX_FIND],
        too_long=too_long,
        found=[(line, _table_qr(request, line.edit_token, line.table) if links else "") for line in found],
        show_links=links,
        poll_seconds=LEADERBOARD_SECONDS,
        **_leaderboard(page, LEADERBOARD_LINES),
    )
    status = 400 if too_long else 200
    if request.htmx and request.GET.get("find") == "1":
        return render(request, "tournaments/public.html#found", context, status=status)
    return render(request, "tournaments/public.html", context, status=status)


def leaderboard(request: HttpRequest, pk: int) -> HttpResponse:
    """The public page's leaderboard alone (polled): 304 while the tournament has not moved."""
    page = tournament_page_for(request, pk, Action.VIEW)
    etag = event_etag(page.tournament, live=page.sees_live_standings, variant="board")
    if (unchanged := _cached(request, etag)) is not None:
        return _tagged(unchanged, etag)
    response = render(
        request,
        "tournaments/public.html#leaderboard",
        page.context(poll_seconds=LEADERBOARD_SECONDS, **_leaderboard(page, LEADERBOARD_LINES)),
    )
    return _tagged(response, etag)


def _projector_context(page: TournamentPage) -> dict[str, object]:
    """The projector's panels. Once the event is final the hall sees the winners and the final
    standings, no longer the last round's seating (issue 31)."""
    tournament = page.tournament
    board = _leaderboard(page, PROJECTOR_LINES * PROJECTOR_STANDINGS_PANELS)
    table: Standings = board["standings"]  # type: ignore[assignment]
    lines = list(board["lines"])  # type: ignore[call-overload]
    round_ = None if table.final else shown_round(tournament)
    names = by_name(seating_of(round_))
    return page.context(
        round=round_,
        clock=round_clock(tournament, round_) if round_ and round_.status == RoundStatus.PUBLISHED else None,
        seating_panels=[names[i : i + PROJECTOR_NAMES] for i in range(0, len(names), PROJECTOR_NAMES)],
        standings_panels=[lines[i : i + PROJECTOR_LINES] for i in range(0, len(lines), PROJECTOR_LINES)],
        winners=_podium(table) if table.final else [],
        standings=table,
        rotate_seconds=PROJECTOR_SECONDS,
        poll_seconds=PROJECTOR_SECONDS,
    )


def _podium(table: Standings) -> list[StandingLine]:
    """The first three places of final standings (players sharing a place all shown), complete
    records only: the winners the hall applauds."""
    return [line for line in table.lines if line.complete and line.rank <= 3]


def projector(request: HttpRequest, pk: int) -> HttpResponse:
    """The hall's screen: the round and its clock, the seating by name, then the standings, in
    panels that take turns; the panels refresh without a reload."""
    page = tournament_page_for(request, pk, Action.VIEW)
    return render(request, "tournaments/projector.html", _projector_context(page))


def projector_panels(request: HttpRequest, pk: int) -> HttpResponse:
    """The projector's panels alone (polled): 304 while the tournament has not moved."""
    page = tournament_page_for(request, pk, Action.VIEW)
    etag = event_etag(page.tournament, live=page.sees_live_standings, variant="projector")
    if (unchanged := _cached(request, etag)) is not None:
        return _tagged(unchanged, etag)
    response = render(request, "tournaments/projector.html#panels", _projector_context(page))
    return _tagged(response, etag)
