"""The hole's statements prepared once per PostgreSQL connection (`scoring.db_batch.send_batch`).

Recording a hole sends its statements as EXECUTEs; those a connection has not prepared yet are
prepared in the same round trip. Checked here by what reaches PostgreSQL (the statements sent and
`pg_prepared_statements`) and by the rows written. Skipped (with the reason) on other databases.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.db import connection
from django.db.models import Sum
from django.test import override_settings

from scoring import db_batch, services
from scoring.models import Game, HoleEntry, IdempotentRequest

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


def _on_server() -> dict[str, tuple[str, object]]:
    """The statements this connection has prepared: name -> (text it was prepared from, when)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT name, statement, prepare_time FROM pg_prepared_statements")
        return {name: (text, when) for name, text, when in cursor.fetchall()}


def _record(game: Game, number: int, key: str | None = "k") -> None:
    entries = {name: (number * 3 + i) % 10 for i, name in enumerate(NAMES)}
    services.hole_record(
        game, entries=entries, ender=None, idempotency_key=f"{key}-{number}" if key else None
    )


def _game() -> Game:
    return services.create_game(players=NAMES, ruleset="official")


def test_it_prepares_each_statement_of_a_hole_once_per_connection_from_a_text_without_values() -> None:
    first, second = _game(), _game()
    with _sent() as sent:
        _record(first, 1)
    # The request's own round trips: the lock and the writes, as EXECUTEs.
    assert len(sent) == 2 and all(sql.startswith("EXECUTE gc_") for sql in sent)
    after_first = _on_server()
    _record(first, 2)  # the first hole also froze the rules: the game's UPDATE is another statement
    prepared = _on_server()
    assert len(prepared) == len(after_first) + 1
    with _sent() as sent:
        _record(second, 1)
        _record(second, 2)
        _record(first, 3)
    assert len(sent) == 6 and all("EXECUTE gc_" in sql and "PREPARE" not in sql for sql in sent)
    assert _on_server() == prepared  # nothing prepared again: the same statements, same times
    assert set(prepared) == db_batch.prepared_names(connection)
    # PostgreSQL keeps (and logs with every EXECUTE) the text a statement was prepared from: it holds
    # no request's values, neither an edit token nor a key.
    for text, _when in prepared.values():
        assert text.startswith("DEALLOCATE ALL; PREPARE gc_") or text.startswith("PREPARE gc_")
        assert first.edit_token not in text and second.edit_token not in text and "'k-" not in text
    # What the executions wrote: the holes in order, and totals equal to the entries' sums.
    for game, holes in ((first, 3), (second, 2)):
        assert [hole.number for hole in game.holes.all()] == list(range(1, holes + 1))
        sums = HoleEntry.objects.filter(hole__game=game).values("seat__name").annotate(total=Sum("score"))
        stored = {seat.name: (seat.total, seat.holes_played) for seat in game.seats.all()}
        assert stored == {row["seat__name"]: (row["total"], holes) for row in sums}
        assert IdempotentRequest.objects.filter(game=game).count() == holes


def test_it_sends_the_plain_statements_when_preparing_is_off() -> None:
    game = _game()
    with override_settings(DATABASE_PREPARE_HOT_STATEMENTS=False), _sent() as sent:
        _record(game, 1)
        _record(game, 2)
    assert len(sent) == 4 and not [sql for sql in sent if "PREPARE" in sql or "EXECUTE" in sql]
    assert not _on_server()
    assert [hole.number for hole in game.holes.all()] == [1, 2]


def test_a_new_connection_replaces_statements_its_server_session_already_holds() -> None:
    # A pooler in session mode may hand a new client a server session that prepared the same
    # statements for an earlier client: PREPARE would fail ("already exists").
    game = _game()
    _record(game, 1)
    del connection._golfclub_prepared  # the record a new connection starts from
    _record(game, 2)
    _record(game, 3)
    assert [hole.number for hole in game.holes.all()] == [1, 2, 3]
    assert set(_on_server()) == db_batch.prepared_names(connection)


def test_it_prepares_afresh_after_a_preparation_failed() -> None:
    with connection.cursor() as cursor:
        cursor.execute("PREPARE " + db_batch._preparation("SELECT 1")[0] + " AS SELECT 2")
    db_batch.forget_prepared(connection)
    with connection.cursor() as cursor:
        db_batch.send_batch(connection, cursor, [("SELECT 1", ())])  # DEALLOCATE ALL went first
        assert cursor.fetchone() == (1,)
    assert db_batch.prepared_names(connection) == set(_on_server())


def test_it_prepares_again_on_the_next_hole_when_the_server_forgot() -> None:
    game = _game()
    _record(game, 1)
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")  # as DISCARD ALL, or a pooler handing over another session
    with _sent() as sent:
        _record(game, 2)  # refused, then tried again at once: prepared afresh
    assert len(sent) == 3 and sent[0] == sent[1]  # the lock refused, the lock again, the writes
    assert [hole.number for hole in game.holes.all()] == [1, 2]
    assert set(_on_server()) == db_batch.prepared_names(connection)


def _alter(*statements: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending foreign-key checks, for ALTER
        for sql in statements:
            cursor.execute(sql)


def test_it_keeps_recording_when_a_column_is_added_meanwhile() -> None:
    # A migration adding a column while this code still runs (a rolling deploy): a prepared
    # SELECT * would be refused ("cached plan must not change result type"); named columns are not.
    game = _game()
    _record(game, 1)
    _alter(
        "ALTER TABLE scoring_game ADD COLUMN added_later integer",
        "ALTER TABLE scoring_seat ADD COLUMN added_later integer",
    )
    _record(game, 2)
    assert [hole.number for hole in game.holes.all()] == [1, 2]


def test_it_prepares_again_when_a_column_changed_its_type_meanwhile() -> None:
    # A migration changing a column's type (AlterField) changes the lock's result: PostgreSQL
    # refuses the statement prepared before once, and the hole is tried again, prepared afresh.
    game = _game()
    _record(game, 1)
    _alter("ALTER TABLE scoring_game ALTER COLUMN managed_label TYPE varchar(300)")
    with _sent() as sent:
        _record(game, 2)  # refused once, then tried again at once
    assert len(sent) == 3  # the lock refused, the lock again, the writes
    _record(game, 3)
    assert [hole.number for hole in game.holes.all()] == [1, 2, 3]


def test_a_batch_binds_each_statement_and_keeps_a_literal_percent_sign() -> None:
    with connection.cursor() as cursor:
        db_batch.send_batch(connection, cursor, [("SELECT %s %% 3, %s::text", [7, "50%"]), ("SELECT 1", ())])
        assert cursor.fetchone() == (1, "50%")
        cursor.nextset()
        assert cursor.fetchone() == (1,)
        # The second time the same statements run prepared, with the same results.
        db_batch.send_batch(connection, cursor, [("SELECT %s %% 3, %s::text", [8, "%s"]), ("SELECT 1", ())])
        assert cursor.fetchone() == (2, "%s")
    assert "SELECT $1 % 3" in "".join(text for text, _when in _on_server().values())


@pytest.mark.django_db(transaction=True)
def test_the_phone_never_sees_it_when_the_server_forgot_the_statements(client) -> None:
    # Through the API, with real commits (as a request runs): the hole's transaction, rolled back
    # whole when the lost statement failed, is tried once more; the phone sees only its 201.
    game = _game()
    _record(game, 1)
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")
    response = client.post(
        f"/api/v1/games/{game.edit_token}/holes/",
        {"entries": {"Ann": 3, "Bob": 4, "Cy": 5}, "ender": "Ann"},
        content_type="application/json",
        headers={"Idempotency-Key": "phone-2"},
    )
    assert response.status_code == 201, response.content
    assert response.json()["number"] == 2
    assert [hole.number for hole in game.holes.all()] == [1, 2]
    assert [seat.total for seat in game.seats.order_by("seat")] == [
        sum(HoleEntry.objects.filter(seat=seat).values_list("score", flat=True))
        for seat in game.seats.order_by("seat")
    ]
    assert IdempotentRequest.objects.filter(game=game, key="phone-2").count() == 1
