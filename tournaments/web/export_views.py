"""Exports and printouts of an event.

Exports (`/tournaments/<id>/export/<what>.<format>`): the standings and every score, as CSV
(UTF-8 with a byte-order mark, a header row, text cells made spreadsheet-safe) or JSON, downloaded
as files. They show what the viewer's standings page shows: the staff everything live, the public
as the director released it (`tournaments.access`: VIEW, so a private event is a 404 to strangers).

Printouts (print CSS in `static/css/print.css`, checked as PDF in Chromium by the tests): a round's
seating by name and by table, paper score slips for every table (the fallback when phones fail:
seat order and who deals each hole), and the results with the tiebreak columns.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils.text import slugify

from tournaments.access import Action
from tournaments.exports import SCORE_HEADER, csv_lines, score_csv_rows, score_rows, standings_table
from tournaments.standings import cached_standings
from tournaments.web.access import TournamentPage, tournament_page_for
from tournaments.web.event_day import by_table, name_pages, score_slips, seating_of
from tournaments.web.forms import TIEBREAK_LABELS
from tournaments.web.round_views import round_or_404


def _filename(page: TournamentPage, what: str, extension: str) -> str:
    return f"{slugify(page.tournament.name) or 'tournament'}-{what}.{extension}"


def export(request: HttpRequest, pk: int, what: str, fmt: str) -> HttpResponse:
    """`standings` or `scores`, as `csv` or `json`, as a download."""
    page = tournament_page_for(request, pk, Action.VIEW)
    if what not in ("standings", "scores") or fmt not in ("csv", "json"):
        raise Http404("No such export.")
    live = page.sees_live_standings
    if what == "standings":
        table = cached_standings(page.tournament, live=live)
        if fmt == "json":
            body = table.to_api()
            response: HttpResponse = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
        else:
            header, rows = standings_table(table)
            response = StreamingHttpResponse(csv_lines(header, rows), content_type="text/csv; charset=utf-8")
    else:
        rows = score_rows(page.tournament, live=live)
        if fmt == "json":
            response = JsonResponse({"scores": rows}, json_dumps_params={"ensure_ascii": False})
        else:
            response = StreamingHttpResponse(
                csv_lines(SCORE_HEADER, score_csv_rows(rows)), content_type="text/csv; charset=utf-8"
            )
    response["Content-Disposition"] = f'attachment; filename="{_filename(page, what, fmt)}"'
    return response


def print_seating(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A round's seating, by name (to find one's table) then by table (to check a table)."""
    page = tournament_page_for(request, pk, Action.VIEW)
    round_ = round_or_404(page, number, seating=True)
    lines = seating_of(round_)
    return render(
        request,
        "tournaments/print_seating.html",
        page.context(round=round_, name_pages=name_pages(lines), tables=by_table(lines)),
    )


def print_slips(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A paper score slip per table of the round: players in seat order, a row per hole with who
    deals it, a total row and signatures."""
    page = tournament_page_for(request, pk, Action.SEE_LIVE)
    round_ = round_or_404(page, number)
    slips = score_slips(round_)
    return render(request, "tournaments/print_slips.html", page.context(round=round_, slips=slips))


def print_results(request: HttpRequest, pk: int) -> HttpResponse:
    """The results with every round, the penalties, the total and the tiebreak columns."""
    page = tournament_page_for(request, pk, Action.VIEW)
    table = cached_standings(page.tournament, live=page.sees_live_standings)
    columns = [str(TIEBREAK_LABELS.get(n, n)) for n, _v in table.lines[0].columns] if table.lines else []
    return render(request, "tournaments/print_results.html", page.context(standings=table, columns=columns))
