"""The director's dashboard shows each table's phone (issue 32 item 3): when it was last heard from,
the holes it still holds, a flag on a table still playing whose phone went silent, and, before
finalizing, the tables to chase; in the page and its live partial, in a bounded number of queries."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.utils import timezone

from scoring import phone_contact
from scoring import services as scoring_services
from tests.tournaments.helpers import by_number, event, play_round
from tests.tournaments.web.conftest import Event, as_user, staffed_event
from tournaments import services
from tournaments.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def contact_on(settings) -> None:
    """The feature on (the suite's settings turn it off), with this process's memory cleared."""
    settings.GOLFCLUB_PHONE_CONTACT = True
    phone_contact.forget()


def heard(table: Table, minutes: float, pending: int | None = None) -> datetime.datetime:
    """Note `table`'s phone as heard `minutes` ago (with `pending` writes); that time."""
    when = timezone.now() - datetime.timedelta(minutes=minutes)
    phone_contact.forget(table.game.edit_token)
    phone_contact.record_phone_contact(table.game.edit_token, pending, now=when)
    return when


def finish(table: Table) -> list[str]:
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    for hole in range(2):
        entries = {name: hole + seat for seat, name in enumerate(names)}
        scoring_services.hole_record(table.game, entries=entries, ender=None)
    return names


def text(html: str) -> str:
    """`html`'s words, tags dropped and spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split()).replace(" )", ")").replace("( ", "(")


def table_item(page: str, number: int) -> str:
    """The words of the dashboard's list item of table `number`."""
    item = rf'<li class="table-line[^"]*" id="table-{number}">(.*?)</li>\s*(?:<li class="table-line|</ul>)'
    found = re.search(item, page, re.S)
    assert found, f"no table {number} on the page"
    return text(found.group(1))


@pytest.fixture
def ev() -> Event:
    return staffed_event()


def test_never_heard_tables_say_so_and_are_not_flagged(ev: Event) -> None:
    page = as_user("dora").get(ev.url).content.decode()
    assert "Phone last heard: never" in table_item(page, 1)
    assert "Not heard from" not in page and "data-phone-chase" not in page


def test_the_dashboard_and_its_live_partial_show_last_heard_pending_and_silent(ev: Event) -> None:
    reported = heard(ev.table, 2.2, pending=3)
    heard(ev.other_table, 12.5)
    client = as_user("dora")
    for url in (ev.url, f"{ev.url}live/"):
        page = client.get(url).content.decode()
        one, two = table_item(page, 1), table_item(page, 2)
        at = timezone.localtime(reported).strftime("%H:%M")
        assert f"Phone last heard 2 min ago ({at})" in one
        assert f'<time datetime="{reported.isoformat()}">{at}</time>' in page
        assert f"3 holes still on the phone (reported {at})" in one
        assert "Not heard from" not in one
        assert "Phone last heard 12 min ago" in two
        assert "Not heard from for 12 min: may hold holes not yet sent" in two
        assert "holes still on the phone" not in two
    # The next step (while the round is in play) names both tables to chase before finalizing.
    page = client.get(ev.url).content.decode()
    chase = text(page[page.index("data-phone-chase") :].split("</div>")[0])
    assert "Table 1: 3 holes still on the phone" in chase and "Table 2: not heard from for 12 min" in chase


def test_the_table_page_and_a_phone_s_requests_are_heard(ev: Event) -> None:
    assert Client().get(f"/tournaments/table/{ev.table.game.edit_token}/").status_code == 200
    board = f"/api/v1/games/{ev.other_table.game.edit_token}/scoreboard/"
    Client().get(board, headers={"X-Golf-Pending": "1"})
    page = as_user("dora").get(f"{ev.url}live/").content.decode()
    assert "Phone last heard less than a minute ago" in table_item(page, 1)
    assert "1 hole still on the phone" in table_item(page, 2)
    # Once the phone says its queue is empty, the table is no longer to chase.
    phone_contact.forget()
    Client().get(board, headers={"X-Golf-Pending": "0"})
    page = as_user("dora").get(f"{ev.url}live/").content.decode()
    assert "still on the phone" not in page


def test_a_finished_game_is_not_flagged_silent_but_holes_on_its_phone_still_warn(ev: Event) -> None:
    for table in (ev.table, ev.other_table):
        names = finish(table)
        services.confirm_table(table.game, names[0])
    heard(ev.table, 20)
    heard(ev.other_table, 20, pending=1)
    page = as_user("dora").get(ev.url).content.decode()
    assert "Not heard from" not in page
    assert "Every table of round 1 is over and confirmed." in page
    chase = text(page[page.index("data-phone-chase") :].split("</div>")[0])
    assert "Table 2: 1 hole still on the phone" in chase and "Table 1:" not in chase
    # A warning only: finalizing stays the director's call.
    assert as_user("dora").post(f"{ev.url}rounds/1/finalize/").status_code == 302


def test_the_refused_finalize_page_lists_the_tables_to_chase(ev: Event) -> None:
    finish(ev.table)
    heard(ev.other_table, 9, pending=2)
    refused = as_user("dora").post(f"{ev.url}rounds/1/finalize/")
    page = text(refused.content.decode())
    assert refused.status_code == 409 and "Tables still playing: 2" in page
    assert "Table 2: 2 holes still on the phone" in page and "not heard from for 9 min" in page


def test_the_warning_is_words_not_colour_alone(ev: Event) -> None:
    heard(ev.other_table, 7)
    page = as_user("dora").get(ev.url).content.decode()
    flag = page[page.index("data-phone-silent") - 40 :]
    assert '<span aria-hidden="true">⚠ </span><strong>Not heard from for 7 min' in flag


def test_the_dashboard_stays_bounded_with_32_tables_heard_from(django_assert_max_num_queries) -> None:
    tournament = event(128, rounds=2, holes=2)
    play_round(tournament, lambda _round, hole, name: by_number(name) % 10 + hole)
    services.finalize_round(tournament, 1)
    round_ = services.seat_next_round(tournament)
    services.publish_round(tournament, 2)
    tables = list(Table.objects.filter(round=round_).select_related("game"))
    assert len(tables) == 32
    for number, table in enumerate(tables):
        heard(table, number % 9, pending=number % 3 or None)
    client = as_user("dora")
    # 11 and 9: one more since issue 34, the seating plan's figures in the next step.
    with django_assert_max_num_queries(11):
        page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    with django_assert_max_num_queries(9):
        live = client.get(f"/tournaments/{tournament.pk}/live/").content.decode()
    assert page.count("data-phone-status") == 32 and live.count("data-phone-status") == 32
    # Heard 5 minutes and a moment ago is more than 5 minutes.
    assert live.count("data-phone-silent") == sum(1 for n in range(32) if n % 9 >= 5)
