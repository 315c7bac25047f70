"""Migration 0005: an Idempotency-Key keeps its hole's number, read from the answer stored before."""

from __future__ import annotations

import pytest

from .migration_helpers import migrate_to

BEFORE = [("scoring", "0004_idempotency_key_keeps_hole_id")]
AFTER = [("scoring", "0005_foundation_seams")]

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_afterwards")]


def test_it_keeps_the_number_each_key_answered_and_drops_the_stored_answer():
    old = migrate_to(BEFORE)
    try:
        game = old.get_model("scoring", "Game").objects.create(ruleset={}, edit_token="e", view_token="v")
        keys = old.get_model("scoring", "IdempotencyKey")
        answered = keys.objects.create(
            game=game,
            key="k1",
            request_hash="h",
            hole_id=41,
            response_status=201,
            response_body={"number": 3},
        )
        unanswered = keys.objects.create(game=game, key="k2", request_hash="h", response_body=None)
    finally:
        new = migrate_to(AFTER)
    keys = new.get_model("scoring", "IdempotencyKey")
    assert keys.objects.get(pk=answered.pk).hole_number == 3
    assert keys.objects.get(pk=answered.pk).hole_id == 41
    assert keys.objects.get(pk=unanswered.pk).hole_number is None
    assert {f.name for f in keys._meta.get_fields()}.isdisjoint({"response_status", "response_body"})
