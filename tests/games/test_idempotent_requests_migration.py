"""Migrations scoring 0011 and tournaments 0012: the tournament's keyed writes move to scoring's one
store (issue 35). Every key answers as it did (its scope, request hash and first answer kept), a key
tied to an event keeps it as `about`, and the move goes back the same way."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from .migration_helpers import migrate_to

BEFORE = [("tournaments", "0011_seating_plan_and_21_rounds"), ("scoring", "0010_turn_times")]
AFTER = [("tournaments", "0012_idempotent_requests_in_scoring")]

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_afterwards")]

ANSWER = {"status": 201, "body": '{"id": 7}', "headers": {"Location": "/api/v1/x/7/"}}


def _old_keys() -> int:
    """Two keys in the tournament's table, one tied to an event; answers the event's id."""
    old = migrate_to(BEFORE)
    director = get_user_model().objects.create_user("dora")
    event = old.get_model("tournaments", "Tournament").objects.create(
        name="Spring Open", director_id=director.pk, ruleset={}, seed=1, tiebreakers=[]
    )
    keys = old.get_model("tournaments", "IdempotentRequest")
    common = {"method": "POST", "route": "api/v1/tournaments/<id>/penalties/", **ANSWER}
    keys.objects.create(scope="user:1", key="k1", request_hash="h1", tournament_id=event.pk, **common)
    keys.objects.create(scope="link:ab", key="k2", request_hash="h2", **common)
    return event.pk


def test_every_key_moves_to_scorings_store_with_its_answer_and_its_event():
    event_id = _old_keys()
    new = migrate_to(AFTER)
    keys = new.get_model("scoring", "IdempotentRequest").objects
    rows = {row.key: row for row in keys.all()}
    assert set(rows) == {"k1", "k2"}
    assert (rows["k1"].scope, rows["k1"].request_hash, rows["k1"].about) == (
        "user:1",
        "h1",
        f"tournament:{event_id}",
    )
    assert (rows["k2"].scope, rows["k2"].about) == ("link:ab", "")
    for row in rows.values():
        assert (row.status, row.body, row.headers) == (201, '{"id": 7}', {"Location": "/api/v1/x/7/"})
    assert "IdempotentRequest".lower() not in new.all_models["tournaments"]


def test_the_move_goes_back():
    event_id = _old_keys()
    migrate_to(AFTER)
    old = migrate_to(BEFORE)
    rows = {row.key: row for row in old.get_model("tournaments", "IdempotentRequest").objects.all()}
    assert rows["k1"].tournament_id == event_id and rows["k2"].tournament_id is None
    assert rows["k1"].headers == {"Location": "/api/v1/x/7/"} and rows["k2"].status == 201
