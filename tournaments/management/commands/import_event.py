"""`manage.py import_event FILE`: load one event's backup file (`export_event`) into this database.

All or nothing, in one transaction: a file that is cut short, damaged, of another version, or
whose event (ids, table link tokens) the database already holds is refused with what is wrong and
where, and nothing is written (docs/backup.md). A file whose stored totals lag behind its holes
(written by an older version while tables were scoring) is loaded with them rebuilt from the
holes: each table rebuilt is named on standard error.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from golfclub.core.backup import BackupError
from tournaments.restore import import_event, parse_backup


class Command(BaseCommand):
    help = "Load a tournament from a JSON backup file written by export_event (all or nothing)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The backup file (- for standard input).")

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        try:
            raw = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
        except OSError as error:
            raise CommandError(
                _("Cannot read %(file)s: %(why)s") % {"file": file, "why": error.strerror}
            ) from None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise CommandError(_("%(file)s is not UTF-8 text: not a backup file.") % {"file": file}) from None
        notes: list[str] = []
        try:
            tournament = import_event(parse_backup(text), notes)
        except BackupError as error:
            raise CommandError(_("Nothing was imported. %(error)s") % {"error": error}) from None
        for note in notes:
            self.stderr.write(note)
        self.stdout.write(
            _("Imported %(name)s as tournament %(id)s.") % {"name": tournament.name, "id": tournament.pk}
        )
