"""A player's own page by their personal link: their table now (round, table, seat, who else, the
clock), their scores by round and hole, their place as the public standings show it, the calls,
rulings and penalties that concern them; polled with an ETag (304 while nothing moved); a staff
member who scanned the QR checks them in in one tap; an unknown link is a 404 in words."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from scoring import services as scoring_services
from tests.tournaments.helpers import event, play_round, user
from tests.tournaments.web.conftest import Event, as_user, staffed_event
from tournaments import services
from tournaments.backup import export_event
from tournaments.models import Entrant, OfficialCall, TableSeat
from tournaments.services.calls import answer_call, call_official, extend_table, give_time_penalties

pytestmark = pytest.mark.django_db


def _home(entrant: Entrant) -> str:
    return f"/tournaments/player/{entrant.token}/"


def test_each_player_gets_an_unguessable_link_of_their_own() -> None:
    tournament = event(12)
    tokens = list(tournament.entrants.values_list("token", flat=True))
    assert len(set(tokens)) == 12 and all(len(token) >= 32 for token in tokens)


def test_the_page_shows_the_table_now_the_scores_the_place_and_the_calls_that_concern_the_player() -> None:
    built = staffed_event(8, time_limit_minutes=60)
    seat = TableSeat.objects.filter(table=built.table).select_related("entrant").order_by("seat").first()
    me = seat.entrant
    names = list(built.table.game.seats.order_by("seat").values_list("name", flat=True))
    scoring_services.hole_record(
        built.table.game,
        entries={n: i + 3 for i, n in enumerate(names)},
        ender=None,
        capabilities={"view", "score"},
    )
    OfficialCall.objects.create(
        tournament=built.tournament, table=built.table, called_by=names[1], note="Card seen"
    )
    services.give_penalty(
        built.tournament, player=me.pk, offence="illegal_move", round_number=1, note="moved a card"
    )
    other = TableSeat.objects.filter(table=built.other_table).select_related("entrant").first().entrant
    page = as_user(None).get(_home(me))
    html = page.content.decode()
    assert page.status_code == 200
    assert f"Round 1 · Table {built.table.number} · Seat 1" in html
    assert all(name in html for name in names) and other.name not in html
    assert "Table clock:" in html and "s left" in html
    assert "1 of 8" in html and "thru 1 hole of the round in play" in html
    assert "Official called" in html and "Card seen" in html
    assert "Penalty" in html and "moved a card" in html
    assert "<svg" in html and 'aria-label="QR code of this page' in html
    assert "Check in" not in html  # a stranger with the link gets no staff button
    assert page["ETag"] and page["Referrer-Policy"] == "same-origin"


def test_the_place_respects_the_standings_release_as_the_public_standings_do() -> None:
    built = staffed_event(8, standings_release="after_round")
    me = TableSeat.objects.filter(table=built.table).select_related("entrant").first().entrant
    names = list(built.table.game.seats.order_by("seat").values_list("name", flat=True))
    scoring_services.hole_record(
        built.table.game, entries={n: 5 for n in names}, ender=None, capabilities={"view", "score"}
    )
    public = as_user(None).get(_home(me)).content.decode()
    assert "Totals: the finalized rounds only" in public and "thru" not in public
    staff = as_user("dora").get(_home(me)).content.decode()
    assert "Live: totals are the finalized rounds" in staff and "thru 1 hole of" in staff


def test_the_live_part_answers_304_while_nothing_moved_and_the_new_page_after_a_hole(
    django_capture_on_commit_callbacks,
) -> None:
    built = staffed_event(8)
    me = TableSeat.objects.filter(table=built.table).select_related("entrant").first().entrant
    client = as_user(None)
    url = _home(me) + "live/"
    first = client.get(url)
    assert first.status_code == 200 and 'id="player-live"' in first.content.decode()
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    names = list(built.table.game.seats.order_by("seat").values_list("name", flat=True))
    with django_capture_on_commit_callbacks(execute=True):  # the tournament's version moves on commit
        scoring_services.hole_record(
            built.table.game, entries={n: 5 for n in names}, ender=None, capabilities={"view", "score"}
        )
    after = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]


def _seconds_left(html: str) -> int:
    """The seconds left on the table's clock, as the player's page shows them."""
    found = re.search(r"(\d+) s left", html)
    assert found is not None, html
    return int(found.group(1))


def _answer_the_call(built: Event, me: Entrant) -> None:
    answer_call(built.tournament, OfficialCall.objects.get(table=built.table).pk, actor=user("dora"))


# What the staff and the table do on the event day that the player's page shows, but that moves no
# hole: each must move the tournament's version in its own transaction, or the page polled with
# its ETag answers 304 with what it showed before.
EVENT_DAY_WRITES: dict[str, Callable[[Event, Entrant], object]] = {
    "an extension of the table's clock": lambda built, me: extend_table(
        built.tournament, built.table.pk, 10, reason="ruling took long", actor=user("dora")
    ),
    "a call for an official": lambda built, me: call_official(
        built.table, called_by=me.name, note="Card seen"
    ),
    "the call answered": _answer_the_call,
    "a ruling without a penalty": lambda built, me: services.record_ruling(
        built.tournament,
        situation="card_revealed",
        facts={"intentional": False, "can_be_hidden": True},
        player=me.pk,
        round_number=1,
        table=built.table.number,
    ),
    "time penalties": lambda built, me: give_time_penalties(
        built.tournament, built.table.pk, 90, actor=user("dora")
    ),
}


@pytest.mark.parametrize("write", list(EVENT_DAY_WRITES))
def test_the_live_part_moves_with_each_event_day_write_that_is_not_a_hole(write: str) -> None:
    built = staffed_event(8, time_limit_minutes=60)
    me = TableSeat.objects.filter(table=built.table).select_related("entrant").first().entrant
    if write == "the call answered":
        call_official(built.table, called_by=me.name, note="Card seen")
    client = as_user(None)
    url = _home(me) + "live/"
    first = client.get(url)
    assert first.status_code == 200
    EVENT_DAY_WRITES[write](built, me)
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200, f"304 after {write}: the page shows what it showed before"
    assert again["ETag"] != first["ETag"]
    if write == "a call for an official":
        assert "Card seen" in again.content.decode()
    if write == "an extension of the table's clock":  # the 10 minutes given are on the page
        assert _seconds_left(first.content.decode()) <= 3600 < _seconds_left(again.content.decode())


def test_a_staff_member_who_scans_the_qr_checks_the_player_in_in_one_tap() -> None:
    built = staffed_event(8, publish=False)
    me = built.tournament.entrants.get(name="P03")
    for who in ("dora", "cora", "olive"):
        assert "Check in P03" in as_user(who).get(_home(me)).content.decode(), who
    assert "Check in P03" not in as_user("sam").get(_home(me)).content.decode()
    refused = as_user("sam").post(_home(me) + "check-in/")
    assert refused.status_code == 403 and not Entrant.objects.get(pk=me.pk).checked_in
    anonymous = as_user(None).post(_home(me) + "check-in/")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert not Entrant.objects.get(pk=me.pk).checked_in
    client = as_user("olive")
    done = client.post(_home(me) + "check-in/")
    assert done.status_code == 302 and done["Location"] == _home(me)
    assert Entrant.objects.get(pk=me.pk).checked_in
    assert "P03 is checked in." in client.get(done["Location"]).content.decode()


def test_a_link_shows_only_its_own_player_and_an_unknown_one_is_a_404_in_words() -> None:
    built = staffed_event(8, public=False)
    me, other = built.tournament.entrants.order_by("pk")[:2]
    page = as_user(None).get(_home(me)).content.decode()
    assert f"<h1>{me.name}</h1>" in page and f"<h1>{other.name}</h1>" not in page
    missing = as_user(None).get("/tournaments/player/no-such-link/")
    assert missing.status_code == 404 and "No player has this link" in missing.content.decode()
    # The private event's pages stay closed to the link's holder.
    assert as_user(None).get(f"/tournaments/{built.tournament.pk}/standings/").status_code == 404


def test_the_page_reads_a_fixed_number_of_queries(django_assert_max_num_queries) -> None:
    counts = []
    for players in (12, 48):
        tournament = event(players, rounds=2, holes=2)
        play_round(tournament)
        me = tournament.entrants.order_by("pk").first()
        client = as_user(None)
        client.get(_home(me))
        with django_assert_max_num_queries(20) as captured:
            assert client.get(_home(me)).status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1]


def test_the_qr_sheet_lists_every_player_with_their_code() -> None:
    tournament = event(12)
    page = as_user("dora").get(f"/tournaments/{tournament.pk}/print/players/").content.decode()
    assert page.count('class="player-qr-card"') == 12 and page.count('class="qr"') == 12
    assert all(name in page for name in tournament.entrants.values_list("name", flat=True))


def test_the_backup_carries_each_players_link() -> None:
    tournament = event(4)
    document = export_event(tournament.pk)
    assert {e["token"] for e in document["event"]["entrants"]} == set(
        tournament.entrants.values_list("token", flat=True)
    )
