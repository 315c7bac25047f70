"""Django's PostgreSQL backend, with one change for the test suite: `flush` deletes rows.

After every `transactional_db` test (the browser tests, the races on real transactions)
pytest-django empties the database with `manage.py flush`, which on PostgreSQL is one `TRUNCATE` of
every table. A `TRUNCATE` gives each table a new file, synced to disk: about 0.2-0.9 s for the
project's 31 tables on this machine, where deleting the few rows a test leaves takes 15-25 ms
(docs/performance.md, "Test suite time"). The tables are small in tests, so `DELETE` is the
cheaper way to the same empty tables. Foreign keys are checked at commit (Django creates them
`DEFERRABLE INITIALLY DEFERRED`, and the flush runs in one transaction), so the order of the
deletes does not matter. The content types and permissions are kept (`KEPT_BY_FLUSH`): no test
makes or changes them, and the suite's `flush` command then skips the `post_migrate` handlers that
would make them again (tests/management/commands/flush.py).

A flush that resets the sequences or cascades to tables outside the list (`available_apps`) keeps
Django's `TRUNCATE`, which does both. Production never uses this backend: tests/settings.py only.
"""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base, operations

# Made by the `post_migrate` handlers from the models, never by a test: kept by the `DELETE` flush,
# so that the suite's `flush` command (tests/management/commands/flush.py) need not make them again.
KEPT_BY_FLUSH = frozenset({"django_content_type", "auth_permission"})


class DatabaseOperations(operations.DatabaseOperations):
    """PostgreSQL operations whose plain flush is a `DELETE` per table (content types kept)."""

    kept_by_flush = KEPT_BY_FLUSH

    def sql_flush(
        self, style: Any, tables: list[str], *, reset_sequences: bool = False, allow_cascade: bool = False
    ) -> list[str]:
        """`SET CONSTRAINTS ALL DEFERRED` and one `DELETE FROM` per table but `KEPT_BY_FLUSH`;
        Django's `TRUNCATE` where sequences are reset or the flush must cascade."""
        if not tables or reset_sequences or allow_cascade:
            return super().sql_flush(
                style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        deletes = [
            f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(t))};"
            for t in tables
            if t not in KEPT_BY_FLUSH
        ]
        return [f"{style.SQL_KEYWORD('SET CONSTRAINTS ALL DEFERRED')};", *deletes]


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's PostgreSQL connection with `DatabaseOperations` above."""

    ops_class = DatabaseOperations
