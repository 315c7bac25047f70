"""manage.py purge_idempotency_keys [--days N]: forget the one-time keys of the keyed writes (the
APIs' `Idempotency-Key`, the pages' form keys, the holes recorded and the games ended with a key:
`scoring.services.idempotency`, the one store of games, clubs and tournaments) stored more than N
days ago (default 7).

A request sent again with a purged key is a new request. Run it daily (cron, a systemd timer).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.services.idempotency import KEEP_DAYS, purge_idempotent_requests


class Command(BaseCommand):
    help = "Delete the idempotency keys (holes, games, clubs, tournaments) older than --days (default 7)."

    def add_arguments(self, parser: CommandParser) -> None:
        """--days N."""
        parser.add_argument(
            "--days", type=int, default=KEEP_DAYS, help=f"Keep the keys of the last N days ({KEEP_DAYS})."
        )

    def handle(self, *args: Any, days: int, **options: Any) -> None:
        """Purge, and say how many keys went."""
        older_than = timedelta(days=max(0, days))
        deleted = purge_idempotent_requests(older_than=older_than)
        self.stdout.write(f"{deleted} idempotency keys older than {max(0, days)} days deleted.")
