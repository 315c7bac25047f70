"""A member's average time per turn: the turn timer's readings of their club games, end to end."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.clubs.factories import club_game, make_club, make_members, make_owner

pytestmark = pytest.mark.django_db


def test_the_times_a_phone_reports_become_the_members_average_per_turn() -> None:
    owner = make_owner("timer-owner")
    club = make_club(owner=owner)
    ann, bob = make_members(club, "Ann", "Bob")
    game = club_game(club, [ann, bob, "Guest"], [{"Ann": 3, "Bob": 5, "Guest": 7}] * 9)
    client = APIClient()
    # Hole 1: Ann took 40 s over 4 turns, Bob 90 s over 3; hole 2: Ann 20 s over 2 turns.
    ann_1 = {"seat": 0, "milliseconds": 40_000, "turns": 4}
    bob_1 = {"seat": 1, "milliseconds": 90_000, "turns": 3}
    ann_2 = {"seat": 0, "milliseconds": 20_000, "turns": 2}
    report = {"holes": [{"number": 1, "seats": [ann_1, bob_1]}, {"number": 2, "seats": [ann_2]}]}
    sent = client.put(f"/api/v1/games/{game.edit_token}/turn-times/", report, format="json")
    assert sent.status_code == 200, sent.content
    client.force_authenticate(owner)
    ann_stats = client.get(f"/api/v1/clubs/{club.pk}/members/{ann.pk}/").json()
    bob_stats = client.get(f"/api/v1/clubs/{club.pk}/members/{bob.pk}/").json()
    assert ann_stats["average_seconds_per_turn"] == 10.0  # 60 s over 6 turns
    assert bob_stats["average_seconds_per_turn"] == 30.0
    client.force_login(owner)  # the member's page is a Django view: a session, not DRF's forced user
    page = client.get(f"/clubs/{club.pk}/members/{ann.pk}/")
    assert page.status_code == 200
    assert "10" in page.content.decode() and "per turn" in page.content.decode()


def test_a_member_never_timed_has_no_average() -> None:
    owner = make_owner("timer-owner-2")
    club = make_club(owner=owner)
    ann, bob = make_members(club, "Ann", "Bob")
    club_game(club, [ann, bob], [{"Ann": 3, "Bob": 5}] * 9)
    client = APIClient()
    client.force_authenticate(owner)
    assert client.get(f"/api/v1/clubs/{club.pk}/members/{ann.pk}/").json()["average_seconds_per_turn"] is None
