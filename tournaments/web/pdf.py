"""HTML printouts as PDF files, drawn by WeasyPrint from the same templates and print CSS as the
printable pages (one layout for the browser's print and the PDF).

WeasyPrint lays out HTML and CSS itself (Pango for the text, from the system's packages: see the
README); nothing runs in a browser. It is given the stylesheets as files found by Django's static
finders, and may fetch nothing else: a printout's pages hold inline SVG only, and a URL in one
(a player's name is text, but a future template could slip) must never make the server fetch it.
"""

from __future__ import annotations

from typing import Any

from django.contrib.staticfiles import finders
from django.utils.translation import gettext as _

#: Paper sizes a PDF printout comes in: A4 by default, US Letter on request (`?paper=letter`).
PAPER_SIZES = {"a4": "A4", "letter": "letter"}


class PdfFetchRefused(ValueError):
    """A printout asked WeasyPrint to fetch a URL: refused (the printouts fetch nothing)."""


def _refuse_fetching(url: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
    raise PdfFetchRefused(_("A printout fetches nothing: %(url)s") % {"url": url[:80]})


def static_path(name: str) -> str:
    """The file of static asset `name` (e.g. "css/print.css"), found as `collectstatic` finds it."""
    found = finders.find(name)
    if not found:
        raise FileNotFoundError(name)
    return str(found[0] if isinstance(found, list) else found)


def html_to_pdf(html: str, *, stylesheets: list[str], paper: str = "a4") -> bytes:
    """`html` laid out on `paper` ("a4" or "letter") with the static `stylesheets`, as PDF bytes."""
    import weasyprint  # imported on first use: it loads Pango, which only the PDFs need

    size = PAPER_SIZES.get(paper, "A4")
    sheets = [weasyprint.CSS(filename=static_path(name)) for name in stylesheets]
    sheets.append(weasyprint.CSS(string=f"@page {{ size: {size}; }}"))
    document = weasyprint.HTML(string=html, url_fetcher=_refuse_fetching, media_type="print")
    return document.write_pdf(stylesheets=sheets)
