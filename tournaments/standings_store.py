"""The standings' shared-cache entry as a small head and its parts under keys of their own, and a
per-process memo of the parts read or written.

`tournaments.standings_cache` keeps, per tournament (live or released), a table of 1,000 lines and
what its computation read: about 125 kB compressed. Written as one value after every hole, the
database cache spent 7-8 ms writing it and every reader 4-6 ms unpickling it. Here the entry is:

- the **head**, under `standings_cache_key`: the version, the small fields, and the name and
  content digest (BLAKE2b, 16 bytes) of every **part**;
- each part (a chunk of lines, a round's packed records, ...) under `<head key>:<name>`.

A write (`save`) sends the head and only the parts whose digest moved (`cache.set_many`, parts
first); a read (`load`) reads the head, then in one `get_many` only the parts this process does not
hold already. The memo is keyed by digest: a part is taken from it only when the shared head names
that very digest, so several app processes sharing the cache never answer what another one replaced.
A part read from the cache whose bytes are not the digest the head names (a writer overwrote it
meanwhile) makes the whole entry unknown: computed again, never answered mixed.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any

from django.core.cache import cache, caches
from django.core.cache.backends import db
from django.db import connections, router, transaction
from django.utils.timezone import now as tz_now

#: How long a tournament's entry stays in the shared cache after its last write.
CACHE_SECONDS = 24 * 3600

#: How many parts (blobs, and decoded objects) each process keeps: a 1,000-player table is about 35.
MEMO_SIZE = 400

logger = logging.getLogger("tournaments.standings")


class _Memo:
    """A small least-recently-used map, safe across threads."""

    def __init__(self, size: int) -> None:
        self._items: OrderedDict[Any, Any] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: Any) -> Any:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: Any, value: Any) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


_BLOBS = _Memo(MEMO_SIZE)  # digest -> blob
_DECODED = _Memo(MEMO_SIZE)  # (kind, digest) -> decoded object


def digest(blob: bytes) -> bytes:
    """The content digest a head names a part by."""
    return hashlib.blake2b(blob, digest_size=16).digest()


def decoded[T](kind: str, blob: bytes, decode: Callable[[bytes], T]) -> T:
    """`decode(blob)`, from the memo when this process decoded the same bytes already. The object
    is shared: a caller that changes it changes it for the next one (copy it first)."""
    key = (kind, digest(blob))
    found = _DECODED.get(key)
    if found is None:
        found = decode(blob)
        _DECODED.put(key, found)
    return found


def remember(kind: str, blob: bytes, value: Any) -> None:
    """Note that `blob` decodes (as `kind`) to `value`, which the caller will not change."""
    _DECODED.put((kind, digest(blob)), value)


def forget() -> None:
    """Empty this process's memo (tests)."""
    _BLOBS.clear()
    _DECODED.clear()


def load(key: str) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The head under `key` and every part it names (name -> blob), or ({}, {}) when there is none,
    a part is missing or not the one named, or the cache cannot be read (never an error)."""
    try:
        blob = cache.get(key)
        head = pickle.loads(blob) if isinstance(blob, bytes) else None
        if not isinstance(head, dict) or not isinstance(head.get("parts"), dict):
            return {}, {}
        named: dict[str, bytes] = head["parts"]
        parts = {name: _BLOBS.get(named[name]) for name in named}
        missing = [name for name, found in parts.items() if found is None]
        if missing:
            read = cache.get_many([f"{key}:{name}" for name in missing])
            for name in missing:
                found = read.get(f"{key}:{name}")
                if not isinstance(found, bytes) or digest(found) != named[name]:
                    return {}, {}  # overwritten meanwhile, or gone: unknown, computed again
                _BLOBS.put(named[name], found)
                parts[name] = found
    except Exception:  # a cache outage or a bad entry must not take the standings down
        logger.warning("standings cache unreadable", exc_info=True)
        return {}, {}
    return head, parts


def save(key: str, head: dict[str, Any], parts: Mapping[str, bytes], before: Mapping[str, bytes]) -> None:
    """Write `parts` (name -> blob) whose digest is not `before`'s (the digests the head read
    named), then `head` naming them all; a failure is only logged."""
    named = {name: digest(blob) for name, blob in parts.items()}
    changed = {f"{key}:{name}": blob for name, blob in parts.items() if before.get(name) != named[name]}
    for name, blob in parts.items():
        _BLOBS.put(named[name], blob)
    values: dict[str, Any] = {**changed, key: pickle.dumps({**head, "parts": named}, pickle.HIGHEST_PROTOCOL)}
    try:
        if not _upsert(values):
            cache.set_many(values, CACHE_SECONDS)
    except Exception:
        logger.warning("standings cache unwritable", exc_info=True)


def _upsert(values: Mapping[str, Any]) -> bool:
    """Write `values` into the database cache on PostgreSQL or SQLite in one statement (Django's
    `set_many` takes four round trips a key: a COUNT(*) of the table, then a transaction reading
    the row and writing it), stored exactly as `DatabaseCache.set` stores them; False (nothing
    done) with any other cache. No culling: a tournament's parts are a few dozen keys, written
    again in place."""
    backend = caches["default"]  # `cache` is a proxy to it
    if not isinstance(backend, db.DatabaseCache):
        return False
    alias = router.db_for_write(backend.cache_model_class)
    connection = connections[alias]
    if connection.vendor not in ("postgresql", "sqlite"):  # both say INSERT ... ON CONFLICT
        return False
    qn = connection.ops.quote_name
    expires = connection.ops.adapt_datetimefield_value(
        tz_now().replace(microsecond=0) + timedelta(seconds=CACHE_SECONDS)
    )
    rows, params = [], []
    for key in sorted(values):  # one order for every writer: no deadlock between two of them
        encoded = base64.b64encode(pickle.dumps(values[key], backend.pickle_protocol)).decode("latin1")
        rows.append("(%s, %s, %s)")
        params += [backend.make_and_validate_key(key), encoded, expires]
    table, key_col, value_col, expires_col = (
        qn(name) for name in (backend._table, "cache_key", "value", "expires")
    )
    sql = (
        f"INSERT INTO {table} ({key_col}, {value_col}, {expires_col}) VALUES {', '.join(rows)} "
        f"ON CONFLICT ({key_col}) DO UPDATE SET {value_col} = EXCLUDED.{value_col}, "
        f"{expires_col} = EXCLUDED.{expires_col}"
    )
    if connection.in_atomic_block:  # the caller's transaction: written with it
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
        return True
    # A transaction of its own that does not wait for the disk: a write lost in a crash costs one
    # computation again (the versions name what an entry is), never a wrong table.
    with transaction.atomic(using=alias), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL synchronous_commit TO OFF")
        cursor.execute(sql, params)
    return True
