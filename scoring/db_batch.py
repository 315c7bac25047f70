"""The machinery under the hand-written statements of `scoring/db_statements.py`.

Built by the ORM, the statements every recorded hole runs cost about three times the Python time
of sending them (measured with bench/live_games.py), so `scoring.db_statements` writes those few
out, on top of what is here: a batch of writes sent in one round trip (`Writes`), rows read into
model instances as the ORM converts them (`instances`), and INSERTs whose values are prepared by
each model field exactly as the ORM prepares them (`insert`). Vendor-neutral; nothing here knows
about Golf. Only `scoring.db_statements` uses this module; everything else uses the ORM.
"""

from __future__ import annotations

import hashlib
import re
import weakref
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

__all__ = [
    "Writes",
    "current",
    "forget_prepared",
    "insert",
    "instances",
    "prepared_names",
    "prepared_statement_gone",
    "prepares",
    "quote",
    "send_batch",
    "sends_at_once",
]


def current() -> BaseDatabaseWrapper:
    """The default database's connection of this thread itself.

    `django.db.connection` is a proxy that looks the thread's connection up again on every
    attribute: a hole's values and rows would pay that lookup a few hundred times.
    """
    return connections[DEFAULT_DB_ALIAS]


def quote(name: str) -> str:
    """A table or column name quoted for the current database."""
    return current().ops.quote_name(name)


class Writes:
    """Statements whose results nobody reads, sent in one round trip where the driver allows it.

    PostgreSQL with client-side binding (Django's default) runs several statements sent at once,
    in order, in the current transaction; other databases get them one by one. Errors (a unique
    key) surface from `send` just as from single statements.
    """

    def __init__(self) -> None:
        self.statements: list[tuple[str, Sequence[Any]]] = []

    def add(self, sql: str, params: Sequence[Any]) -> None:
        """Queue one statement."""
        self.statements.append((sql, params))

    def send(self) -> None:
        """Run the queued statements and forget them."""
        statements, self.statements = self.statements, []
        if not statements:
            return
        db = current()
        with db.cursor() as cursor:
            if sends_at_once(db):
                send_batch(db, cursor, statements)
            else:
                for sql, params in statements:
                    cursor.execute(sql, params)


def sends_at_once(db: BaseDatabaseWrapper | None = None) -> bool:
    """True where several statements go to the database in one `execute` (see `Writes`)."""
    db = db or current()
    return db.vendor == "postgresql" and not db.features.uses_server_side_binding


def prepares(db: BaseDatabaseWrapper) -> bool:
    """True where the statements of a batch run as EXECUTEs of statements PostgreSQL prepared once
    per connection (`settings.DATABASE_PREPARE_HOT_STATEMENTS`, PostgreSQL sending at once)."""
    return bool(getattr(settings, "DATABASE_PREPARE_HOT_STATEMENTS", False)) and sends_at_once(db)


class _Prepared:
    """What one driver connection has prepared, by statement name. Kept on the connection's Django
    wrapper (one per thread), for as long as the wrapper holds that same driver connection.

    `names` is None when not known, and the next preparation then starts with DEALLOCATE ALL: on a
    new connection (a pooler may hand it a server session that holds statements already), after a
    preparation that failed, and when the server lost or refused a prepared statement.
    """

    def __init__(self, raw: Any) -> None:
        self.connection = weakref.ref(raw)
        self.names: set[str] | None = None


def _prepared(db: BaseDatabaseWrapper) -> _Prepared | None:
    """The record of what `db`'s driver connection has prepared (new for a new connection); None
    while `db` is not connected."""
    raw = db.connection
    if raw is None:
        return None
    state: _Prepared | None = getattr(db, "_golfclub_prepared", None)
    if state is None or state.connection() is not raw:
        state = _Prepared(raw)
        db._golfclub_prepared = state  # type: ignore[attr-defined]
    return state


def prepared_names(db: BaseDatabaseWrapper) -> set[str] | None:
    """The names of the statements this connection is known to have prepared; None: not known."""
    state = _prepared(db)
    return None if state is None or state.names is None else set(state.names)


def forget_prepared(db: BaseDatabaseWrapper) -> None:
    """Start this connection's next preparation afresh (DEALLOCATE ALL, then every PREPARE)."""
    state = _prepared(db)
    if state is not None:
        state.names = None


_PLACEHOLDER = re.compile(r"%([s%])")
# A prepared statement lost (26000: DISCARD ALL, a pooler) or refused (0A000: "cached plan must
# not change result type", after a migration changed a column's type): prepare again next time.
_PREPARED_STATEMENT_GONE = frozenset({"26000", "0A000"})


@cache
def _preparation(sql: str) -> tuple[str, str, str]:
    """(name, PREPARE statement, EXECUTE statement) of a statement written with %s placeholders.

    The name is a digest of its text, the same in every process. The EXECUTE keeps %s placeholders
    for the driver to bind; the PREPARE is sent as it is (a literal % written %% becomes %)."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match.group(1) == "%":
            return "%"
        count += 1
        return f"${count}"

    body = _PLACEHOLDER.sub(number, sql)
    name = "gc_" + hashlib.blake2b(sql.encode(), digest_size=10).hexdigest()
    execute = f"EXECUTE {name}({', '.join(['%s'] * count)})" if count else f"EXECUTE {name}"
    return name, f"PREPARE {name} AS {body}", execute


def send_batch(db: BaseDatabaseWrapper, cursor: Any, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
    """Run `statements` in one round trip (PostgreSQL with client-side binding), the cursor left
    on the first statement's result.

    Where `prepares(db)`, each runs as the EXECUTE of a statement prepared on this connection
    (`_executions`). Why: with client-side binding PostgreSQL plans every statement every time,
    about a fifth of its CPU for a recorded hole; a prepared statement is planned once.
    """
    if prepares(db):
        statements = _executions(db, statements)
    driver = cursor.cursor
    try:
        # Each statement is bound on its own, as execute() would bind it: the driver caches the
        # parsing of a statement with few parameters, never of the whole batch.
        cursor.execute("; ".join(driver.mogrify(sql, params) for sql, params in statements))
    except Exception as error:
        if prepared_statement_gone(error):
            forget_prepared(db)
        raise


def _executions(
    db: BaseDatabaseWrapper, statements: Sequence[tuple[str, Sequence[Any]]]
) -> list[tuple[str, Sequence[Any]]]:
    """`statements` as EXECUTEs, after preparing on this connection those it has not prepared.

    The PREPAREs go in a round trip of their own, holding no value: PostgreSQL keeps the text a
    statement was prepared from and shows it with every later EXECUTE it logs, so a batch with
    values (an edit token, a key) must not be that text. They are sent on the driver's cursor,
    outside Django's query log: once per connection and statement, not part of any one request.
    """
    state = _prepared(db)
    assert state is not None  # `db` is connected: a cursor of it is open
    known = state.names or set()
    missing: dict[str, str] = {}
    executions = []
    for sql, params in statements:
        name, prepare, execute = _preparation(sql)
        if name not in known:
            missing[name] = prepare
        executions.append((execute, params))
    if missing:
        text = "; ".join(missing.values())
        if state.names is None:
            text = f"DEALLOCATE ALL; {text}"
        state.names = None  # until the server said yes
        with db.wrap_database_errors, db.connection.cursor() as driver_cursor:
            driver_cursor.execute(text)
        state.names = known | missing.keys()
    return executions


def prepared_statement_gone(error: BaseException) -> bool:
    """True for the error of a prepared statement the server lost or refused (see
    `_PREPARED_STATEMENT_GONE`); Django wraps the driver's error, whose SQLSTATE says."""
    cause = error.__cause__ or error
    return getattr(cause, "sqlstate", None) in _PREPARED_STATEMENT_GONE


type _Converters = list[tuple[int, Any, list[Callable[..., Any]]]]


@lru_cache(maxsize=256)  # per connection: converters may be bound to its operations
def _reading(
    model: type[Model], names: tuple[str, ...], db: BaseDatabaseWrapper
) -> tuple[_Converters, list[int]]:
    """For rows of columns `names`: (position, column, converters) of each field that has converters,
    and the position of each concrete field's column."""
    position = {name: index for index, name in enumerate(names)}
    converters: _Converters = []
    for field in model._meta.concrete_fields:
        if field.column in position:
            col = field.cached_col
            convert = [*db.ops.get_db_converters(col), *field.get_db_converters(db)]
            if convert:
                converters.append((position[field.column], col, convert))
    return converters, [position[field.column] for field in model._meta.concrete_fields]


def _column_names(cursor: Any) -> tuple[str, ...]:
    """The column names of `cursor`'s current result.

    psycopg's `description` builds a Column object per column on every access (a few dozen per
    recorded hole); its result object names them directly. Other drivers: `description`.
    """
    result = getattr(getattr(cursor, "cursor", cursor), "pgresult", None)
    if result is not None:
        return tuple(result.fname(index).decode() for index in range(result.nfields))
    return tuple(column[0] for column in cursor.description)


def instances[M: Model](model: type[M], cursor: Any) -> list[M]:
    """The rows of `cursor`'s current result as `model` instances, values converted as the ORM does.

    Every concrete field must be among the columns (any order); columns that are not fields (an
    extra expression) become attributes.
    """
    db = current()
    names = _column_names(cursor)
    converters, order = _reading(model, names, db)
    columns = {field.column for field in model._meta.concrete_fields}
    extra = [(index, name) for index, name in enumerate(names) if name not in columns]
    objs = []
    for row in cursor.fetchall():
        values = list(row)
        for index, col, convert in converters:
            for converter in convert:
                values[index] = converter(values[index], col, db)
        obj = model.from_db(db.alias, None, [values[index] for index in order])
        for index, name in extra:
            setattr(obj, name, values[index])
        objs.append(obj)
    return objs


@cache
def _inserting(model: type[Model], given_pk: bool, vendor: str) -> tuple[list[Field], str, str]:
    """The fields an INSERT of `model` writes, its statement up to VALUES, and one row's placeholders."""
    meta = model._meta
    fields = [field for field in meta.concrete_fields if given_pk or field is not meta.auto_field]
    head = f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) VALUES "
    return fields, head, "(" + ", ".join(["%s"] * len(fields)) + ")"


def insert(objs: Sequence[Model], *, returning_pk: bool = False, writes: Writes | None = None) -> None:
    """INSERT new instances of one model in one statement, as `save()` would (auto dates set).

    With `returning_pk` each instance gets its new primary key; else with `writes` the statement
    is queued there.
    """
    db = current()
    meta = objs[0]._meta
    fields, head, row = _inserting(type(objs[0]), objs[0].pk is not None, db.vendor)
    sql = head + ", ".join([row] * len(objs))
    params = [field.get_db_prep_save(field.pre_save(obj, True), db) for obj in objs for field in fields]
    if writes is not None and not returning_pk:
        writes.add(sql, params)
        return
    with db.cursor() as cursor:
        if not returning_pk:
            cursor.execute(sql, params)
        else:
            cursor.execute(f"{sql} RETURNING {quote(meta.pk.column)}", params)
            for obj, (pk,) in zip(objs, cursor.fetchall(), strict=True):
                obj.pk = pk
    for obj in objs:
        obj._state.adding, obj._state.db = False, db.alias
