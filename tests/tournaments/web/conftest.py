"""Personas and events of the tournament page tests: Dora directs, Cora co-directs, Olive officiates,
Sam is another logged-in user; a table's link and another table's link."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.test import Client

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


@pytest.fixture
def live_event(db) -> Event:
    """Round 1 of Dora's 8-player event in play."""
    return staffed_event()


def as_user(username: str | None) -> Client:
    """A client logged in as `username` (anonymous for None)."""
    client = Client()
    if username:
        client.force_login(user(username))
    return client
