"""Members' results leave half of each page free (PostgreSQL), so that a rating recompute's UPDATE,
which changes no indexed column, is a HOT update: the new row version on the same page, no entry
written into the table's indexes (bench/club_ratings.py). New pages only: rows already stored
spread out as they are rewritten."""

from typing import Any

from django.db import migrations


def leave_room_for_rating_updates(apps: Any, schema_editor: Any) -> None:
    """PostgreSQL: keep half of each page of the results table free for updated rows."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE clubs_memberresult SET (fillfactor = 50)")


def fill_pages_again(apps: Any, schema_editor: Any) -> None:
    """Undo `leave_room_for_rating_updates`."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE clubs_memberresult RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [("clubs", "0001_clubs")]

    operations = [migrations.RunPython(leave_room_for_rating_updates, fill_pages_again)]
