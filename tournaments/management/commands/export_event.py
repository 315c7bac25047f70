"""`manage.py export_event ID [--output FILE]`: one event's backup file, as JSON (docs/backup.md).

Without `--output` the JSON goes to standard output. With it, the file is written next to its
final name and renamed into place (a crash never leaves half a file under that name), readable by
its owner only: it holds the tables' link tokens, secrets as the database is.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from tournaments.backup import export_event
from tournaments.models import Tournament


def write_private(path: Path, text: str) -> None:
    """Write `text` to `path` (mode 600) through a temporary file renamed into place."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class Command(BaseCommand):
    help = "Write one tournament, with every table's game and history, to a JSON backup file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament_id", type=int, help="The tournament's id (as in its address).")
        parser.add_argument("--output", "-o", help="The file to write (standard output when left out).")

    def handle(self, *args: Any, tournament_id: int, output: str | None = None, **options: Any) -> None:
        try:
            document = export_event(tournament_id)
        except Tournament.DoesNotExist:
            raise CommandError(_("There is no tournament %(id)s.") % {"id": tournament_id}) from None
        text = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
        if output is None or output == "-":
            self.stdout.write(text, ending="")
            return
        path = Path(output)
        if not path.parent.is_dir():
            raise CommandError(_("There is no folder %(folder)s to write into.") % {"folder": path.parent})
        write_private(path, text)
        event = document["event"]
        self.stderr.write(
            _("Wrote %(name)s (tournament %(id)s: %(players)s players, %(rounds)s rounds) to %(path)s.")
            % {
                "name": event["tournament"]["name"],
                "id": tournament_id,
                "players": len(event["entrants"]),
                "rounds": len(event["rounds"]),
                "path": path,
            }
        )
