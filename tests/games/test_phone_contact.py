"""A game's phone contact (issue 32 item 3): the edit link's requests note when its phone was last
heard from and the writes it still holds (`X-Golf-Pending`), cheaply (throttled, and only when the
count changes) and safely (a bad header is ignored, a view link or another URL writes nothing)."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from golfclub.core.limits import MAX_PHONE_PENDING
from scoring import phone_contact, services
from scoring.models import Game, PhoneContact
from scoring.selectors import phone_contact_of, phone_contacts
from tests.tournaments.helpers import user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def contact_on(settings) -> None:
    """The feature on (the suite's settings turn it off), with this process's memory cleared."""
    settings.GOLFCLUB_PHONE_CONTACT = True
    phone_contact.forget()


@pytest.fixture
def game() -> Game:
    return services.create_game(players=["Ann", "Bob"], ruleset="official")


def contact_writes(send) -> int:
    """How many statements touching the contact table `send()` ran."""
    with CaptureQueriesContext(connection) as queries:
        send()
    return sum("scoring_phonecontact" in query["sql"] for query in queries.captured_queries)


def scoreboard(client: Client, token: str, **headers: str):
    return client.get(f"/api/v1/games/{token}/scoreboard/", headers=headers)


def test_the_pending_header_is_recorded_with_its_time(game: Game) -> None:
    before = timezone.now()
    assert scoreboard(Client(), game.edit_token, **{"X-Golf-Pending": "3"}).status_code == 200
    contact = PhoneContact.objects.get(game=game)
    assert contact.pending_writes == 3
    assert before <= contact.last_heard_at <= timezone.now()
    assert contact.pending_reported_at == contact.last_heard_at


def test_a_request_without_the_header_keeps_the_last_count(game: Game) -> None:
    client = Client()
    scoreboard(client, game.edit_token, **{"X-Golf-Pending": "2"})
    later = timezone.now() + datetime.timedelta(seconds=phone_contact.HEARD_EVERY_SECONDS + 1)
    assert phone_contact.record_phone_contact(game.edit_token, None, now=later)
    contact = PhoneContact.objects.get(game=game)
    assert contact.last_heard_at == later and contact.pending_writes == 2
    assert contact.pending_reported_at < later


def test_it_writes_at_most_once_in_the_period_unless_the_count_changes(game: Game) -> None:
    client = Client()
    token = game.edit_token
    assert contact_writes(lambda: scoreboard(client, token, **{"X-Golf-Pending": "3"})) == 1
    assert contact_writes(lambda: scoreboard(client, token, **{"X-Golf-Pending": "3"})) == 0
    assert contact_writes(lambda: scoreboard(client, token)) == 0
    assert contact_writes(lambda: client.get(f"/games/e/{token}/")) == 0
    # The phone sent one of its writes: the new count is written at once.
    assert contact_writes(lambda: scoreboard(client, token, **{"X-Golf-Pending": "2"})) == 1
    assert PhoneContact.objects.get(game=game).pending_writes == 2
    # The period over, the same count writes the time again.
    first = PhoneContact.objects.get(game=game).last_heard_at
    later = first + datetime.timedelta(seconds=phone_contact.HEARD_EVERY_SECONDS)
    assert not phone_contact.record_phone_contact(token, 2, now=later - datetime.timedelta(seconds=1))
    assert phone_contact.record_phone_contact(token, 2, now=later)
    assert PhoneContact.objects.get(game=game).last_heard_at == later


def test_an_older_time_never_overwrites_a_newer_one(game: Game) -> None:
    now = timezone.now()
    phone_contact.record_phone_contact(game.edit_token, 1, now=now)
    phone_contact.forget()  # as another app server would, knowing nothing of the first write
    phone_contact.record_phone_contact(game.edit_token, 5, now=now - datetime.timedelta(seconds=5))
    contact = PhoneContact.objects.get(game=game)
    assert contact.last_heard_at == now and contact.pending_writes == 1


@pytest.mark.parametrize(
    "value",
    ["-1", "abc", "3.5", "10000", "99999999999999999999", "3;x", "\uff11\uff12", "", " ", "0x3", "+3"],
)
def test_a_bad_header_is_ignored_and_the_contact_still_noted(game: Game, value: str) -> None:
    answer = scoreboard(Client(), game.edit_token, **{"X-Golf-Pending": value})
    assert answer.status_code == 200
    contact = PhoneContact.objects.get(game=game)
    assert contact.pending_writes is None and contact.pending_reported_at is None


def test_the_header_changes_nothing_else(game: Game) -> None:
    version = game.version
    answer = Client().post(
        f"/api/v1/games/{game.edit_token}/holes/",
        {"entries": {"Ann": 3, "Bob": 4}},
        content_type="application/json",
        headers={"X-Golf-Pending": "7"},
    )
    assert answer.status_code == 201
    game.refresh_from_db()
    assert game.version == version + 1 and game.holes.count() == 1
    assert scoreboard(Client(), game.edit_token, **{"X-Golf-Pending": "0"}).status_code == 200
    game.refresh_from_db()
    assert game.version == version + 1
    assert PhoneContact.objects.get(game=game).pending_writes == 0


def test_view_links_and_other_urls_write_nothing(game: Game) -> None:
    client = Client()
    pending = {"X-Golf-Pending": "4"}
    assert scoreboard(client, game.view_token, **pending).status_code == 200
    assert client.get(f"/games/v/{game.view_token}/", headers=pending).status_code == 200
    assert client.get("/score/", headers=pending).status_code == 200
    assert client.get(f"/api/v1/games/{'x' * 32}/scoreboard/", headers=pending).status_code == 404
    assert not PhoneContact.objects.exists()


def test_an_unknown_link_costs_no_statement() -> None:
    assert contact_writes(lambda: Client().get(f"/games/e/{'y' * 32}/")) == 0


def test_the_games_pages_and_the_table_page_count(game: Game) -> None:
    assert Client().get(f"/games/e/{game.edit_token}/").status_code == 200
    assert PhoneContact.objects.filter(game=game).exists()


def test_a_logged_in_visitor_counts_only_with_the_queues_header(game: Game) -> None:
    """A director opening the table's game from the dashboard is not the table's phone."""
    client = Client()
    client.force_login(user("dora"))
    assert client.get(f"/games/e/{game.edit_token}/").status_code == 200
    assert not PhoneContact.objects.exists()
    assert scoreboard(client, game.edit_token, **{"X-Golf-Pending": "1"}).status_code == 200
    assert PhoneContact.objects.get(game=game).pending_writes == 1


def test_it_is_off_when_the_setting_is(game: Game, settings) -> None:
    settings.GOLFCLUB_PHONE_CONTACT = False
    scoreboard(Client(), game.edit_token, **{"X-Golf-Pending": "1"})
    assert not PhoneContact.objects.exists()


def test_the_selectors_read_it(game: Game, django_assert_num_queries) -> None:
    other = services.create_game(players=["Cy", "Di"], ruleset="official")
    phone_contact.record_phone_contact(game.edit_token, 2)
    assert set(phone_contacts([game.pk, other.pk])) == {game.pk}
    loaded = Game.objects.select_related("phone_contact").get(pk=game.pk)
    silent = Game.objects.select_related("phone_contact").get(pk=other.pk)
    with django_assert_num_queries(0):
        assert phone_contact_of(loaded).pending_writes == 2
        assert phone_contact_of(silent) is None


def test_the_parser_takes_digits_only() -> None:
    assert phone_contact.parse_pending(" 12 ") == 12
    assert phone_contact.parse_pending("0") == 0
    assert phone_contact.parse_pending(str(MAX_PHONE_PENDING)) == MAX_PHONE_PENDING
    for bad in (None, "", "-1", "1e3", "١٢", "12345"):
        assert phone_contact.parse_pending(bad) is None


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_it_commits_alone_without_waiting_and_leaves_the_session_as_it_was() -> None:
    """As the middleware runs in production (autocommit): on PostgreSQL the statement's own commit
    does not wait for the disk, and the session's setting is untouched for the next request."""
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    assert not connection.in_atomic_block
    postgresql = connection.vendor == "postgresql"
    if postgresql:  # the suite's database runs with it off: on here, as in production
        with connection.cursor() as cursor:
            cursor.execute("SET synchronous_commit TO on")
    try:
        assert phone_contact.record_phone_contact(game.edit_token, 2)
        assert PhoneContact.objects.get(game=game).pending_writes == 2
        if postgresql:
            with connection.cursor() as cursor:
                cursor.execute("SHOW synchronous_commit")
                assert cursor.fetchone()[0] == "on"
    finally:
        if postgresql:
            with connection.cursor() as cursor:
                cursor.execute("SET synchronous_commit TO off")


HOSTILE = ["-1", "9" * 5000, "\u0663", "\uff11", "3;x", " ", "1e3", "0x10", "NaN", "\u00b2"]


@pytest.mark.parametrize("value", HOSTILE)
def test_no_route_of_an_edit_link_answers_500_to_a_hostile_header(game: Game, value: str) -> None:
    """Pages, the table's page (404: not a table), the API's reads and writes: answered as without it."""
    token = game.edit_token
    client = Client(raise_request_exception=False)
    header = {"X-Golf-Pending": value}
    for url in (f"/games/e/{token}/", f"/games/e/{token}/holes/new/", f"/tournaments/table/{token}/"):
        assert client.get(url, headers=header).status_code in (200, 404)
        phone_contact.forget()
    for url in (f"/api/v1/games/{token}/", f"/api/v1/games/{token}/scoreboard/"):
        assert client.get(url, headers=header).status_code == 200
    hole = client.post(
        f"/api/v1/games/{token}/holes/", {"entries": {"Ann": 1, "Bob": 2}}, content_type="application/json",
        headers=header,
    )  # fmt: skip
    assert hole.status_code == 201
    assert PhoneContact.objects.get(game=game).pending_writes is None
