"""Every printout rendered to PDF by Chromium, on A4 and on US Letter: the seating lists, the table
cards with their QR codes, the paper score slips and the results. Nothing is cut at the right edge
(the page printed at the paper's width does not scroll sideways) and each printout takes the pages
it should (a slip per table)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import screenshot
from tests.tournaments.helpers import event, play_round, user
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Printable width in CSS pixels (96 per inch) with the 12 mm margins of print.css.
PAPER = {"A4": 210, "Letter": 215.9}


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf))


def test_every_printout_fits_a4_and_letter(chromium_browser, live_server) -> None:
    tournament = event(12, rounds=2, holes=9)
    play_round(tournament)
    services.finalize_round(tournament, 1)
    services.seat_next_round(tournament)
    services.publish_round(tournament, 2)
    dora = user("dora")
    context = chromium_browser.new_context(base_url=live_server.url)
    from django.test import Client

    client = Client()
    client.force_login(dora)
    session = client.cookies["sessionid"].value
    host = live_server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies([{"name": "sessionid", "value": session, "domain": host, "path": "/"}])
    page = context.new_page()
    base = f"/tournaments/{tournament.pk}"
    printouts = {
        "seating": (f"{base}/rounds/2/print/seating/", "Seating of round 2, by table", 2),
        "cards": (f"{base}/rounds/2/cards/", "Table 3", None),
        "slips": (f"{base}/rounds/2/print/slips/", "Plays first", 3),  # 12 players: 3 tables, a page each
        "results": (f"{base}/print/results/", "Countback", 1),
    }
    try:
        for name, (url, text, pages) in printouts.items():
            page.goto(url)
            page.emulate_media(media="print")
            assert text in page.content(), name
            for paper, millimetres in PAPER.items():
                width = int((millimetres - 24) / 25.4 * 96)
                page.set_viewport_size({"width": width, "height": 1000})
                overflow = page.evaluate(
                    "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
                )
                assert overflow <= 0, (name, paper, overflow)
                pdf = page.pdf(format=paper, print_background=False)
                assert pdf.startswith(b"%PDF")
                if pages is not None:
                    assert _pages(pdf) == pages, (name, paper, _pages(pdf))
                else:
                    assert _pages(pdf) >= 1
            if name == "slips":
                page.set_viewport_size({"width": 680, "height": 962})  # A4 at 96 dpi, minus margins
                screenshot(page, "event-day-printed-slip")
            page.emulate_media(media="screen")
    finally:
        context.close()
