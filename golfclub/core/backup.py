"""Shared plumbing of an event's backup file (`manage.py export_event` / `import_event`).

The file is plain JSON that `scoring` (a table's game) and `tournaments` (the event) each map to
and from their own rows. This module holds what both need and neither owns:

- `BackupError`: what is wrong with a file, and where in it (`rounds[1].tables[0].game.holes[2]`);
- `Record`: one object of the file, each value checked as it is read, so that a corrupt or
  hand-edited file is refused with a clear message instead of a database error or a 500;
- `insert_rows`: rows inserted with their ids and their stored timestamps kept (Django's
  `auto_now`/`auto_now_add` would otherwise stamp them with the time of the import);
- `refuse_taken`: refuse ids or tokens that the database already holds, before writing anything;
- `read_snapshot`: the export's one consistent view of the database (REPEATABLE READ, read only);
- `import_lock`, `database_refusal`: two imports at once, and what the database refused, in words;
- `advance_id_sequences`: move PostgreSQL's id sequences past the ids inserted by hand;
- `user_for_username`: the user a file names, matched by username or created without a password.
"""

from __future__ import annotations

import datetime
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import DatabaseError, connection, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _

from golfclub.core.limits import BIGINT_MAX

#: Names of a datetime's fields that `auto_now`/`auto_now_add` overwrite on insert.
_STAMPED = (models.DateTimeField, models.DateField)


class BackupError(Exception):
    """A backup file that cannot be read or loaded: `where` in the file, and what is wrong."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.message = message


def dump_datetime(value: datetime.datetime | datetime.date | None) -> str | None:
    """A datetime (or date) as ISO 8601 text, as the file stores it (None stays None)."""
    return None if value is None else value.isoformat()


class Record:
    """One JSON object of a backup file at `where`: every value is checked as it is taken.

    Each getter names the key it reads in its error (`tournament.rounds`: "a whole number is
    expected"), so that the person restoring learns what is wrong and where at once.
    """

    def __init__(self, data: Any, where: str) -> None:
        if not isinstance(data, dict):
            raise BackupError(where, _("an object is expected here."))
        self.data = data
        self.where = where

    def _path(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def _value(self, key: str) -> Any:
        if key not in self.data:
            raise BackupError(self._path(key), _("this key is missing."))
        return self.data[key]

    def has(self, key: str) -> bool:
        """True when the object holds `key`."""
        return key in self.data

    def value(self, key: str) -> Any:
        """Any JSON value (a JSON field's content, kept as it is)."""
        return self._value(key)

    def number(self, key: str, *, null: bool = False, low: int = 0, high: int = BIGINT_MAX) -> Any:
        """A whole number from `low` to `high` (None allowed when `null`)."""
        value = self._value(key)
        if value is None and null:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise BackupError(
                self._path(key),
                _("a whole number from %(low)s to %(high)s is expected.") % {"low": low, "high": high},
            )
        return value

    def text(self, key: str, *, null: bool = False, blank: bool = True) -> Any:
        """A text (None allowed when `null`; empty refused unless `blank`)."""
        value = self._value(key)
        if value is None and null:
            return None
        if not isinstance(value, str) or (not blank and not value) or "\x00" in value:
            raise BackupError(self._path(key), _("a text without NUL characters is expected."))
        return value

    def flag(self, key: str) -> bool:
        """true or false."""
        value = self._value(key)
        if not isinstance(value, bool):
            raise BackupError(self._path(key), _("true or false is expected."))
        return value

    def choice(self, key: str, choices: Collection[str], *, blank: bool = False) -> str:
        """One of `choices` (or "" when `blank`)."""
        value = self._value(key)
        if value not in choices and not (blank and value == ""):
            raise BackupError(
                self._path(key),
                _("one of %(choices)s is expected.") % {"choices": ", ".join(sorted(choices))},
            )
        return value

    def moment(self, key: str, *, null: bool = False) -> Any:
        """An ISO 8601 datetime with its time zone."""
        value = self._value(key)
        if value is None and null:
            return None
        parsed = parse_datetime(value) if isinstance(value, str) else None
        if parsed is None or timezone.is_naive(parsed):
            raise BackupError(self._path(key), _("a date and time with its time zone is expected."))
        return parsed

    def day(self, key: str, *, null: bool = False) -> Any:
        """An ISO 8601 date (YYYY-MM-DD)."""
        value = self._value(key)
        if value is None and null:
            return None
        try:
            parsed = parse_date(value) if isinstance(value, str) else None
        except ValueError:
            parsed = None
        if parsed is None:
            raise BackupError(self._path(key), _("a date (YYYY-MM-DD) is expected."))
        return parsed

    def array(self, key: str) -> list[Any]:
        """A JSON array (its items unchecked)."""
        value = self._value(key)
        if not isinstance(value, list):
            raise BackupError(self._path(key), _("a list is expected."))
        return value

    def record(self, key: str) -> Record:
        """A nested object."""
        return Record(self._value(key), self._path(key))

    def records(self, key: str) -> list[Record]:
        """A list of objects, each a `Record` named by its index."""
        return [Record(item, f"{self._path(key)}[{index}]") for index, item in enumerate(self.array(key))]


@contextmanager
def read_snapshot() -> Iterator[None]:
    """Run the block's queries in one transaction that sees the database as it was at its first query.

    An export reads an event in several queries while tables go on scoring: under PostgreSQL's
    default READ COMMITTED each query sees what was committed when it started, so a hole saved
    between the seats' query and the entries' query made a file whose totals lag behind its holes,
    or a hole with no entries. REPEATABLE READ gives every query of the transaction the snapshot
    of its first one; READ ONLY because an export writes nothing (it never waits for, nor makes
    anyone wait for, a lock, and never fails on a serialization conflict).

    Inside a transaction the caller opened, its queries have run already and the isolation level
    can no longer be set: the block joins the caller's transaction, whose view the caller chose.
    SQLite (development) needs nothing more: one of its transactions reads one snapshot already.
    """
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def insert_rows(model: type[models.Model], rows: Sequence[models.Model]) -> None:
    """Insert `rows` with the ids and the datetimes they carry.

    `bulk_create` runs each field's `pre_save`, which stamps `auto_now`/`auto_now_add` fields with
    the present time: those values are put back and written again with `bulk_update`, which does not.
    """
    if not rows:
        return
    stamped = [
        f
        for f in model._meta.concrete_fields
        if isinstance(f, _STAMPED) and (getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False))
    ]
    kept = [[getattr(row, f.attname) for f in stamped] for row in rows]
    model._default_manager.bulk_create(rows)
    if stamped:
        for row, values in zip(rows, kept, strict=True):
            for f, value in zip(stamped, values, strict=True):
                setattr(row, f.attname, value)
        model._default_manager.bulk_update(rows, [f.name for f in stamped])


def refuse_taken(model: type[models.Model], field: str, values: Iterable[Any], what: str) -> None:
    """`BackupError` when the database already holds one of `values` in `model.field` (one query)."""
    wanted = {value for value in values if value is not None}
    if not wanted:
        return
    taken = sorted(
        str(v)
        for v in model._default_manager.filter(**{f"{field}__in": wanted}).values_list(field, flat=True)
    )
    if taken:
        shown = ", ".join(taken[:5]) + (", ..." if len(taken) > 5 else "")
        raise BackupError(
            what,
            _(
                "already in this database: %(values)s. This event, or part of it, is here already: "
                "restore into an empty database, or delete the event first."
            )
            % {"values": shown},
        )


#: PostgreSQL's SQLSTATE of a unique constraint's refusal.
_UNIQUE_VIOLATION = "23505"


def import_lock(name: str) -> bool:
    """Take the lock called `name` until the present transaction ends: False when another holds it.

    PostgreSQL's advisory lock, tried without waiting. SQLite (development) lets one writer at a
    time in anyway: always True there.
    """
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(hashtextextended(%s, 0))", [name])
        (locked,) = cursor.fetchone()
    return bool(locked)


def database_refusal(refused: DatabaseError) -> BackupError:
    """The `BackupError` of a file the database refused, in words a person restoring can act on."""
    if getattr(refused.__cause__, "sqlstate", None) == _UNIQUE_VIOLATION:
        # A row with one of the file's ids (or a link token) was committed meanwhile by someone
        # else, after the checks found none: another import of a file holding it, most likely.
        return BackupError(
            "event",
            _(
                "part of this event (a row with one of its ids, or a table link token) was written to "
                "the database by someone else while this file was being imported: another import "
                "holding it is under way. Wait for it to end, then check whether the event is there."
            ),
        )
    text = str(refused).strip()
    first_line = text.splitlines()[0] if text else type(refused).__name__
    return BackupError("event", _("The database refused the file: %(why)s") % {"why": first_line})


def advance_id_sequences(*models_: type[models.Model]) -> None:
    """Move each model's id sequence past the largest id in its table (ids were inserted by hand).

    Never moves a sequence back, so that ids handed out meanwhile are never handed out again.
    PostgreSQL only: SQLite (development) takes the next id from the table's largest one itself.
    """
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in models_:
            table = model._meta.db_table
            column = model._meta.pk.column
            cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", [table, column])
            (sequence,) = cursor.fetchone()
            if sequence is None:
                continue
            quoted_table, quoted_column = connection.ops.quote_name(table), connection.ops.quote_name(column)
            cursor.execute(
                f"SELECT setval(%s, GREATEST((SELECT COALESCE(MAX({quoted_column}), 1) FROM {quoted_table}), "
                f"(SELECT last_value FROM {sequence})))",
                [sequence],
            )


def user_for_username(username: Any, where: str) -> AbstractBaseUser:
    """The user called `username`, created with an unusable password when missing.

    A restored event's director and staff log in as before where their accounts exist; elsewhere
    an administrator sets their password (`manage.py changepassword NAME`).
    """
    user_model = get_user_model()
    field = user_model._meta.get_field(user_model.USERNAME_FIELD)
    if not isinstance(username, str) or not username.strip() or len(username) > (field.max_length or 150):
        raise BackupError(where, _("a username is expected."))
    found = user_model._default_manager.filter(**{user_model.USERNAME_FIELD: username}).first()
    if found is not None:
        return found
    user = user_model(**{user_model.USERNAME_FIELD: username})
    user.set_unusable_password()
    user.save()
    return user
