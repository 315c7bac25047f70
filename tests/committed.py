"""Data built once for a whole test module and committed, shared by its tests.

A module fixture builds inside `django_db_blocker.unblock()` (autocommit: the rows are committed) and
hands out primary keys; each test still uses the `db` fixture, so what it writes is rolled back and
every test starts from the same committed rows, which it reads fresh from the database. After the
module, `flush_committed` empties the tables again, as pytest-django does after each
`transactional_db` test, so the next module finds the database as it expects.

Not for modules with `transactional_db` or `live_server` tests: their flush would drop the shared
rows between tests.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.db import DatabaseCache
from django.core.management import call_command


def flush_committed(django_db_blocker: Any) -> None:
    """Empty every table of the test database, as after a `transactional_db` test, and the cache
    table too (flush leaves it): no standings entry of a shared event outlives its module, where a
    later event could reuse its primary key and version. A Redis cache is left alone."""
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)
        for alias in settings.CACHES:
            if isinstance(caches[alias], DatabaseCache):
                caches[alias].clear()
