"""The print pack's seating by name, as WeasyPrint lays it out in the PDF: one numbering running on
from the first column into the second (and on to the next page), and each player's table and seat
on the line their name ends on, never wrapped onto a line of its own."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from tests.tournaments.helpers import user
from tests.tournaments.web.conftest import as_user
from tournaments import services

pytestmark = pytest.mark.django_db

#: Words to build names of every length up to the limit (40): one of them ends near a column's edge.
WORDS = "Maximiliana Theodora Wolkenstein Rodenegg de la Rochefoucauld"


def _lines(pdf: bytes, page: int = 0) -> list[tuple[float, float, str]]:
    """The text of a PDF page as (x, y, text) fragments, top to bottom then left to right."""
    fragments: list[tuple[float, float, str]] = []

    def visit(text: str, _cm, tm, _font, _size) -> None:
        if text.strip():
            fragments.append((round(tm[4], 1), round(tm[5], 1), text.strip()))

    PdfReader(io.BytesIO(pdf)).pages[page].extract_text(visitor_text=visit)
    return sorted(fragments, key=lambda f: (-f[1], f[0]))


def _pack(players: int) -> bytes:
    tournament = services.create_tournament(
        director=user("dora"), name="Spring Open", ruleset={"preset": "official", "holes": 2}, rounds=1
    )
    names = [f"{index:02d} {WORDS[: 12 + index % 26]}".strip() for index in range(players)]
    services.import_entrants(tournament, "name\n" + "\n".join(names))
    services.seat_next_round(tournament)
    services.publish_round(tournament, 1)
    response = as_user("dora").get(f"/tournaments/{tournament.pk}/rounds/1/print/pack.pdf")
    assert response.status_code == 200
    return response.content


@pytest.mark.parametrize("players", [12, 26, 40])
def test_the_numbers_run_on_from_the_first_column_into_the_second(players: int) -> None:
    """WeasyPrint ignored the second list's `start`: both columns were numbered from 1."""
    fragments = _lines(_pack(players))
    numbered = [(x, int(m.group(1))) for x, _y, text in fragments if (m := re.fullmatch(r"(\d+)\.", text))]
    assert sorted(n for _x, n in numbered) == list(range(1, players + 1)), fragments[:40]
    half = (players + 1) // 2
    assert sorted(n for x, n in numbered if x < 250) == list(range(1, half + 1))  # the first column


@pytest.mark.parametrize("players", [26, 40])
def test_a_players_table_and_seat_never_wrap_onto_a_line_of_their_own(players: int) -> None:
    """Names of every length up to the limit: the table and seat always share a line with (the end
    of) the name, and are never broken themselves."""
    fragments = _lines(_pack(players))
    labels = [(x, y, t) for x, y, t in fragments if re.search(r"\b(table|seat)\b", t)]
    assert len(labels) == players, labels  # one piece each: "table 3, seat 1", unbroken
    for x, y, text in labels:
        assert re.fullmatch(r"table \d+, seat \d+", text), text
        beside = [
            t for x2, y2, t in fragments if abs(y2 - y) < 1 and x2 < x and not re.fullmatch(r"\d+\.", t)
        ]
        assert beside, f"{text!r} on a line of its own at y={y}"
