"""A round's print pack (one PDF): the seating by name, a card per table, a score slip per table,
in that order; every name and table in it; A4 and US Letter; the staff's only (as the table cards,
whose QR codes score the tables), and a round's seating hidden from the others before it is
published; a fixed number of queries whatever the round's size."""

from __future__ import annotations

import io
import re
import time

import pytest
from pypdf import PdfReader

from tests.tournaments.helpers import event
from tests.tournaments.web.conftest import as_user, staffed_event
from tournaments import services
from tournaments.models import Table

pytestmark = pytest.mark.django_db

A4 = (595, 842)  # points, rounded
LETTER = (612, 792)
#: A 250-table round's pack stays small enough to mail or keep on a phone (measured: docs/performance.md).
MAX_PACK_BYTES = 8_000_000


def _pages(response) -> list[str]:
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-")
    reader = PdfReader(io.BytesIO(response.content))
    return [" ".join((page.extract_text() or "").split()) for page in reader.pages]


def _size(response) -> tuple[int, int]:
    box = PdfReader(io.BytesIO(response.content)).pages[0].mediabox
    return round(float(box.width)), round(float(box.height))


def _pack_url(tournament, number: int = 1, paper: str = "") -> str:
    return f"/tournaments/{tournament.pk}/rounds/{number}/print/pack.pdf" + (
        f"?paper={paper}" if paper else ""
    )


def test_it_hands_out_the_seating_then_a_card_then_a_slip_per_table() -> None:
    ev = staffed_event(12)  # three tables of four
    response = as_user("dora").get(_pack_url(ev.tournament))
    pages = _pages(response)
    tables = list(Table.objects.filter(round=ev.round).order_by("number").prefetch_related("seats__entrant"))
    assert len(tables) == 3
    # One page of seating (12 names), then a card per table, then a slip per table.
    assert len(pages) == 1 + len(tables) + len(tables)
    assert "Seating of round 1, by name" in pages[0]
    for table in tables:
        for seat in table.seats.all():
            name = seat.entrant.name
            assert f"{name} table {table.number}, seat {seat.seat + 1}" in pages[0]
    for index, table in enumerate(tables):
        card, slip = pages[1 + index], pages[1 + len(tables) + index]
        assert f"Round 1 · Table {table.number}" in card and "Seat order" not in card
        assert table.game.edit_token in card.replace(" ", "")  # the card's link
        assert f"Round 1 · Table {table.number}" in slip and "Seat order, clockwise" in slip
        for seat in table.seats.all():
            assert seat.entrant.name in card and seat.entrant.name in slip
    assert response["Content-Disposition"] == 'inline; filename="spring-open-round-1-pack-a4.pdf"'


def test_its_names_are_in_name_order_and_come_in_a4_or_us_letter() -> None:
    ev = staffed_event(8)
    client = as_user("cora")
    a4 = client.get(_pack_url(ev.tournament))
    letter = client.get(_pack_url(ev.tournament, paper="letter"))
    assert _size(a4) == A4 and _size(letter) == LETTER
    assert _pages(a4)[0] and len(_pages(letter)) == len(_pages(a4))
    names = re.findall(r"(P\d\d) table", _pages(a4)[0])
    assert names == sorted(names) and len(names) == 8
    assert _size(client.get(_pack_url(ev.tournament, paper="tabloid"))) == A4  # unknown: the default


def test_the_dashboard_and_the_seating_page_link_to_it() -> None:
    ev = staffed_event(8)
    client = as_user("dora")
    for path in ("", "rounds/1/"):
        page = client.get(f"/tournaments/{ev.tournament.pk}/{path}").content.decode()
        assert f'href="{_pack_url(ev.tournament)}"' in page and "Print pack (PDF)" in page, path
    assert (
        "Print pack (PDF)"
        not in as_user("sam").get(f"/tournaments/{ev.tournament.pk}/rounds/1/").content.decode()
    )


@pytest.mark.parametrize(
    ("persona", "status"), [("dora", 200), ("cora", 200), ("olive", 200), ("sam", 403), (None, 302)]
)
def test_it_is_the_staffs_only(persona: str | None, status: int) -> None:
    ev = staffed_event(8)
    assert as_user(persona).get(_pack_url(ev.tournament)).status_code == status


def test_before_publishing_only_the_staff_get_it_and_a_round_not_seated_is_a_404() -> None:
    ev = staffed_event(8, publish=False)
    assert as_user("dora").get(_pack_url(ev.tournament)).status_code == 200
    assert as_user("dora").get(_pack_url(ev.tournament, 2)).status_code == 404
    ev.tournament.public = False
    ev.tournament.save(update_fields=["public"])
    assert as_user("sam").get(_pack_url(ev.tournament)).status_code == 404


@pytest.mark.parametrize("players", [8, 40])
def test_it_reads_a_fixed_number_of_queries(players: int, django_assert_max_num_queries) -> None:
    tournament = event(players, rounds=2, holes=2)
    services.seat_next_round(tournament)
    services.publish_round(tournament, 1)
    client = as_user("dora")
    client.get(f"/tournaments/{tournament.pk}/")  # warm the session
    with django_assert_max_num_queries(12):
        response = client.get(_pack_url(tournament))
    assert len(_pages(response)) == 1 + 2 * (players // 4)


def test_a_250_table_round_fits_in_one_pack_of_bounded_size(django_assert_max_num_queries) -> None:
    # 1,000 players: the seating by name over a few pages, then 250 cards and 250 slips.
    tournament = event(1000, rounds=1, holes=9)
    services.seat_next_round(tournament)
    services.publish_round(tournament, 1)
    client = as_user("dora")
    client.get(f"/tournaments/{tournament.pk}/")  # warm the session
    started = time.perf_counter()
    with django_assert_max_num_queries(12):
        response = client.get(_pack_url(tournament))
    seconds = time.perf_counter() - started
    pages = _pages(response)
    seating = len(pages) - 2 * 250
    assert 1 <= seating <= 15, seating
    text = " ".join(pages[:seating])
    assert all(f"P{n:02d} table" in text for n in range(1, 1001))
    assert all(f"Round 1 · Table {n}" in pages[seating + n - 1] for n in range(1, 251))
    assert all(f"Round 1 · Table {n}" in pages[seating + 250 + n - 1] for n in range(1, 251))
    assert len(response.content) < MAX_PACK_BYTES, len(response.content)
    print(f"\n250-table pack: {len(pages)} pages, {len(response.content) / 1e6:.1f} MB, {seconds:.1f} s")


def test_a_server_without_pango_says_so_instead_of_failing(monkeypatch) -> None:
    import tournaments.web.print_pack as pack

    def no_pango(*args, **kwargs):
        raise OSError("cannot load library 'libpango-1.0-0'")

    monkeypatch.setattr(pack, "html_to_pdf", no_pango)
    ev = staffed_event(8)
    answer = as_user("dora").get(_pack_url(ev.tournament))
    assert answer.status_code == 503 and "cannot draw PDFs" in answer.content.decode()
