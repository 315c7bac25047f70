"""The hole's statements prepared once per PostgreSQL connection (`scoring.db_batch.send_batch`).

Recording a hole sends its statements as EXECUTEs; those a connection has not prepared yet are
prepared in the same round trip. Checked here by what reaches PostgreSQL (the statements sent and
`pg_prepared_statements`) and by the rows written. Skipped (with the reason) on other databases.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import Sum
from django.test import override_settings

from scoring import db_batch, db_statements, services
from scoring.models import Game, HoleEntry, IdempotencyKey

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="prepared statements are PostgreSQL's: set "
        "DATABASE_URL=postgres://postgres@127.0.0.1:5432/golfclub",
    ),
    pytest.mark.skipif(
        connection.vendor == "postgresql" and not db_batch.sends_at_once(connection),
        reason="with DATABASE_SERVER_SIDE_BINDING the hole's statements go one by one and psycopg "
        "prepares them itself",
    ),
    pytest.mark.django_db,
]

NAMES = ["Ann", "Bob", "Cy"]


@pytest.fixture(autouse=True)
def _nothing_prepared() -> None:
    """Each test starts from a connection that holds no prepared statement."""
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")
        db_batch.forget_prepared(connection)
        db_batch.send_batch(connection, cursor, [("SELECT 1", ())])  # asks the server: nothing
    assert db_batch.prepared_names(connection) == _prepared_on_server() and len(_prepared_on_server()) == 1


@contextmanager
def _sent() -> Iterator[list[str]]:
    """The SQL text of every execute() while inside (the savepoints of nested atomic blocks left out)."""
    sent: list[str] = []

    def record(execute, sql, params, many, context):
        if not sql.startswith(("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")):
            sent.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        yield sent


def _prepared_on_server() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM pg_prepared_statements")
        return {name for (name,) in cursor.fetchall()}


def _record(game: Game, number: int, key: str | None = "k") -> None:
    entries = {name: (number * 3 + i) % 10 for i, name in enumerate(NAMES)}
    services.hole_record(
        game, entries=entries, ender=None, idempotency_key=f"{key}-{number}" if key else None
    )


def _game() -> Game:
    return services.create_game(players=NAMES, ruleset="official")


def test_it_prepares_each_statement_of_a_hole_once_per_connection() -> None:
    first, second = _game(), _game()
    with _sent() as sent:
        _record(first, 1)
    assert len(sent) == 2 and all("PREPARE gc_" in sql and "EXECUTE gc_" in sql for sql in sent)
    with _sent() as sent:  # the first hole also froze the rules: the game's UPDATE is another
        _record(first, 2)
    assert [sql.count("PREPARE") for sql in sent] == [0, 1]
    with _sent() as sent:
        _record(second, 1)
        _record(second, 2)
        _record(first, 3)
    assert sent and not [sql for sql in sent if "PREPARE" in sql]
    assert len(sent) == 6  # still one round trip for the lock and one for the writes, each hole
    assert {name for name in _prepared_on_server() if name.startswith("gc_")} == db_batch.prepared_names(
        connection
    )
    # What the executions wrote: the holes in order, and totals equal to the entries' sums.
    for game, holes in ((first, 3), (second, 2)):
        assert [hole.number for hole in game.holes.all()] == list(range(1, holes + 1))
        sums = HoleEntry.objects.filter(hole__game=game).values("seat__name").annotate(total=Sum("score"))
        stored = {seat.name: (seat.total, seat.holes_played) for seat in game.seats.all()}
        assert stored == {row["seat__name"]: (row["total"], holes) for row in sums}
        assert IdempotencyKey.objects.filter(game=game).count() == holes


def test_it_sends_the_plain_statements_when_preparing_is_off() -> None:
    game = _game()
    with override_settings(DATABASE_PREPARE_HOT_STATEMENTS=False), _sent() as sent:
        _record(game, 1)
        _record(game, 2)
    assert len(sent) == 4 and not [sql for sql in sent if "PREPARE" in sql or "EXECUTE" in sql]
    assert len(_prepared_on_server()) == 1  # the fixture's own
    assert [hole.number for hole in game.holes.all()] == [1, 2]


def test_it_asks_the_server_what_is_prepared_after_a_batch_that_prepared_failed() -> None:
    game = _game()
    _record(game, 1)
    hole = game.holes.get()
    db_batch.forget_prepared(connection)
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")
    # A batch that prepares the key's INSERT, then fails on its second use: the unique key.
    writes = db_statements.Writes()
    for request_hash in ("a", "b"):
        record = IdempotencyKey(game=game, key="k-1", request_hash=request_hash, hole=hole)
        db_statements.insert_idempotency_key(record, writes=writes)
    with pytest.raises(IntegrityError), transaction.atomic():
        writes.send()
    assert db_batch.prepared_names(connection) is None  # not known which ran
    with _sent() as sent:
        _record(game, 2)
    assert sent[0] == "SELECT name FROM pg_prepared_statements"
    assert len(sent) == 3
    assert [hole.number for hole in game.holes.all()] == [1, 2]
    assert IdempotencyKey.objects.filter(game=game).count() == 2  # hole 1's and hole 2's keys


def test_it_prepares_again_on_the_next_hole_when_the_server_forgot() -> None:
    game = _game()
    _record(game, 1)
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")  # as DISCARD ALL or a pooler handing over another connection
    with pytest.raises(DatabaseError, match="does not exist"), transaction.atomic():
        _record(game, 2)
    assert db_batch.prepared_names(connection) is None
    _record(game, 2)  # the phone's retry
    assert [hole.number for hole in game.holes.all()] == [1, 2]


def test_it_keeps_recording_when_a_column_is_added_meanwhile() -> None:
    # A migration adding a column while this code still runs (a rolling deploy): a prepared
    # SELECT * would be refused ("cached plan must not change result type"); named columns are not.
    game = _game()
    _record(game, 1)
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending foreign-key checks, for ALTER
        cursor.execute("ALTER TABLE scoring_game ADD COLUMN added_later integer")
        cursor.execute("ALTER TABLE scoring_seat ADD COLUMN added_later integer")
    _record(game, 2)
    assert [hole.number for hole in game.holes.all()] == [1, 2]


def test_a_batch_binds_each_statement_and_keeps_a_literal_percent_sign() -> None:
    with connection.cursor() as cursor:
        db_batch.send_batch(connection, cursor, [("SELECT %s %% 3, %s::text", [7, "50%"]), ("SELECT 1", ())])
        assert cursor.fetchone() == (1, "50%")
        cursor.nextset()
        assert cursor.fetchone() == (1,)
        # The second time the same statements run prepared, with the same results.
        db_batch.send_batch(connection, cursor, [("SELECT %s %% 3, %s::text", [8, "%s"]), ("SELECT 1", ())])
        assert cursor.fetchone() == (2, "%s")
