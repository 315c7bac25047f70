"""Batched raw writes for the hot path of recording a hole (see scoring/services.py).

Built by the ORM, the statements every recorded hole runs cost about three times the Python time
of sending them (measured with bench/live_games.py), so those few are written out here once:
vendor-neutral SQL, every value prepared by its own model field exactly as the ORM prepares it.
Nothing here knows about Golf; everything else in the project uses the ORM.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import Model

__all__ = ["Writes", "insert", "instances", "quote", "sends_at_once"]


def quote(name: str) -> str:
    """A table or column name quoted for the current database."""
    return connection.ops.quote_name(name)


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
        with connection.cursor() as cursor:
            if sends_at_once():
                params = [param for _, each in statements for param in each]
                cursor.execute("; ".join(sql for sql, _ in statements), params)
            else:
                for sql, params in statements:
                    cursor.execute(sql, params)


def sends_at_once() -> bool:
    return connection.vendor == "postgresql" and not connection.features.uses_server_side_binding


def instances[M: Model](model: type[M], cursor: Any) -> list[M]:
    """The rows of `cursor`'s current result as `model` instances, values converted as the ORM does.

    Columns that are not fields (an extra expression) become attributes.
    """
    names = [column[0] for column in cursor.description]
    by_column = {field.column: field for field in model._meta.concrete_fields}
    converters = {}
    for name in names:
        if name in by_column:
            col = by_column[name].cached_col
            converters[name] = (
                col,
                [*connection.ops.get_db_converters(col), *by_column[name].get_db_converters(connection)],
            )
    objs = []
    for row in cursor.fetchall():
        values = dict(zip(names, row, strict=True))
        for name, (col, convert) in converters.items():
            for converter in convert:
                values[name] = converter(values[name], col, connection)
        obj = model.from_db(
            connection.alias, None, [values[field.column] for field in model._meta.concrete_fields]
        )
        for name in names:
            if name not in by_column:
                setattr(obj, name, values[name])
        objs.append(obj)
    return objs


def insert(objs: Sequence[Model], *, returning_pk: bool = False, writes: Writes | None = None) -> None:
    """INSERT new instances of one model in one statement, as `save()` would (auto dates set).

    With `returning_pk` each instance gets its new primary key; else with `writes` the statement
    is queued there.
    """
    meta = objs[0]._meta
    given_pk = objs[0].pk is not None
    fields = [field for field in meta.concrete_fields if given_pk or field is not meta.auto_field]
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) "
        f"VALUES {', '.join([row] * len(objs))}"
    )
    params = [
        field.get_db_prep_save(field.pre_save(obj, True), connection) for obj in objs for field in fields
    ]
    if writes is not None and not returning_pk:
        writes.add(sql, params)
        return
    with connection.cursor() as cursor:
        if not returning_pk:
            cursor.execute(sql, params)
        else:
            cursor.execute(f"{sql} RETURNING {quote(meta.pk.column)}", params)
            for obj, (pk,) in zip(objs, cursor.fetchall(), strict=True):
                obj.pk = pk
    for obj in objs:
        obj._state.adding, obj._state.db = False, connection.alias
