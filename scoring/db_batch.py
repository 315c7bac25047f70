"""The machinery under the hand-written statements of `scoring/db_statements.py`.

Built by the ORM, the statements every recorded hole runs cost about three times the Python time
of sending them (measured with bench/live_games.py), so `scoring.db_statements` writes those few
out, on top of what is here: a batch of writes sent in one round trip (`Writes`), rows read into
model instances as the ORM converts them (`instances`), and INSERTs whose values are prepared by
each model field exactly as the ORM prepares them (`insert`). Vendor-neutral; nothing here knows
about Golf. Only `scoring.db_statements` uses this module; everything else uses the ORM.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

__all__ = ["Writes", "current", "insert", "instances", "quote", "sends_at_once"]


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
                # Each statement is bound on its own, as execute() would bind it: the driver
                # caches the parsing of a statement with few parameters, never of the whole batch.
                driver = cursor.cursor
                cursor.execute("; ".join(driver.mogrify(sql, params) for sql, params in statements))
            else:
                for sql, params in statements:
                    cursor.execute(sql, params)


def sends_at_once(db: BaseDatabaseWrapper | None = None) -> bool:
    """True where several statements go to the database in one `execute` (see `Writes`)."""
    db = db or current()
    return db.vendor == "postgresql" and not db.features.uses_server_side_binding


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

    Every concrete field must be among the columns (SELECT *); columns that are not fields (an
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
