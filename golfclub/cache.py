"""Django's database cache with an atomic `incr`, so rate-limit counters hold under concurrency.

Django's DatabaseCache increments by reading the value and writing it back: two processes counting
the same request window at the same moment can both read 7 and both write 8, and a flood of
parallel requests slips past its limit. Here the row is locked (SELECT ... FOR UPDATE on
PostgreSQL; SQLite takes the database's write lock) for the read and the write, and the expiry is
left as `add` set it (Django's `incr` would reset it to the default timeout).
"""

from __future__ import annotations

import base64
import pickle
from typing import Any

from django.core.cache.backends import db
from django.db import connections, models, router, transaction
from django.utils.timezone import now as tz_now


class DatabaseCache(db.DatabaseCache):
    """A shared cache in a database table (`createcachetable`) whose increments are atomic."""

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> Any:
        """Add `delta` to the stored value under a row lock; ValueError when the key is missing."""
        key = self.make_and_validate_key(key, version=version)
        alias = router.db_for_write(self.cache_model_class)
        connection = connections[alias]
        qn = connection.ops.quote_name
        table = qn(self._table)
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        with transaction.atomic(using=alias), connection.cursor() as cursor:
            if connection.vendor == "sqlite":
                # Take the write lock before reading, or two readers deadlock upgrading theirs.
                cursor.execute(f"UPDATE {table} SET {qn('cache_key')} = {qn('cache_key')} WHERE 0")
            cursor.execute(
                f"SELECT {qn('value')}, {qn('expires')} FROM {table} WHERE {qn('cache_key')} = %s{lock}",
                [key],
            )
            row = cursor.fetchone()
            if row is None:
                raise ValueError(f"Key '{key}' not found")
            value, expires = row
            expression = models.Expression(output_field=models.DateTimeField())
            for converter in connection.ops.get_db_converters(expression) + expression.get_db_converters(
                connection
            ):
                expires = converter(expires, expression, connection)
            if expires < tz_now():
                raise ValueError(f"Key '{key}' not found")
            value = pickle.loads(base64.b64decode(connection.ops.process_clob(value).encode(), validate=True))
            new_value = value + delta
            encoded = base64.b64encode(pickle.dumps(new_value, self.pickle_protocol)).decode("latin1")
            cursor.execute(
                f"UPDATE {table} SET {qn('value')} = %s WHERE {qn('cache_key')} = %s", [encoded, key]
            )
        return new_value
