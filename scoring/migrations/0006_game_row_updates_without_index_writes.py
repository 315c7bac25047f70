"""A recorded hole writes no index entry for the game row it updates (issue 21, item 4).

- `game_owner_recent` (owner, updated_at) goes: `updated_at` changes with every hole, so each
  hole's UPDATE of the game row wrote a new entry into every one of the table's nine indexes.
  Without it no index holds a column a hole changes, and the UPDATE is a HOT update (no index
  writes; about 14% less WAL per recorded hole, docs/performance.md). The owner's own index
  still finds a user's games.
- the game table keeps 30% of each page free (fillfactor 70, PostgreSQL only) so that the new
  version of a game row fits on its page, which a HOT update needs.
- a seat's game no longer has an index of its own: the unique (game, seat) and (game, name_key)
  both start with it.
"""

from typing import Any

import django.db.models.deletion
from django.db import migrations, models


def leave_room_for_updates(apps: Any, schema_editor: Any) -> None:
    """PostgreSQL: keep 30% of each page of the game table free for updated rows."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE scoring_game SET (fillfactor = 70)")


def fill_pages_again(apps: Any, schema_editor: Any) -> None:
    """Undo `leave_room_for_updates`."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE scoring_game RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0005_foundation_seams"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="game",
            name="game_owner_recent",
        ),
        migrations.AlterField(
            model_name="seat",
            name="game",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="seats",
                to="scoring.game",
                verbose_name="game",
            ),
        ),
        migrations.RunPython(leave_room_for_updates, fill_pages_again),
    ]
