"""Names unique as people mean them, and one game per start form.

- `Player.name_key` and `Seat.name_key`: the comparison key of the name (`golfclub.core.names.name_key`:
  NFKC, invisible characters dropped, case-folded). The unique constraints move from the name to
  the key: a roster holds one "Ann" whatever the case, width or accent composition, a table too.
- `Game.start_key`: the start form's random key, unique, so two submissions of one form (even at
  the same moment) make one game.

Existing rows get their key from the same function the services use. Rows whose names collided
only by case or composition (the unique constraint used to hold on the exact name) cannot keep
the same name under the new constraint: the later rows (higher id) get " (2)", " (3)"... appended
to their name, which stays visible to the players and can be renamed. Rows are read in pages, so
memory stays small whatever the table size. Works on SQLite and PostgreSQL (the data step runs
between adding the column and adding the constraint).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import migrations, models
from django.db.models import Count

from golfclub.core.names import KEY_MAX_LENGTH, MAX_NAME_LENGTH, name_key

BATCH = 1000


def _fill_keys(model: Any, group_field: str) -> None:
    """Set `name_key` on every row, then rename the later rows of a group whose keys collide."""
    # Pages by primary key, each read in full before it is written (SQLite does not isolate a
    # cursor from writes on the same connection).
    last = 0
    while True:
        rows = list(model.objects.filter(pk__gt=last).order_by("pk").only("pk", "name")[:BATCH])
        if not rows:
            break
        for row in rows:
            row.name_key = name_key(row.name)
        model.objects.bulk_update(rows, ["name_key"])
        last = rows[-1].pk
    # Collisions are rare (only names that differed by case or composition): fix them one by one.
    grouped = model.objects.filter(**{f"{group_field}__isnull": False}).values(group_field, "name_key")
    for clash in grouped.annotate(rows=Count("pk")).filter(rows__gt=1).order_by(group_field, "name_key"):
        group = {group_field: clash[group_field]}
        taken = set(model.objects.filter(**group).values_list("name_key", flat=True))
        for row in model.objects.filter(**group, name_key=clash["name_key"]).order_by("pk")[1:]:
            row.name, row.name_key = _free_name(row.name, taken)
            taken.add(row.name_key)
            row.save(update_fields=["name", "name_key"])


def _free_name(name: str, taken: set[str]) -> tuple[str, str]:
    """`name (n)` for the first n from 2 whose key is not taken; the name cut to fit 40 characters."""
    number = 2
    while True:
        suffix = f" ({number})"
        candidate = f"{name[: MAX_NAME_LENGTH - len(suffix)].rstrip()}{suffix}".strip()
        key = name_key(candidate)
        if key not in taken:
            return candidate, key
        number += 1


def fill_name_keys(apps: Any, schema_editor: Any) -> None:
    """Keys for every roster player (grouped per owner) and every seat (grouped per game)."""
    _fill_keys(apps.get_model("scoring", "Player"), "owner_id")
    _fill_keys(apps.get_model("scoring", "Seat"), "game_id")
    if schema_editor.connection.vendor == "postgresql":
        # A row updated twice in this transaction queues its deferred foreign-key checks, and
        # PostgreSQL will not build the unique indexes below over pending checks: run them now.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        schema_editor.execute("SET CONSTRAINTS ALL DEFERRED")


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="player", name="player_unique_name_per_owner"),
        migrations.RemoveConstraint(model_name="seat", name="seat_unique_name"),
        migrations.AddField(
            model_name="game",
            name="start_key",
            field=models.CharField(
                blank=True, max_length=64, null=True, unique=True, verbose_name="start key"
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(
                default="", editable=False, max_length=KEY_MAX_LENGTH, verbose_name="name key"
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="seat",
            name="name_key",
            field=models.CharField(
                default="", editable=False, max_length=KEY_MAX_LENGTH, verbose_name="name key"
            ),
            preserve_default=False,
        ),
        # Backwards: the keys are simply dropped with their columns; renamed duplicates stay renamed.
        migrations.RunPython(fill_name_keys, migrations.RunPython.noop, elidable=False),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                condition=models.Q(("owner__isnull", False)),
                fields=("owner", "name_key"),
                name="player_unique_name_key_per_owner",
                violation_error_message="This name is already on the owner's list.",
            ),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.UniqueConstraint(
                fields=("game", "name_key"),
                name="seat_unique_name_key",
                violation_error_message="This name is already at the table.",
            ),
        ),
    ]
