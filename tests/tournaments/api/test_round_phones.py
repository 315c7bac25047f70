"""GET /api/v1/tournaments/{id}/rounds/{n}/phones/: each table's phone as the dashboard shows it,
for the staff only, never cached, in a fixed number of queries."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from scoring import phone_contact
from tests.tournaments.helpers import event_in_play, user
from tournaments import services
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def client_of(username: str | None) -> APIClient:
    client = APIClient()
    if username:
        client.force_authenticate(user(username))
    return client


def test_the_staff_read_each_tables_phone(django_assert_max_num_queries) -> None:
    phone_contact.forget()
    tournament = event_in_play(12, rounds=2, holes=2)
    in_round = Table.objects.filter(round__tournament=tournament).select_related("game")
    tables = list(in_round.order_by("number"))
    ago = timezone.now() - datetime.timedelta(minutes=1)
    phone_contact.record_phone_contact(tables[0].game.edit_token, 3, now=ago)
    eight_ago = ago - datetime.timedelta(minutes=7)
    phone_contact.record_phone_contact(tables[1].game.edit_token, None, now=eight_ago)
    url = f"/api/v1/tournaments/{tournament.pk}/rounds/1/phones/"
    with django_assert_max_num_queries(8):
        answer = client_of("dora").get(url)
    assert answer.status_code == 200 and answer["Cache-Control"] == "no-store"
    body = answer.json()
    assert body["number"] == 1 and body["status"] == "published"
    first, second, third = body["tables"]
    assert first["number"] == 1 and first["phone"]["pending_writes"] == 3 and first["phone"]["to_chase"]
    assert not first["phone"]["silent"] and first["phone"]["pending_reported_at"] is not None
    assert second["phone"]["silent"] and second["phone"]["to_chase"]
    assert second["phone"]["pending_writes"] == 0
    assert third["phone"] == {
        "last_heard_at": None,
        "pending_writes": 0,
        "pending_reported_at": None,
        "silent": False,
        "to_chase": False,
    }


def test_only_the_staff_may_read_it() -> None:
    tournament = event_in_play(8, rounds=2, holes=2)
    services.add_staff(tournament, user("olive").username, "official")
    url = f"/api/v1/tournaments/{tournament.pk}/rounds/1/phones/"
    assert client_of("olive").get(url).status_code == 200
    assert client_of("sam").get(url).status_code == 403  # a public event: 403, not its tables' phones
    assert client_of(None).get(url).status_code == 403
    assert client_of("dora").get(f"/api/v1/tournaments/{tournament.pk}/rounds/2/phones/").status_code == 404


def test_the_schema_documents_it() -> None:
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/v1/tournaments/{tournament_id}/rounds/{number}/phones/"]["get"]
    assert "200" in operation["responses"]
    phone = schema["components"]["schemas"]["Phone"]["properties"]
    assert {"last_heard_at", "pending_writes", "pending_reported_at", "silent", "to_chase"} <= set(phone)
