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

from tests.tournaments.helpers import event_in_play
from tests.tournaments.web.conftest import as_user, staffed_event
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
    tournament = event_in_play(players, rounds=2, holes=2)
    client = as_user("dora")
    client.get(f"/tournaments/{tournament.pk}/")  # warm the session
    with django_assert_max_num_queries(12):
        response = client.get(_pack_url(tournament))
    assert len(_pages(response)) == 1 + 2 * (players // 4)


def test_a_250_table_round_comes_in_parts_each_drawn_in_a_few_seconds(django_assert_max_num_queries) -> None:
    """1,000 players at 250 tables: one PDF took 30 s of a server core, past gunicorn's timeout
    (docs/performance.md). The pack comes as the seating by name, then the tables 25 at a time,
    each part bounded in queries and size, in the order they are handed out. One part of tables is
    drawn here (the others are the same template over other tables)."""
    tournament = event_in_play(1000, rounds=1, holes=9)
    client = as_user("dora")
    url = _pack_url(tournament)
    names = [
        ("names-1-360", "1\u2013360"),
        ("names-361-720", "361\u2013720"),
        ("names-721-1000", "721\u20131000"),
    ]
    tables = [(f"{first}-{first + 24}", f"Tables {first}\u2013{first + 24}") for first in range(1, 251, 25)]
    parts = [key for key, _label in names] + [key for key, _label in tables]
    labels = [f"Seating by name, {label}" for _key, label in names] + [label for _key, label in tables]
    assert parts[3:5] == ["1-25", "26-50"] and parts[-1] == "226-250" and len(parts) == 13
    # The dashboard and the seating page offer the parts, in that order, each in A4 and Letter.
    dashboard = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    seating_page = client.get(f"/tournaments/{tournament.pk}/rounds/1/").content.decode()
    for page in (dashboard, seating_page):
        links = re.findall(rf'<a href="{re.escape(url)}\?part=([^"&]+)">([^<]+)</a>', page)
        assert links == list(zip(parts, labels, strict=True)), links
    assert all(f'href="{url}?part={part}&amp;paper=letter"' in seating_page for part in parts)
    assert f'href="{url}"' not in dashboard  # no whole pack: it would pass the timeout
    # The next step leads to the parts on the same page.
    assert (
        '<a class="button primary" href="#print-pack">Print the round\'s pack (PDF, in parts)</a>'
        in dashboard
    )
    assert 'id="print-pack"' in dashboard
    # The whole pack asked for anyway (an old link) leads to the parts; a part that is not one is
    # refused with the parts named.
    whole = client.get(url)
    assert (
        whole.status_code == 302 and whole["Location"] == f"/tournaments/{tournament.pk}/rounds/1/#print-pack"
    )
    wrong = client.get(f"{url}?part=1-999")
    assert (
        wrong.status_code == 400
        and "names-1-360, names-361-720, names-721-1000, 1-25" in wrong.content.decode()
    )

    # The seating by name, in parts of 360 names (4 pages), in name order: together every player
    # once; the second part drawn here holds the 361st to the 720th name, nothing else.
    from tournaments.web.print_pack import pack_parts

    ranges = [part.names for part in pack_parts(250, 1000) if part.names]
    assert [n for names_range in ranges for n in names_range] == list(range(1, 1001))
    everyone = sorted(f"P{n:02d}" for n in range(1, 1001))  # in string order: P100, P1000, P101
    seating_cpu = time.process_time()
    with django_assert_max_num_queries(12):
        seating = client.get(f"{url}?part=names-361-720")
    seating_cpu = time.process_time() - seating_cpu
    pages = pages_seating = _pages(seating)
    assert len(pages) == 4 and _size(seating) == A4, len(pages)
    text = " ".join(pages)
    assert "Seating of round 1, by name" in pages[0]
    assert re.findall(r"(P\d{2,4}) table", text) == everyone[360:720]
    assert "Seat order" not in text  # no card, no slip
    assert (
        seating["Content-Disposition"] == 'inline; filename="spring-open-round-1-pack-names-361-720-a4.pdf"'
    )

    # Tables 26-50: a card per table, then a slip per table, in table order, on A4.
    started, cpu = time.perf_counter(), time.process_time()
    with django_assert_max_num_queries(12):
        part = client.get(f"{url}?part=26-50")
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    pages = _pages(part)
    assert len(pages) == 2 * 25 and _size(part) == A4
    cards, slips = pages[:25], pages[25:]
    for index, number in enumerate(range(26, 51)):
        assert f"Round 1 · Table {number}" in cards[index] and "Seat order" not in cards[index]
        assert f"Round 1 · Table {number}" in slips[index] and "Seat order, clockwise" in slips[index]
    tables = Table.objects.filter(round__tournament=tournament, number__in=[26, 50]).select_related("game")
    for table in tables:  # each card's link is its own table's
        assert table.game.edit_token in cards[table.number - 26].replace(" ", "")
    assert "Seating of round 1, by name" not in " ".join(pages)
    assert len(part.content) < MAX_PACK_BYTES / 10, len(part.content)
    print(
        f"\n25-table part: {len(pages)} pages, {len(part.content) / 1e6:.2f} MB,"
        f" {seconds:.1f} s, CPU {cpu:.1f} s; the seating by name: {len(pages_seating)} pages,"
        f" CPU {seating_cpu:.1f} s"
    )


def test_a_round_of_25_tables_is_one_pack_and_26_come_in_parts() -> None:
    from tournaments.web.print_pack import pack_parts

    assert [(p.key, p.names, p.tables) for p in pack_parts(25, 100)] == [("", range(1, 101), range(1, 26))]
    assert [(p.key, p.label, p.names, p.tables) for p in pack_parts(26, 103)] == [
        ("seating", "Seating by name", range(1, 104), range(0)),
        ("1-25", "Tables 1\u201325", range(0), range(1, 26)),
        ("26-26", "Table 26", range(0), range(26, 27)),
    ]
    ev = staffed_event(8)
    answer = as_user("dora").get(_pack_url(ev.tournament) + "?part=seating")
    assert answer.status_code == 400 and "none: the pack is one file" in answer.content.decode()


def test_a_server_without_pango_says_so_instead_of_failing(monkeypatch) -> None:
    import tournaments.web.print_pack as pack

    def no_pango(*args, **kwargs):
        raise OSError("cannot load library 'libpango-1.0-0'")

    monkeypatch.setattr(pack, "html_to_pdf", no_pango)
    ev = staffed_event(8)
    answer = as_user("dora").get(_pack_url(ev.tournament))
    assert answer.status_code == 503 and "cannot draw PDFs" in answer.content.decode()
