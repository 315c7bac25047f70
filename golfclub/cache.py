"""The shared caches: Django's database cache with an atomic `incr`, and Redis that falls back to it.

`DatabaseCache`: Django's database cache with an atomic `incr`, so rate-limit counters hold under
concurrency, and `count_hits`, which counts a request against several counters at once.

Django's DatabaseCache increments by reading the value and writing it back: two processes counting
the same request window at the same moment can both read 7 and both write 8, and a flood of
parallel requests slips past its limit. Here the row is locked (SELECT ... FOR UPDATE on
PostgreSQL; SQLite takes the database's write lock) for the read and the write, and the expiry is
left as `add` set it (Django's `incr` would reset it to the default timeout).

`count_hits` is what the rate limits call (golfclub/core/rate_limits.py): one more hit on each of a
request's counters (one per rate: "60/m" and "600/h"), creating a missing or expired counter at 1.
Done with Django's `add` and `incr`, that is six round trips to PostgreSQL per counter (a COUNT(*)
of the whole table, then a transaction for `add` and another for `incr`, each with its COMMIT); here
it is one INSERT ... ON CONFLICT DO UPDATE for all of them. The statement does the arithmetic
itself, so a count is stored as a protocol-0 pickle ("I12\n.", base64 like every value of the table:
`get` reads it as usual); a counter stored in another form (by `add` or by an earlier version) is
counted by `incr` instead, which stores the new count in that form, so the next hit takes the single
statement again.

`ResilientRedisCache`: Django's RedisCache that counts hits in one round trip (one Lua script
doing SET NX and INCR per counter, atomically) and that, when Redis does not answer (connection refused,
reset, or a timeout), does the same operation on the database cache instead and logs a warning.
The rate limits keep counting (in PostgreSQL) and the standings keep being served while Redis is
down; nothing fails open and nothing answers 500. After a failure the process leaves Redis alone for
a few seconds (`RETRY_SECONDS`), so a dead Redis costs one short timeout every few seconds, not one
per request. When Redis is back, its counters start where Redis left them: for at most one window a
client may get up to twice its limit (the database's count and Redis's), never an unlimited number.
"""

from __future__ import annotations

import base64
import logging
import pickle
import threading
import time
from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any

from django.core.cache import caches
from django.core.cache.backends import db
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
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
            # An int as protocol 0 ("I12\n."), the form `count_hits` increments in SQL.
            protocol = 0 if type(new_value) is int else self.pickle_protocol
            encoded = base64.b64encode(pickle.dumps(new_value, protocol)).decode("latin1")
            cursor.execute(
                f"UPDATE {table} SET {qn('value')} = %s WHERE {qn('cache_key')} = %s", [encoded, key]
            )
        return new_value

    def count_hits(self, timeouts: Mapping[str, int], version: int | None = None) -> dict[str, int | None]:
        """One more hit on each counter of `timeouts` (key: seconds it lives), a missing or expired
        one starting at 1 for that long; answers each count (None where it could not be counted)."""
        alias = router.db_for_write(self.cache_model_class)
        connection = connections[alias]
        if connection.vendor != "postgresql":
            from golfclub.core.rate_limits import count_hits_one_by_one

            return count_hits_one_by_one(self, timeouts, version)
        keys = {self.make_and_validate_key(key, version=version): key for key in timeouts}
        now = tz_now().replace(microsecond=0)
        qn = connection.ops.quote_name
        table, key_col, value_col, expires_col = (
            qn(name) for name in (self._table, "cache_key", "value", "expires")
        )
        first = base64.b64encode(pickle.dumps(1, 0)).decode("latin1")
        rows, params = [], []
        for made in sorted(keys):  # one order for every request: no deadlock between two of them
            expires = now + timedelta(seconds=timeouts[keys[made]])
            rows.append("(%s, %s, %s)")
            params += [made, first, connection.ops.adapt_datetimefield_value(expires)]
        # A live counter in protocol 0 ("I12\n." in base64 starts with "ST") gets one more; an
        # expired one starts again; a live one in another form is left to `incr` (not RETURNED).
        stored = f"substring(convert_from(decode(c.{value_col}, 'base64'), 'UTF8') FROM '[0-9]+')::bigint"
        expired = f"c.{expires_col} < %s"
        sql = (
            f"INSERT INTO {table} AS c ({key_col}, {value_col}, {expires_col}) VALUES {', '.join(rows)} "
            f"ON CONFLICT ({key_col}) DO UPDATE SET "
            f"{value_col} = CASE WHEN {expired} THEN EXCLUDED.{value_col} "
            f"ELSE encode(convert_to('I' || ({stored} + 1) || E'\\n.', 'UTF8'), 'base64') END, "
            f"{expires_col} = CASE WHEN {expired} THEN EXCLUDED.{expires_col} ELSE c.{expires_col} END "
            f"WHERE {expired} OR left(c.{value_col}, 2) = 'ST' "
            f"RETURNING {key_col}, {value_col}"
        )
        adapted_now = connection.ops.adapt_datetimefield_value(now)
        with connection.cursor() as cursor:
            cursor.execute(sql, [*params, adapted_now, adapted_now, adapted_now])
            rows_back = cursor.fetchall()
        counted = {keys[made]: pickle.loads(base64.b64decode(value.encode())) for made, value in rows_back}
        for key in timeouts:
            if key not in counted:
                try:
                    counted[key] = self.incr(key, version=version)
                except ValueError:  # gone meanwhile (a cache cleared): not counted
                    counted[key] = None
        return counted


logger = logging.getLogger(__name__)


def _redis_unreachable_errors() -> tuple[type[BaseException], ...]:
    """What redis-py raises when the server does not answer (not a bad command or a wrong type)."""
    import redis

    return (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


# KEYS: the counters; ARGV: each one's lifetime in seconds. Answers each counter's new count.
_COUNT_HITS_LUA = """
local counts = {}
for index, key in ipairs(KEYS) do
    redis.call('SET', key, 0, 'EX', ARGV[index], 'NX')
    counts[index] = redis.call('INCR', key)
end
return counts
"""


class _ReusedRedisClient(RedisCacheClient):
    """Django's Redis client maker, but one redis-py client per connection pool, made once.

    Django makes a new `redis.Redis` for every cache operation, and redis-py's constructor builds its
    table of some 170 reply parsers each time: about half of the CPU of counting a hole's rate
    limits (bench/hole_profile.py). A `redis.Redis` only holds its pool and that table, and may be
    shared by threads, so it is made once per pool.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}
        # The counting script registered with the write client; it lives and dies with this object
        # (a registry beside it would keep every client and its connection alive).
        self._count_script: Any = None

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        """The redis-py client of the server for `key` (writes go to the first server)."""
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client

    def count_script(self) -> Any:
        """The counting script (`_COUNT_HITS_LUA`) of the write server, registered once."""
        client = self.get_client(write=True)
        script = self._count_script
        if script is None or script.registered_client is not client:
            script = self._count_script = client.register_script(_COUNT_HITS_LUA)
        return script


class ResilientRedisCache(RedisCache):
    """Redis, or the `FALLBACK` cache alias while Redis does not answer (see the module docstring).

    Settings, beside RedisCache's: `FALLBACK` the alias of the cache to use meanwhile (a
    `DatabaseCache`), `RETRY_SECONDS` how long a process leaves Redis alone after a failure (5).
    Give OPTIONS short `socket_connect_timeout` and `socket_timeout`: each failed try costs that.
    """

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        params = dict(params)
        self._fallback_alias = params.pop("FALLBACK")
        self._retry_seconds = float(params.pop("RETRY_SECONDS", 5))
        super().__init__(server, params)
        self._class = _ReusedRedisClient
        # Per process (Django makes a cache object per thread): when this process may try Redis again.
        self._down = _DOWN.setdefault(str(server), _Down())

    @property
    def fallback(self) -> Any:
        """The cache answering while Redis does not."""
        return caches[self._fallback_alias]

    def redis_is_down(self) -> bool:
        """Whether this process is leaving Redis alone after a recent failure."""
        return time.monotonic() < self._down.until

    def _either(
        self, name: str, *args: Any, on_redis: Callable[..., Any] | None = None, **kwargs: Any
    ) -> Any:
        """`name` on Redis (or `on_redis`); on the fallback cache when Redis failed lately or fails now."""
        if not self.redis_is_down():
            try:
                method: Callable[..., Any] = on_redis or getattr(super(), name)
                return method(*args, **kwargs)
            except _redis_unreachable_errors() as error:
                with self._down.lock:
                    self._down.until = time.monotonic() + self._retry_seconds
                logger.warning(
                    "Redis did not answer (%s: %s): the database cache stands in for %.0f s",
                    type(error).__name__,
                    error,
                    self._retry_seconds,
                )
        return getattr(self.fallback, name)(*args, **kwargs)

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        """Set `key` only if it is missing; True if it was set."""
        return self._either("add", key, value, timeout, version)

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        """The value of `key`, or `default`."""
        return self._either("get", key, default, version)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        """Store `value` under `key`."""
        self._either("set", key, value, timeout, version)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        """Give `key` a new expiry."""
        return self._either("touch", key, timeout, version)

    def delete(self, key: Any, version: int | None = None) -> bool:
        """Forget `key`."""
        return self._either("delete", key, version)

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        """The values of those `keys` that are present."""
        return self._either("get_many", keys, version)

    def has_key(self, key: Any, version: int | None = None) -> bool:
        """Whether `key` is present."""
        return self._either("has_key", key, version)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> Any:
        """Add `delta` to the value of `key` atomically; ValueError when it is missing."""
        return self._either("incr", key, delta, version)

    def count_hits(self, timeouts: Mapping[str, int], version: int | None = None) -> dict[str, int | None]:
        """One more hit on each counter of `timeouts` (key: seconds it lives), a missing or expired
        one starting at 1 for that long; answers each count. One round trip to Redis for them all."""
        return self._either("count_hits", timeouts, version, on_redis=self._count_hits_in_redis)

    def _count_hits_in_redis(self, timeouts: Mapping[str, int], version: int | None) -> dict[str, int | None]:
        """`count_hits` on Redis: per counter, SET NX (the counter at 0 with its expiry) then INCR, all
        in one Lua script run atomically, so no counter can expire between the two and be left
        without an expiry. One command (EVALSHA) where a MULTI/EXEC pipeline sent six: redis-py's
        packing and parsing of those was most of the counting's CPU (bench/hole_profile.py). A
        server that forbids scripts (an ACL without @scripting) gets the pipeline."""
        import redis

        keys = [self.make_and_validate_key(key, version=version) for key in timeouts]
        lifetimes = [max(1, int(timeout)) for timeout in timeouts.values()]
        try:
            # redis-py runs EVALSHA, and loads the script first if this server does not know it yet.
            answers = self._cache.count_script()(keys=keys, args=lifetimes)
        except redis.exceptions.NoPermissionError:
            pipeline = self._cache.get_client(None, write=True).pipeline(transaction=True)
            for key, lifetime in zip(keys, lifetimes, strict=True):
                pipeline.set(key, 0, ex=lifetime, nx=True)
                pipeline.incr(key)
            answers = pipeline.execute()[1::2]
        return {key: int(answer) for key, answer in zip(timeouts, answers, strict=True)}

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> list[Any]:
        """Store every pair of `data`."""
        return self._either("set_many", data, timeout, version)

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        """Forget `keys`."""
        self._either("delete_many", keys, version)

    def clear(self) -> bool:
        """Empty the cache (Redis, or the fallback while Redis is down)."""
        return self._either("clear")


class _Down:
    """When a process may try a Redis server again, shared by that process's threads."""

    def __init__(self) -> None:
        self.until = 0.0
        self.lock = threading.Lock()


_DOWN: dict[str, _Down] = {}
