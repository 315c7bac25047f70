"""Migration 0002_names on existing rows: keys filled by `golfclub.core.names`, collisions renamed.

Runs the real migration backwards and forwards on the test database (SQLite or PostgreSQL).
"""

from __future__ import annotations

import pytest

from .migration_helpers import migrate_to

BEFORE = [("scoring", "0001_initial")]
AFTER = [("scoring", "0002_names")]

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_afterwards")]


def test_it_fills_name_keys_and_renames_names_that_now_collide(django_user_model):
    owner = django_user_model.objects.create_user("host", password="pw-12345-long")
    old = migrate_to(BEFORE)
    try:
        player, game, seat = (old.get_model("scoring", m) for m in ("Player", "Game", "Seat"))
        ann = player.objects.create(owner_id=owner.pk, name="Ann")
        clash = player.objects.create(owner_id=owner.pk, name="ANN")  # allowed by the old constraint
        player.objects.create(owner_id=owner.pk, name="Ann (2)")  # the first free suffix is (3)
        loose = [player.objects.create(name="cy"), player.objects.create(name="CY")]  # no owner: no clash
        table = game.objects.create(ruleset={}, edit_token="e", view_token="v")
        seats = [
            seat.objects.create(game=table, seat=0, name="Jos\u00e9"),
            seat.objects.create(game=table, seat=1, name="Jose\u0301"),  # the same, decomposed
            seat.objects.create(game=table, seat=2, name="x" * 40),
            seat.objects.create(game=table, seat=3, name="X" * 40),
        ]
    finally:
        new = migrate_to(AFTER)
    player, seat = new.get_model("scoring", "Player"), new.get_model("scoring", "Seat")
    names = dict(player.objects.filter(owner_id=owner.pk).values_list("pk", "name"))
    assert names[ann.pk] == "Ann" and names[clash.pk] == "ANN (3)"
    assert player.objects.get(pk=ann.pk).name_key == "ann"
    assert sorted(player.objects.filter(pk__in=[p.pk for p in loose]).values_list("name_key", flat=True)) == [
        "cy",
        "cy",
    ]
    stored = list(
        seat.objects.filter(pk__in=[s.pk for s in seats]).order_by("seat").values_list("name", "name_key")
    )
    assert stored == [
        ("Jos\u00e9", "jos\u00e9"),
        ("Jose\u0301 (2)", "jos\u00e9 (2)"),
        ("x" * 40, "x" * 40),
        ("X" * 36 + " (2)", "x" * 36 + " (2)"),
    ]
