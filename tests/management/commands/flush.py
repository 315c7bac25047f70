"""`flush` for the test suite: after a `DELETE` flush, the `post_migrate` handlers are not run.

pytest-django empties the database after every `transactional_db` test with `flush`, and Django then
sends `post_migrate`, whose handlers recreate the content types and permissions the flush deleted
(about 50 queries: 35 ms of a 40 ms flush on this machine). tests/postgresql_backend's `DELETE`
flush keeps those two tables (`KEPT_BY_FLUSH`), so the handlers would find nothing to do; this
command skips them. The other handler, the cache table's, is not needed either: a flush empties
model tables and the cache table is none. Django's `TRUNCATE` flush (sequences reset, or cascading)
deletes everything and keeps the handlers. Only tests/settings.py installs this (the `tests` app).
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands import flush
from django.db import connections


class Command(flush.Command):
    """Django's `flush`, without `post_migrate` where the backend's flush kept what it would make."""

    def handle(self, **options: Any) -> None:
        """Flush; skip `post_migrate` when the flush is a `DELETE` that keeps the content types."""
        ops = connections[options["database"]].ops
        keeps_content_types = bool(getattr(ops, "kept_by_flush", ()))
        plain = not options.get("reset_sequences", True) and not options.get("allow_cascade", False)
        if keeps_content_types and plain:
            options["inhibit_post_migrate"] = True
        super().handle(**options)
