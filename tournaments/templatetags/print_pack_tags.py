"""`{% print_pack_links tournament round_number lines %}`: the links to a round's print pack,
one PDF or, for a big round, its parts (`tournaments.web.print_pack.pack_parts`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import template
from django.urls import reverse

from tournaments.models import Tournament
from tournaments.web.print_pack import pack_parts
from tournaments.web.selectors import TableLine

register = template.Library()


@register.inclusion_tag("tournaments/_print_pack_links.html")
def print_pack_links(
    tournament: Tournament, number: int, lines: Sequence[TableLine], letter: bool = False
) -> dict[str, Any]:
    """The links to the pack of round `number`, whose tables are `lines`: each part's URL and
    label; `letter` adds the US Letter versions."""
    url = reverse("tournaments:print-pack", args=[tournament.pk, number])
    players = sum(len(line.players) for line in lines)
    parts = [
        (f"{url}?part={part.key}" if part.key else url, part) for part in pack_parts(len(lines), players)
    ]
    return {"parts": parts, "in_parts": len(parts) > 1, "letter": letter}


@register.simple_tag
def pack_in_parts(lines: Sequence[TableLine]) -> bool:
    """Whether the round whose tables are `lines` prints its pack in parts (a big round): the
    dashboard's next step then leads to the parts instead of the whole pack."""
    players = sum(len(line.players) for line in lines)
    return len(pack_parts(len(lines), players)) > 1
