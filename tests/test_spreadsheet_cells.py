"""Exported cells a spreadsheet would run are quoted, full-width signs included (issue 20,
finding 8: a club starting with a full-width equals sign escaped the guard); numbers and lists of
numbers are not (issue 19 item 7). Both exports, the games' and the tournaments', use one check."""

from __future__ import annotations

import csv
import io

import pytest

from golfclub.core.spreadsheets import formula_safe
from scoring.exports import _text as game_cell
from tests.tournaments.helpers import event, play_round
from tests.tournaments.web.conftest import as_user
from tournaments import services
from tournaments.exports import spreadsheet_safe

RUN = [
    "=1+1",
    '\uff1dHYPERLINK("http://x")',  # full-width equals
    "\uff0b1",  # full-width plus
    "\uff0dcmd",  # full-width minus
    "\uff20SUM(A1)",  # full-width at
    " =1+1",
    "\u3000=1+1",  # ideographic space first
    "\tx",
    "\rx",
    "-x",
    "+",
    "-",
    "-2, -2, =1",
]
KEEP = ["Ann", "-2", "+44", "0", "1.5", "-2, -2, 0", "-2;3", "3 / -1", "Zoé", "", "a=b", "\uff11"]


@pytest.mark.parametrize("text", RUN)
def test_it_quotes_what_a_spreadsheet_would_run(text: str) -> None:
    assert formula_safe(text) == "'" + text
    assert spreadsheet_safe(text) == "'" + text
    assert game_cell(text) == "'" + text


@pytest.mark.parametrize("text", KEEP)
def test_it_keeps_numbers_and_plain_text(text: str) -> None:
    assert formula_safe(text) == text == spreadsheet_safe(text) == game_cell(text)


def test_it_keeps_non_text_as_it_is() -> None:
    assert [formula_safe(v) for v in (-2, 0, None, 1.5)] == [-2, 0, None, 1.5]


@pytest.mark.django_db
def test_it_quotes_a_full_width_formula_in_a_club_in_the_standings_csv() -> None:
    tournament = event(4, rounds=1, holes=1)
    services.add_entrant(tournament, "P50", club='\uff1dHYPERLINK("http://evil","x")')
    play_round(tournament)
    services.finalize_round(tournament, 1)
    response = as_user("dora").get(f"/tournaments/{tournament.pk}/export/standings.csv")
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    rows = {row["player"]: row for row in csv.DictReader(io.StringIO(text))}
    assert rows["P50"]["club"].startswith("'\uff1d")
    assert rows["P01"]["total"].lstrip("-").isdigit()
