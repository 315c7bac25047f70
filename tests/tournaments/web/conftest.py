"""Personas and events of the tournament page tests: Dora directs, Cora co-directs, Olive officiates,
Sam is another logged-in user; a table's link and another table's link."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client

from tests.committed import flush_committed
from tests.tournaments.helpers import event, user
from tournaments import services
from tournaments.models import Round, Table, Tournament


@dataclass
class Event:
    """An event with its staff, round 1 seated and published (two tables of four)."""

    tournament: Tournament
    round: Round
    table: Table
    other_table: Table

    @property
    def url(self) -> str:
        """The event's dashboard URL."""
        return f"/tournaments/{self.tournament.pk}/"


def staffed_event(players: int = 8, *, publish: bool = True, **settings: object) -> Event:
    """Dora's event with Cora as co-director and Olive as official, round 1 seated (and published)."""
    tournament = event(players, rounds=2, holes=2, **settings)
    services.add_staff(tournament, user("cora").username, "co_director")
    services.add_staff(tournament, user("olive").username, "official")
    user("sam")
    round_ = services.seat_next_round(tournament)
    if publish:
        services.publish_round(tournament, 1)
    tables = list(Table.objects.filter(round=round_).select_related("game").order_by("number"))
    return Event(tournament, round_, tables[0], tables[1])


@pytest.fixture(scope="module")
def shared_live_event(django_db_setup: None, django_db_blocker: Any) -> Iterator[dict[str, int]]:
    """`staffed_event()` built once per module and committed: the primary keys of its tournament,
    round and two tables. Flushed after the module (tests/committed.py)."""
    try:
        with django_db_blocker.unblock():
            built = staffed_event()
        yield {
            "tournament": built.tournament.pk,
            "round": built.round.pk,
            "table": built.table.pk,
            "other_table": built.other_table.pk,
        }
    finally:
        flush_committed(django_db_blocker)


@pytest.fixture
def live_event(db, shared_live_event: dict[str, int]) -> Event:
    """Round 1 of Dora's 8-player event in play: the module's shared event, read fresh from the
    database for each test (whose writes roll back with its transaction)."""
    tables = Table.objects.select_related("game")
    return Event(
        Tournament.objects.get(pk=shared_live_event["tournament"]),
        Round.objects.get(pk=shared_live_event["round"]),
        tables.get(pk=shared_live_event["table"]),
        tables.get(pk=shared_live_event["other_table"]),
    )


def as_user(username: str | None) -> Client:
    """A client logged in as `username` (anonymous for None)."""
    client = Client()
    if username:
        client.force_login(user(username))
    return client
