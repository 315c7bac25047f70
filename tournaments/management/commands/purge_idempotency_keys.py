"""manage.py purge_idempotency_keys [--days N]: forget the one-time keys of the tournament writes
(the API's `Idempotency-Key`, the pages' form keys) stored more than N days ago (default 7).

A request sent again with a purged key is a new request. Run it daily (cron, a systemd timer).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.services.idempotency import KEEP_DAYS, purge_idempotent_requests


class Command(BaseCommand):
    help = "Delete the tournament writes' idempotency keys older than --days (default 7)."

    def add_arguments(self, parser: CommandParser) -> None:
        """--days N."""
        parser.add_argument(
            "--days", type=int, default=KEEP_DAYS, help=f"Keep the keys of the last N days ({KEEP_DAYS})."
        )

    def handle(self, *args: Any, days: int, **options: Any) -> None:
        """Purge, and say how many keys went."""
        deleted = purge_idempotent_requests(older_than=timedelta(days=max(0, days)))
        self.stdout.write(f"{deleted} idempotency keys older than {max(0, days)} days deleted.")
