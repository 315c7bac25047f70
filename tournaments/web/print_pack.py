"""A round's print pack: one PDF with, in the order a director hands them out,

1. the seating by name (name -> table, seat), for the wall by the door;
2. a card per table (its players in seat order, who deals first, its link's QR code), one a page;
3. a paper score slip per table (the fallback when a phone fails), one a page.

It draws the parts of the printable pages (`print_seating.html#by-name`, `table_cards.html#card`,
`print_slips.html#slip`) with their print CSS, so the PDF and the browser's printout are one
layout; `tournaments.web.pdf` turns it into a PDF. The staff's only, as the table cards (their QR
codes score the tables), and a round's seating is not shown before it is published but to them.

A big round's pack comes in parts (`pack_parts`): drawing is WeasyPrint's layout, 0.15 to 0.3 s
of CPU a table (its card and its slip, the slip's table most of it), so a 250-table pack took 30
to 60 s of a server core, past gunicorn's default timeout (docs/performance.md). A round of more
than `TABLES_PER_PART` tables is offered as the seating by name (for the wall; "Seating by name,
1-360", "361-720", ... for more than `NAMES_PER_PART` players), then "Tables 1-25", "Tables
26-50", ... (each its cards, then its slips): each part a few seconds.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.access import Action
from tournaments.models import Round, Table
from tournaments.web.access import TournamentPage, tournament_page_for
from tournaments.web.event_day import NAMES_PER_PAGE, name_pages, score_slips, seating_of
from tournaments.web.pdf import PAPER_SIZES, html_to_pdf
from tournaments.web.round_views import round_or_404
from tournaments.web.table_cards import table_cards_of

PACK_STYLESHEETS = ["css/print.css", "css/print-pack.css"]
#: The most tables one PDF of a round's pack holds: 25 cards and 25 slips, 50 pages, 4 to 8 s of
#: a server core (docs/performance.md), a quarter of gunicorn's 30 s default.
TABLES_PER_PART = 25
#: The most names one PDF of the seating by name holds: 4 pages of 90, 5 to 7 s of a server core.
NAMES_PER_PART = 4 * NAMES_PER_PAGE


@dataclass(frozen=True)
class PackPart:
    """One PDF of a round's pack: its `key` (the URL's `?part=`; "" for the whole pack), the link's
    `label`, the lines of the seating by name it holds (numbered from 1 in name order) and the
    numbers of the tables whose card and slip it holds."""

    key: str
    label: str
    names: range
    tables: range


def pack_parts(table_count: int, player_count: int) -> list[PackPart]:
    """The PDFs of the pack of a round of `table_count` tables (numbered from 1) and `player_count`
    players, in the order a director hands them out: the whole pack in one when the round has at
    most `TABLES_PER_PART` tables; otherwise the seating by name (`NAMES_PER_PART` names a part),
    then the tables `TABLES_PER_PART` at a time."""
    if table_count <= TABLES_PER_PART:
        return [PackPart("", _("Print pack (PDF)"), range(1, player_count + 1), range(1, table_count + 1))]
    parts = []
    for first in range(1, player_count + 1, NAMES_PER_PART):
        last = min(first + NAMES_PER_PART - 1, player_count)
        if player_count <= NAMES_PER_PART:
            key, label = "seating", _("Seating by name")
        else:
            key = f"names-{first}-{last}"
            label = _("Seating by name, %(first)s\u2013%(last)s") % {"first": first, "last": last}
        parts.append(PackPart(key, label, range(first, last + 1), range(0)))
    for first in range(1, table_count + 1, TABLES_PER_PART):
        last = min(first + TABLES_PER_PART - 1, table_count)
        if first == last:
            label = _("Table %(n)s") % {"n": first}
        else:
            label = _("Tables %(first)s\u2013%(last)s") % {"first": first, "last": last}
        parts.append(PackPart(f"{first}-{last}", label, range(0), range(first, last + 1)))
    return parts


def pack_html(request: HttpRequest, page: TournamentPage, round_: Round, part: PackPart | None = None) -> str:
    """The print pack of `round_` (or its `part`) as one HTML document (a fixed number of queries)."""
    tables = part.tables if part else None
    names = part.names if part else None
    context = page.context(
        round=round_,
        name_pages=name_pages(seating_of(round_), names=names) if names is None or names else [],
        cards=table_cards_of(request, round_, tables) if tables is None or tables else [],
        slips=score_slips(round_, tables) if tables is None or tables else [],
    )
    return render_to_string("tournaments/print_pack.html", context, request=request)


def print_pack(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Round `number`'s print pack as a PDF (A4, or US Letter with `?paper=letter`), opened in the
    browser's viewer to print or save; a big round's in parts (`?part=seating`, `?part=1-50`...)."""
    page = tournament_page_for(request, pk, Action.SEE_LIVE)
    paper = request.GET.get("paper", "a4")
    if paper not in PAPER_SIZES:
        paper = "a4"
    round_ = round_or_404(page, number, seating=True)
    counts = Table.objects.filter(round=round_).aggregate(
        tables=Count("pk", distinct=True), players=Count("seats")
    )
    parts = pack_parts(counts["tables"], counts["players"])
    wanted = request.GET.get("part", "")
    part = next((p for p in parts if p.key == wanted), None)
    if part is None and not wanted:
        # A big round asked for whole (an old link): the seating page lists its parts.
        messages.info(request, _("This round's print pack comes in parts: pick them below."))
        return redirect(reverse("tournaments:seating", args=[page.tournament.pk, number]) + "#print-pack")
    if part is None:
        keys = ", ".join(p.key for p in parts if p.key) or _("none: the pack is one file")
        return HttpResponseBadRequest(
            _("This round's print pack has no part “%(part)s”. Its parts: %(keys)s.")
            % {"part": wanted[:20], "keys": keys},
            content_type="text/plain; charset=utf-8",
        )
    html = pack_html(request, page, round_, part)
    try:
        pdf = html_to_pdf(html, stylesheets=PACK_STYLESHEETS, paper=paper)
    except OSError:  # WeasyPrint could not load Pango: the server lacks it (README, Requirements)
        message = _(
            "This server cannot draw PDFs (Pango is missing: see the README). Print the table cards, "
            "the seating lists and the score slips from their pages instead."
        )
        return HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
    which = f"-{slugify(part.key)}" if part.key else ""
    name = f"{slugify(page.tournament.name) or 'tournament'}-round-{number}-pack{which}-{paper}.pdf"
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response
