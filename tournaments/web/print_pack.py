"""A round's print pack: one PDF with, in the order a director hands them out,

1. the seating by name (name -> table, seat), for the wall by the door;
2. a card per table (its players in seat order, who deals first, its link's QR code), one a page;
3. a paper score slip per table (the fallback when a phone fails), one a page.

It draws the parts of the printable pages (`print_seating.html#by-name`, `table_cards.html#card`,
`print_slips.html#slip`) with their print CSS, so the PDF and the browser's printout are one
layout; `tournaments.web.pdf` turns it into a PDF. The staff's only, as the table cards (their QR
codes score the tables), and a round's seating is not shown before it is published but to them.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.access import Action
from tournaments.web.access import TournamentPage, tournament_page
from tournaments.web.event_day import name_pages, score_slips, seating_of
from tournaments.web.pdf import PAPER_SIZES, html_to_pdf
from tournaments.web.round_views import round_or_404
from tournaments.web.table_cards import table_cards_of

PACK_STYLESHEETS = ["css/print.css", "css/print-pack.css"]


def pack_html(request: HttpRequest, page: TournamentPage, number: int) -> str:
    """The print pack of round `number` as one HTML document (a fixed number of queries)."""
    round_ = round_or_404(page, number, seating=True)
    context = page.context(
        round=round_,
        name_pages=name_pages(seating_of(round_)),
        cards=table_cards_of(request, round_),
        slips=score_slips(round_),
    )
    return render_to_string("tournaments/print_pack.html", context, request=request)


@tournament_page(Action.SEE_LIVE)
def print_pack(request: HttpRequest, page: TournamentPage, number: int) -> HttpResponse:
    """Round `number`'s print pack as a PDF (A4, or US Letter with `?paper=letter`), opened in the
    browser's viewer to print or save."""
    paper = request.GET.get("paper", "a4")
    if paper not in PAPER_SIZES:
        paper = "a4"
    html = pack_html(request, page, number)
    try:
        pdf = html_to_pdf(html, stylesheets=PACK_STYLESHEETS, paper=paper)
    except OSError:  # WeasyPrint could not load Pango: the server lacks it (README, Requirements)
        message = _(
            "This server cannot draw PDFs (Pango is missing: see the README). Print the table cards, "
            "the seating lists and the score slips from their pages instead."
        )
        return HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
    name = f"{slugify(page.tournament.name) or 'tournament'}-round-{number}-pack-{paper}.pdf"
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response
