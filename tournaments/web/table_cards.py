"""A round's table cards: per table, its players in seat order, who deals first, and the table's
link with its QR code. Read once, drawn by the table cards page and the round's print pack."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from golfclub.core.qr import qr_svg
from tournaments.models import Round
from tournaments.web.selectors import TableLine, table_lines

Card = tuple[TableLine, str, SafeString]


def table_cards_of(request: HttpRequest, round_: Round, numbers: range | None = None) -> list[Card]:
    """Each table of `round_` (or each numbered in `numbers`) with the absolute URL of its game's
    link and that URL's QR code (the queries of `table_lines`, a fixed number whatever the round's
    size)."""
    cards: list[Card] = []
    for line in table_lines(round_):
        if numbers is not None and line.table.number not in numbers:
            continue  # before its QR code is drawn: the part of a big round's pack
        url = request.build_absolute_uri(reverse("games:edit", args=[line.game.edit_token]))
        label = _("QR code of table %(n)s's link") % {"n": line.table.number}
        cards.append((line, url, qr_svg(url, label=label)))
    return cards
